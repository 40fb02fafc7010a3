/**
 * Undecryptable messages in words (issue 16, points 3 and 8): each failure
 * the crypto layer classifies shows as a category a person understands,
 * never as the engine's raw reason; SPEC §8's '** Unable to decrypt: … **'
 * body stays the message's text and sits behind "Details"; the room list's
 * preview of one says "Encrypted message".
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { undecryptableEvent } from "@lattice/sdk/crypto/decrypt";
import type { DecryptionFailure } from "@lattice/sdk/crypto/decrypt";
import { MessageBody } from "../../features/timeline/MessageBody";
import { previewOf } from "../../features/timeline/preview";
import { explainUtd } from "./utd";

const PARSER_ERROR = "The message didn't have a valid version, expected 4, got 100 at line 1 column 363";

function utd(failure: DecryptionFailure) {
  return undecryptableEvent(
    {
      event_id: "$utd",
      type: "m.room.encrypted",
      sender: "@bob:hs",
      origin_server_ts: 1000,
      content: { algorithm: "m.megolm.v1.aes-sha2", ciphertext: "AAAA", session_id: "s1" },
    },
    failure,
  ).event;
}

/** The message as the timeline renders it: the visible line and the "Details" disclosure. */
function rendered(event: ReturnType<typeof utd>): { line: string; details: string } {
  const html = renderToStaticMarkup(
    createElement(MessageBody, {
      item: {
        type: event.type,
        content: event.content,
        sender: event.sender,
        redacted: false,
        edited: false,
        event,
      },
      nameOf: (id: string) => id,
    }),
  );
  const text = (s: string): string =>
    s
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
  const details = /<details[^>]*>([\s\S]*)<\/details>/.exec(html)?.[1] ?? "";
  const line = /<p[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "";
  return { line: text(line), details: text(details) };
}

describe("undecryptable messages in words", () => {
  const cases: Array<[string, DecryptionFailure, string]> = [
    [
      "the sender has not sent the keys yet",
      {
        code: "missing_room_key",
        reason: "The sender's device has not sent us the keys for this message.",
        expected: false,
      },
      "⚠ Waiting for this message: the sender's device has not sent us the keys yet.",
    ],
    [
      "sent before you joined",
      {
        code: "not_joined",
        reason: "You were not a member of the room when this message was sent.",
        expected: true,
      },
      "⚠ You were not a member of the room when this message was sent.",
    ],
    [
      "sent before this device signed in",
      {
        code: "historical_message",
        reason: "This message was sent before this device signed in.",
        expected: true,
      },
      "⚠ You don't have access to this message: it was sent before this device signed in.",
    ],
    [
      "from an unverified device",
      { code: "unsigned_sender_device", reason: "The sender's device was not signed", expected: false },
      "⚠ Not decrypted: it was sent from a device its owner has not verified.",
    ],
    [
      "withheld, with the reason",
      {
        code: "withheld",
        reason: "The sender has blocked you.",
        expected: true,
        withheld: "The sender has blocked you.",
      },
      "⚠ The sender withheld the keys to this message: The sender has blocked you.",
    ],
    [
      "malformed ciphertext",
      { code: "unable_to_decrypt", reason: PARSER_ERROR, expected: false },
      "⚠ Unable to decrypt this message.",
    ],
  ];

  for (const [what, failure, words] of cases) {
    it(`explains ${what} in words, the technical reason behind "Details"`, () => {
      const event = utd(failure);
      // SPEC §8: the body (copy, plain-text export) stays the stand-in with the reason.
      expect(event.content["body"]).toBe(`** Unable to decrypt: ${failure.reason} **`);
      const { line, details } = rendered(event);
      expect(line).toBe(words);
      expect(line).not.toContain("** Unable to decrypt");
      expect(details).toContain("Details");
      expect(details).toContain(`** Unable to decrypt: ${failure.reason} **`);
      expect(details).toContain(failure.code);
    });
  }

  it("never shows the parser error as the message or the room list preview", () => {
    const event = utd({ code: "unable_to_decrypt", reason: PARSER_ERROR, expected: false });
    expect(rendered(event).line).not.toContain("valid version");
    expect(previewOf(event)).toBe("Encrypted message");
  });

  it("asks to verify this device for older messages when it is known to be unverified", () => {
    const event = utd({
      code: "historical_message",
      reason: "This message was sent before this device signed in.",
      expected: true,
    });
    expect(explainUtd(event, { ownDeviceVerified: false })?.kind).toBe("own_unverified");
    expect(explainUtd(event, { ownDeviceVerified: true })?.kind).toBe("historical");
    expect(explainUtd({ ...event, content: { msgtype: "m.text", body: "hi" } })).toBe(null);
  });
});
