/**
 * Row building without a server: date separators on the first row of a day, sender grouping, runs of
 * membership changes collapsed into one sentence, the "new messages" line
 * after the fully-read event, local echoes after the items, mentions,
 * rows kept identical across builds when nothing changed, and 100,000
 * events built and rebuilt after a paging step.
 */
import { describe, expect, it } from "vitest";
import type { PendingEvent, TimelineItem } from "../../sdk";
import { RowBuilder } from "./rows";
import type { RowInput, StateRow } from "./rows";
import { typingSummary } from "./summaries";

const DAY = 86_400_000;
const T0 = new Date(2026, 10, 20, 12, 0).getTime();

function item(id: string, sender: string, ts: number, extra: Partial<TimelineItem> = {}): TimelineItem {
  const content = extra.content ?? { msgtype: "m.text", body: id };
  const type = extra.type ?? "m.room.message";
  return {
    eventId: id,
    type,
    sender,
    ts,
    content,
    edited: false,
    redacted: false,
    reactions: [],
    event: { event_id: id, type, sender, origin_server_ts: ts, content },
    ...extra,
  };
}

function join(id: string, user: string, ts: number): TimelineItem {
  return item(id, user, ts, { type: "m.room.member", stateKey: user, content: { membership: "join" } });
}

function input(items: TimelineItem[], extra: Partial<RowInput> = {}): RowInput {
  return {
    items,
    pending: [],
    userId: "@me:x",
    nameOf: (id) => id.slice(1, id.indexOf(":")),
    readersOf: () => [],
    isHighlight: (i) => String(i.content["body"]).includes("me"),
    fullyRead: null,
    ...extra,
  };
}

describe("RowBuilder", () => {
  it("separates days, groups a sender's messages and collapses joins", () => {
    const rows = new RowBuilder().build(
      input([
        join("$j1", "@alice:x", T0),
        join("$j2", "@bob:x", T0 + 1),
        join("$j3", "@carol:x", T0 + 2),
        join("$j4", "@dan:x", T0 + 3),
        item("$1", "@alice:x", T0 + 10),
        item("$2", "@alice:x", T0 + 20),
        item("$3", "@bob:x", T0 + 30),
        item("$4", "@bob:x", T0 + DAY),
      ]),
    );
    expect(rows.map((r) => r.kind)).toEqual(["state", "message", "message", "message", "message"]);
    // The date separators sit on the first row of each day.
    expect(rows.map((r) => (r.kind === "unread" ? undefined : r.day))).toEqual([
      T0,
      undefined,
      undefined,
      undefined,
      T0 + DAY,
    ]);
    expect((rows[0] as StateRow).text).toBe("alice, bob and 2 others joined");
    expect((rows[0] as StateRow).items).toHaveLength(4);
    expect(rows.filter((r) => r.kind === "message").map((r) => r.kind === "message" && r.continued)).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });

  it("puts the new-messages line after the fully-read event only when others wrote since", () => {
    const items = [item("$1", "@alice:x", T0), item("$2", "@bob:x", T0 + 1), item("$3", "@bob:x", T0 + 2)];
    const rows = new RowBuilder().build(input(items, { fullyRead: "$1" }));
    expect(rows.map((r) => r.key)).toEqual(["$1", "unread-marker", "$2", "$3"]);
    expect(new RowBuilder().build(input(items, { fullyRead: "$3" })).some((r) => r.kind === "unread")).toBe(
      false,
    );
  });

  it("adds local echoes last, highlights mentions and keeps unchanged rows", () => {
    const pending: PendingEvent = {
      txnId: "t1",
      roomId: "!r:x",
      kind: "event",
      type: "m.room.message",
      content: { msgtype: "m.text", body: "hi" },
      status: "sending",
      createdAt: T0 + 5,
    };
    const builder = new RowBuilder();
    const items = [item("$1", "@me:x", T0), item("$2", "@bob:x", T0 + 1, { content: { body: "hey me" } })];
    const first = builder.build(input(items, { pending: [pending] }));
    expect(first.at(-1)).toMatchObject({ kind: "pending", key: "txn-t1" });
    expect(first.find((r) => r.key === "$2")).toMatchObject({ highlight: true });
    expect(first.find((r) => r.key === "$1")).toMatchObject({ highlight: false, mine: true });
    const second = builder.build(input(items, { pending: [pending] }));
    expect(second.every((r, i) => r === first[i])).toBe(true);
  });

  it("builds 100,000 events and keeps every untouched row across a paging step", () => {
    const people = ["@alice:x", "@bob:x", "@bob:x", "@carol:x"];
    const many = (from: number, n: number): TimelineItem[] =>
      Array.from({ length: n }, (_, k) => {
        const i = from + k;
        return item(`$m${i}`, people[i % people.length] ?? "@alice:x", T0 + i * 90_000);
      });
    const builder = new RowBuilder();
    const loaded = many(300, 100_000);
    const first = builder.build(input(loaded, { fullyRead: "$m50000" }));
    expect(first).toHaveLength(100_001);
    // 90 s apart for 100,000 events: about 104 days, each opening with a date separator.
    expect(first.filter((r) => r.kind === "message" && r.day !== undefined).length).toBeGreaterThan(100);
    // A paging step: 300 older events before the same 100,000, and one event gone from the middle.
    const paged = [...many(0, 300), ...loaded.filter((i) => i.eventId !== "$m70001")];
    const second = builder.build(input(paged, { fullyRead: "$m50000" }));
    expect(second).toHaveLength(100_300);
    const before = new Map(first.map((r) => [r.key, r]));
    const changed = second.filter((r) => before.has(r.key) && before.get(r.key) !== r).map((r) => r.key);
    // Only the old first row (its date separator moves up) and the row after the gap (no longer continued) changed.
    expect(changed).toEqual(["$m300", "$m70002"]);
    expect(second.filter((r) => !before.has(r.key))).toHaveLength(300);
  });

  it("words the typing line", () => {
    expect(typingSummary([])).toBeNull();
    expect(typingSummary(["alice"])).toBe("alice is typing…");
    expect(typingSummary(["alice", "bob"])).toBe("alice and bob are typing…");
    expect(typingSummary(["alice", "bob", "carol"])).toBe("Several people are typing…");
  });
});
