/**
 * Edits, reactions, replies, threads and undecryptable events: the spec's
 * validity rules for m.replace, per-sender reaction de-duplication and
 * redaction, reply fallback stripping, thread fallbacks, and the UTD body.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { aggregateReactions, applyEdits, relationOf, whyEditInvalid } from "../../src/models/relations";
import {
  badEncryptedContent,
  bundledThreadSummary,
  replyTargetOf,
  stripHtmlReplyFallback,
  stripPlainReplyFallback,
  stripReplyFallback,
  threadMembershipOf,
  undecryptableBody,
} from "../../src/models/replies";

const ALICE = "@alice:hs";
const BOB = "@bob:hs";

function ev(
  id: string,
  sender: string,
  content: Record<string, unknown>,
  extra: Partial<ClientEventWithoutRoomId> = {},
) {
  return {
    event_id: id,
    type: "m.room.message",
    sender,
    origin_server_ts: 1,
    content,
    ...extra,
  };
}
function edit(
  id: string,
  sender: string,
  body: string,
  ts: number,
  extra: Partial<ClientEventWithoutRoomId> = {},
) {
  return ev(
    id,
    sender,
    {
      msgtype: "m.text",
      body: `* ${body}`,
      "m.new_content": {
        msgtype: "m.text",
        body,
        "m.relates_to": { rel_type: "m.thread", event_id: "$hijack" },
      },
      "m.relates_to": { rel_type: "m.replace", event_id: "$orig" },
    },
    { origin_server_ts: ts, ...extra },
  );
}

const original = ev("$orig", ALICE, {
  msgtype: "m.text",
  body: "helo",
  "m.relates_to": { "m.in_reply_to": { event_id: "$p" } },
});

describe("edits", () => {
  it("applies the latest valid edit, keeps the original relation, and lists history", () => {
    const out = applyEdits(original, [edit("$e2", ALICE, "hello!", 20), edit("$e1", ALICE, "hello", 10)]);
    expect(out.edited).toBe(true);
    expect(out.content).toEqual({
      msgtype: "m.text",
      body: "hello!",
      "m.relates_to": { "m.in_reply_to": { event_id: "$p" } },
    });
    expect(out.history.map((e) => e.event_id)).toEqual(["$e1", "$e2"]);
    expect(out.latestEdit?.event_id).toBe("$e2");
  });

  it("breaks origin_server_ts ties by the greater event id", () => {
    const out = applyEdits(original, [edit("$b", ALICE, "B", 5), edit("$a", ALICE, "A", 5)]);
    expect(out.content["body"]).toBe("B");
  });

  it.each([
    ["another sender", edit("$x", BOB, "evil", 99), "edit from another sender"],
    ["a type change", edit("$x", ALICE, "x", 99, { type: "m.sticker" }), "edit changes the event type"],
    ["a state event", edit("$x", ALICE, "x", 99, { state_key: "" }), "state events cannot be edited"],
    [
      "a missing m.new_content",
      ev("$x", ALICE, { "m.relates_to": { rel_type: "m.replace", event_id: "$orig" } }),
      "edit without m.new_content",
    ],
    [
      "a redacted edit",
      edit("$x", ALICE, "x", 99, { unsigned: { redacted_because: {} as ClientEventWithoutRoomId } }),
      "edit was redacted",
    ],
    [
      "another target",
      ev("$x", ALICE, { "m.relates_to": { rel_type: "m.replace", event_id: "$other" }, "m.new_content": {} }),
      "not an edit of this event",
    ],
  ])("ignores %s", (_name, bad, why) => {
    expect(whyEditInvalid(original, bad)).toBe(why);
    const out = applyEdits(original, [edit("$ok", ALICE, "ok", 1), bad]);
    expect(out.content["body"]).toBe("ok");
    expect(out.history).toHaveLength(1);
  });

  it("shows no edits on a redacted original and none when there are none", () => {
    const redacted = { ...original, unsigned: { redacted_because: {} as ClientEventWithoutRoomId } };
    expect(applyEdits(redacted, [edit("$e", ALICE, "x", 1)]).edited).toBe(false);
    expect(applyEdits(original, []).content).toBe(original.content);
  });
});

describe("reactions", () => {
  const react = (id: string, sender: string, key: unknown, target = "$orig") =>
    ({
      event_id: id,
      type: "m.reaction",
      sender,
      origin_server_ts: 1,
      content: { "m.relates_to": { rel_type: "m.annotation", event_id: target, key } },
    }) as ClientEventWithoutRoomId;

  it("groups by key in first-seen order, once per sender", () => {
    const groups = aggregateReactions("$orig", [
      react("$1", ALICE, "👍"),
      react("$2", BOB, "👍"),
      react("$3", ALICE, "👍"),
      react("$4", BOB, "🎉"),
      react("$5", BOB, 5),
      react("$6", BOB, "👀", "$other"),
    ]);
    expect(groups.map((g) => [g.key, g.count, g.senders])).toEqual([
      ["👍", 2, [ALICE, BOB]],
      ["🎉", 1, [BOB]],
    ]);
  });

  it("removes redacted reactions, by id or by flag", () => {
    const list = [react("$1", ALICE, "👍"), react("$2", BOB, "👍")];
    expect(aggregateReactions("$orig", list, new Set(["$1"]))[0]?.senders).toEqual([BOB]);
    const flagged = [
      { ...react("$1", ALICE, "👍"), unsigned: { redacted_because: {} as ClientEventWithoutRoomId } },
    ];
    expect(aggregateReactions("$orig", flagged)).toEqual([]);
    expect(
      aggregateReactions("$orig", [react("$1", ALICE, "👍"), react("$9", ALICE, "👍")], new Set(["$1"]))[0]
        ?.events[0]?.event_id,
    ).toBe("$9");
  });
});

describe("replies and threads", () => {
  it("reads relations from untrusted content without throwing", () => {
    expect(relationOf({ content: { "m.relates_to": "x" } })).toBeUndefined();
    expect(relationOf({ content: { "m.relates_to": { rel_type: 5, event_id: "$a" } } })).toEqual({
      eventId: "$a",
      isFallingBack: false,
    });
    expect(relationOf({ content: null })).toBeUndefined();
  });

  it("resolves m.in_reply_to but not a thread's fallback", () => {
    expect(replyTargetOf(original)).toBe("$p");
    const inThread = {
      content: {
        "m.relates_to": {
          rel_type: "m.thread",
          event_id: "$root",
          is_falling_back: true,
          "m.in_reply_to": { event_id: "$last" },
        },
      },
    };
    expect(replyTargetOf(inThread)).toBeUndefined();
    expect(threadMembershipOf(inThread)).toEqual({ threadRootId: "$root", isFallingBack: true });
    const realReply = {
      content: {
        "m.relates_to": { rel_type: "m.thread", event_id: "$root", "m.in_reply_to": { event_id: "$x" } },
      },
    };
    expect(replyTargetOf(realReply)).toBe("$x");
    expect(threadMembershipOf(original)).toEqual({ isFallingBack: false });
  });

  it("strips the plain and HTML reply fallbacks", () => {
    expect(stripPlainReplyFallback("> <@a:hs> hi\n> there\n\nmy reply\n> not fallback")).toBe(
      "my reply\n> not fallback",
    );
    expect(stripPlainReplyFallback("no quote")).toBe("no quote");
    expect(stripHtmlReplyFallback("<mx-reply><blockquote>q</blockquote></mx-reply>answer")).toBe("answer");
    expect(stripHtmlReplyFallback("<p>plain</p>")).toBe("<p>plain</p>");
    const content = {
      body: "> <@a:hs> q\n\nanswer",
      format: "org.matrix.custom.html",
      formatted_body: "<mx-reply>q</mx-reply><b>answer</b>",
      "m.relates_to": { "m.in_reply_to": { event_id: "$q" } },
    };
    expect(stripReplyFallback(content)).toMatchObject({ body: "answer", formatted_body: "<b>answer</b>" });
    const notReply = { body: "> quote\n\ntext" };
    expect(stripReplyFallback(notReply)).toBe(notReply);
  });

  it("reads the bundled thread summary", () => {
    const root = {
      unsigned: {
        "m.relations": {
          "m.thread": { count: 3, current_user_participated: true, latest_event: { event_id: "$l" } },
        },
      },
    };
    expect(bundledThreadSummary(root)).toEqual({
      count: 3,
      currentUserParticipated: true,
      latestEvent: { event_id: "$l" },
    });
    expect(
      bundledThreadSummary({ unsigned: { "m.relations": { "m.thread": { count: -1 } } } }),
    ).toBeUndefined();
    expect(bundledThreadSummary({})).toBeUndefined();
  });
});

describe("undecryptable events", () => {
  it("shows '** Unable to decrypt: <reason> **'", () => {
    expect(undecryptableBody("The sender's device has not sent us the keys for this message.")).toBe(
      "** Unable to decrypt: The sender's device has not sent us the keys for this message. **",
    );
    expect(badEncryptedContent("x")).toEqual({
      msgtype: "m.bad.encrypted",
      body: "** Unable to decrypt: x **",
    });
  });
});
