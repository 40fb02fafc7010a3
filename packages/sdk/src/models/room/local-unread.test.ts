/**
 * The client-side unread counter (sliding sync has no per-thread counts):
 * the main/thread split, threaded, main and unthreaded receipts, the user's
 * own events, receipts for events it never saw, mentions, the user's push
 * rules, and the server's count across a gap.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { PushContext } from "../push-rules/conditions";
import type { Receipt } from "./receipts";
import { LocalUnread } from "./local-unread";

const ME = "@me:test";
const push: PushContext = { userId: ME, roomId: "!r:test", memberCount: 3, displayName: "Me" };
let n = 0;

function msg(body: string, options: { root?: string; sender?: string } = {}): ClientEventWithoutRoomId {
  const content: Record<string, unknown> = { msgtype: "m.text", body };
  if (options.root !== undefined) content["m.relates_to"] = { rel_type: "m.thread", event_id: options.root };
  return {
    event_id: `$e${++n}`,
    type: "m.room.message",
    sender: options.sender ?? "@alice:test",
    origin_server_ts: n,
    content,
  };
}

function receipt(eventId: string, threadId?: string, userId = ME): Receipt {
  return { userId, eventId, type: "m.read", ts: 1, ...(threadId !== undefined ? { threadId } : {}) };
}

function fed(events: ClientEventWithoutRoomId[], receipts: Receipt[] = [], rules?: unknown): LocalUnread {
  const counter = new LocalUnread(ME);
  counter.update(events, receipts, { pushRules: rules, push });
  return counter;
}

describe("LocalUnread", () => {
  it("splits the main timeline (roots included) from each thread", () => {
    const root = msg("root");
    const counter = fed([
      msg("m1"),
      root,
      msg("t1", { root: root.event_id }),
      msg("t2", { root: root.event_id }),
    ]);
    const counts = counter.counts();
    expect(counts.main.notificationCount).toBe(2);
    expect(counts.threads.get(root.event_id)?.notificationCount).toBe(2);
    expect(counts.room.notificationCount).toBe(4);
  });

  it("a thread receipt reads that thread up to its event; main and unthreaded receipts the rest", () => {
    const root = msg("root");
    const t1 = msg("t1", { root: root.event_id });
    const t2 = msg("t2", { root: root.event_id });
    const m2 = msg("m2");
    const counter = fed([root, t1, t2, m2]);
    counter.applyReceipts([receipt(t1.event_id, root.event_id)]);
    expect(counter.counts().threads.get(root.event_id)?.notificationCount).toBe(1);
    expect(counter.counts().main.notificationCount).toBe(2);
    counter.applyReceipts([receipt(root.event_id, "main")]);
    expect(counter.counts().main.notificationCount).toBe(1);
    counter.applyReceipts([receipt(m2.event_id)]);
    expect(counter.counts().room.notificationCount).toBe(0);
  });

  it("ignores other users' receipts; a receipt for an unseen event reads its whole timeline", () => {
    const counter = fed([msg("a"), msg("b")], [receipt("$elsewhere", "main", "@bob:test")]);
    expect(counter.counts().main.notificationCount).toBe(2);
    counter.applyReceipts([receipt("$newer", "main")]);
    expect(counter.counts().main.notificationCount).toBe(0);
  });

  it("the user's own message reads its timeline before it and never counts", () => {
    const root = msg("root");
    const counter = fed([
      root,
      msg("t1", { root: root.event_id }),
      msg("mine", { root: root.event_id, sender: ME }),
      msg("later"),
    ]);
    expect(counter.counts().threads.get(root.event_id)?.notificationCount ?? 0).toBe(0);
    expect(counter.counts().main.notificationCount).toBe(2);
  });

  it("counts a mention as a highlight and follows the user's push rules", () => {
    const mention = msg("hello Me");
    expect(fed([mention]).counts().main).toEqual({ notificationCount: 1, highlightCount: 1 });
    const muted = {
      override: [{ rule_id: ".m.rule.master", default: true, enabled: true, conditions: [], actions: [] }],
    };
    expect(fed([mention, msg("x")], [], muted).counts().room.notificationCount).toBe(0);
  });

  it("adds the server's count beyond a gap to the main timeline until main is read", () => {
    const counter = new LocalUnread(ME);
    const last = msg("seen");
    const server = { notificationCount: 5, highlightCount: 1 };
    counter.update([last], [], { pushRules: undefined, push, server });
    expect(counter.counts().main).toEqual({ notificationCount: 5, highlightCount: 1 });
    counter.update([], [receipt(last.event_id, "main")], { pushRules: undefined, push });
    expect(counter.counts().main).toEqual({ notificationCount: 0, highlightCount: 0 });
  });

  it("skips events it already counted", () => {
    const event = msg("once");
    const counter = fed([event]);
    counter.addEvents([event], undefined, push);
    expect(counter.counts().room.notificationCount).toBe(1);
  });
});
