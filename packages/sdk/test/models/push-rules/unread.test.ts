/**
 * Client-side unread counting per thread from push rule outcomes, and the
 * reconciliation with the server's counts in encrypted rooms.
 */
import { describe, expect, it } from "vitest";
import { PowerLevels } from "../../../src/models/power-levels";
import {
  countUnread,
  defaultPushRuleset,
  evaluatePushRules,
  reconcileUnread,
} from "../../../src/models/push-rules";

const ME = "@me:hs";
const pl = PowerLevels.from({
  content: { users: { "@mod:hs": 50 } },
  createEvent: { sender: "@mod:hs", content: { room_version: "11" } },
});
const ctx = { userId: ME, displayName: "Me Myself", memberCount: 4, powerLevels: pl };
const evaluate = (e: unknown) => evaluatePushRules(e, defaultPushRuleset(ME), ctx);

let n = 0;
function msg(body: string, extra: Record<string, unknown> = {}, sender = "@bob:hs") {
  n++;
  return {
    event_id: `$${n}`,
    type: "m.room.message",
    sender,
    content: { msgtype: "m.text", body, ...extra },
  };
}
const inThread = (root: string) => ({
  "m.relates_to": { rel_type: "m.thread", event_id: root, is_falling_back: true },
});

describe("countUnread", () => {
  const events = [
    msg("old"),
    msg("hello"),
    msg("hi Me Myself"),
    msg("thread reply", inThread("$root")),
    msg("@room in thread", inThread("$root"), "@mod:hs"),
    msg("mine", {}, ME),
    msg("notice", { msgtype: "m.notice" }),
  ];
  const readIds = new Set(["$1"]);

  it("splits counts into main and threads; the room badge is their sum", () => {
    const out = countUnread(events, (e) => readIds.has((e as { event_id: string }).event_id), evaluate);
    expect(out.main).toEqual({ notificationCount: 2, highlightCount: 1 });
    expect(Object.fromEntries(out.threads)).toEqual({ $root: { notificationCount: 2, highlightCount: 1 } });
    expect(out.room).toEqual({ notificationCount: 4, highlightCount: 2 });
  });

  it("honours a thread receipt separately from the main one", () => {
    const out = countUnread(events, (_e, root) => root === "$root", evaluate);
    expect(out.threads.size).toBe(0);
    expect(out.room).toEqual({ notificationCount: 3, highlightCount: 1 });
  });
});

describe("reconcileUnread", () => {
  it("keeps the server's counts in unencrypted rooms", () => {
    expect(
      reconcileUnread(
        { notificationCount: 3, highlightCount: 1 },
        { notificationCount: 0, highlightCount: 0 },
        false,
      ),
    ).toEqual({
      notificationCount: 3,
      highlightCount: 1,
    });
  });

  it("drops client highlights once the server says everything is read", () => {
    expect(
      reconcileUnread(
        { notificationCount: 0, highlightCount: 0 },
        { notificationCount: 2, highlightCount: 2 },
        true,
      ),
    ).toEqual({ notificationCount: 0, highlightCount: 0 });
  });

  it("takes the client's highlights in encrypted rooms", () => {
    expect(
      reconcileUnread(
        { notificationCount: 3, highlightCount: 0 },
        { notificationCount: 3, highlightCount: 2 },
        true,
      ),
    ).toEqual({
      notificationCount: 3,
      highlightCount: 2,
    });
  });
});
