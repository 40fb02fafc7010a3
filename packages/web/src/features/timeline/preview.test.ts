/**
 * Event summaries stay one bounded line (issue 24): a room list row holding
 * a whole 20,000-character message would be shaped whole on every draw.
 */
import { describe, expect, it } from "vitest";
import { PREVIEW_MAX_CHARS, previewOf } from "./preview";

describe("previewOf", () => {
  it("cuts a long message, emote or name change to 200 characters, whole pairs kept", () => {
    const long = "漢a😀".repeat(5_000);
    const message = previewOf({
      type: "m.room.message",
      sender: "@a:x",
      content: { msgtype: "m.text", body: long },
    });
    expect(PREVIEW_MAX_CHARS).toBe(200);
    expect(message?.length).toBeLessThanOrEqual(200);
    expect(long.startsWith(message ?? "-")).toBe(true);
    expect(message?.endsWith("\ud83d")).toBe(false);
    const emote = previewOf({
      type: "m.room.message",
      sender: "@a:x",
      content: { msgtype: "m.emote", body: long },
    });
    expect(emote?.startsWith("* @a:x 漢a")).toBe(true);
    expect(emote?.length).toBeLessThanOrEqual(200);
    const named = previewOf({ type: "m.room.name", sender: "@a:x", state_key: "", content: { name: long } });
    expect(named?.length).toBeLessThanOrEqual(200);
    expect(previewOf({ type: "m.room.message", sender: "@a:x", content: { body: "short" } })).toBe("short");
  });
});
