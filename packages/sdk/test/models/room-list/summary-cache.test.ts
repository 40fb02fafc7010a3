/**
 * The summary-first start: a room list summary built from live rooms seeds
 * a new Rooms model with the same list (order, names, flags, counts,
 * previews); the stored snapshot then loads in yielding chunks and leaves
 * every room exactly as a full load would; a batch during the chunked load
 * waits for it; an opened room loads first; a corrupt or missing summary
 * falls back to the full load; seeded rooms the snapshot lacks are dropped.
 */
import { describe, expect, it } from "vitest";
import { RoomListService } from "../../../src/models/room-list/RoomListService";
import { FIRST_SEED_ROOMS, RoomListSummaryCache } from "../../../src/models/room-list/summary-cache";
import type { RoomSnapshot } from "../../../src/models/room/Room";
import { Rooms } from "../../../src/models/room/Rooms";
import { MemoryStore } from "../../../src/store/MemoryStore";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import { emptyParsedSync } from "../../../src/sync/validate/types";
import { ALICE, BOB, FakeHttp, ME, batch, joined, member, msg, state } from "../support/room-fixtures";

const N = 250;

/** The stored snapshot of a world: DMs, tags, a space, encryption, counts, topics, an invite. */
function snapshotBatch(): ProcessedSync {
  const rooms: Record<string, ReturnType<typeof joined>> = {};
  for (let i = 0; i < N; i++) {
    const id = `!r${i}:hs`;
    const st = [member(ME, "join"), member(ALICE, "join", { displayname: `Alice ${i % 7}` })];
    if (i % 3 === 0) st.push(state("m.room.name", "", { name: `Room ${i}` }));
    if (i % 5 === 0) st.push(state("m.room.topic", "", { topic: `Topic ${i}` }));
    if (i % 11 === 0) st.push(state("m.room.encryption", "", { algorithm: "m.megolm.v1.aes-sha2" }));
    if (i % 13 === 0) st.push(state("m.room.avatar", "", { url: `mxc://hs/a${i}` }));
    for (let m = 0; m < 20; m++) st.push(member(`@m${m}:hs`, "join", { displayname: `M ${m}` }));
    rooms[id] = joined({
      state: st,
      summary: { heroes: [ALICE, "@m1:hs"], joinedMemberCount: 22, invitedMemberCount: 0 },
      events: i % 17 === 0 ? [] : [msg(`$e${i}`, 1_000 + ((i * 7919) % 5_000), `hello ${i}`)],
      limited: true,
      prevBatch: `p${i}`,
      unreadNotifications: { notificationCount: i % 4, highlightCount: i % 9 === 0 ? 1 : 0 },
      ...(i % 10 === 0
        ? { unreadThreadNotifications: new Map([[`$t${i}`, { notificationCount: 2, highlightCount: 0 }]]) }
        : {}),
      accountData:
        i % 6 === 0 ? [{ type: "m.tag", content: { tags: { "m.favourite": { order: 0.5 } } } }] : [],
    });
  }
  rooms["!space:hs"] = joined({
    state: [
      member(ME, "join"),
      state("m.room.create", "", { type: "m.space" }),
      state("m.room.name", "", { name: "Space" }),
      state("m.space.child", "!r1:hs", { via: ["hs"] }),
      state("m.space.child", "!r2:hs", { via: ["hs"] }),
    ],
  });
  const b = batch(rooms, {
    accountData: [{ type: "m.direct", content: { [BOB]: ["!r4:hs"] } }],
    fromCache: true,
  });
  b.rooms.invite.set("!inv:hs", {
    inviteState: [state("m.room.name", "", { name: "Invited" }), member(ME, "invite")].map((e) => ({
      type: e.type,
      state_key: e.state_key ?? "",
      sender: ALICE,
      content: e.content,
    })),
  });
  return b;
}

/** What a row of the list shows, to compare a seeded list with a loaded one. */
function row(s: RoomSnapshot) {
  return {
    roomId: s.roomId,
    category: s.category,
    name: s.name,
    avatarUrl: s.avatarUrl,
    isDirect: s.isDirect,
    isSpace: s.isSpace,
    isEncrypted: s.isEncrypted,
    unread: s.unread,
    threadUnread: [...s.threadUnread],
    tags: [...s.tags],
    latest: s.latestEvent?.event_id,
    latestSender: s.latestEvent !== undefined ? s.members.get(s.latestEvent.sender)?.name : undefined,
    lastActivityTs: s.lastActivityTs,
    topic: s.state.content("m.room.topic")?.["topic"],
    children: s.state.spaceChildren,
    inviter: s.inviter,
  };
}

/** A summary's rooms as plain JSON in room id order. */
function byRoomId(rooms: readonly unknown[]): unknown {
  const plain = JSON.parse(JSON.stringify(rooms)) as Array<{ roomId: string }>;
  return plain.sort((a, b) => (a.roomId < b.roomId ? -1 : a.roomId > b.roomId ? 1 : 0));
}

type StoredPart = { version: number; part: number; parts?: number; rooms: Array<{ roomId: string }> };

/** Every stored part of a summary, part 0 first. */
async function storedParts(store: MemoryStore): Promise<StoredPart[]> {
  const first = (await store.getRoomListSummary(0)) as StoredPart | null;
  if (first === null) return [];
  const out = [first];
  for (let i = 1; i < (first.parts ?? 1); i++) out.push((await store.getRoomListSummary(i)) as StoredPart);
  return out;
}

const listRows = (rooms: Rooms) => new RoomListService(rooms).items.getSnapshot().map(row);

function newRooms(yields: { count: number }): Rooms {
  return new Rooms({
    userId: ME,
    http: new FakeHttp(),
    yieldToMain: () => {
      yields.count++;
      return new Promise((resolve) => setTimeout(resolve, 0));
    },
  });
}

/** A store holding the summary of the fully loaded world, and that world's rows. */
function storedWorld(partRooms?: number): {
  store: MemoryStore;
  full: ReturnType<typeof row>[];
  rooms: Rooms;
} {
  const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
  rooms.handle(snapshotBatch());
  const store = new MemoryStore();
  const cache = new RoomListSummaryCache({
    rooms,
    store,
    userId: ME,
    ...(partRooms !== undefined ? { partRooms } : {}),
  });
  cache.stage();
  cache.dispose();
  return { store, full: listRows(rooms), rooms };
}

describe("room list summary", () => {
  it("seeds the same sorted list as the full load, then loads in chunks to the same rooms", async () => {
    const { store, full, rooms: loaded } = storedWorld();
    const yields = { count: 0 };
    const rooms = newRooms(yields);
    const cache = new RoomListSummaryCache({ rooms, store, userId: ME });
    expect(await cache.load()).toBe(N + 2);
    expect([...rooms.all.getSnapshot().values()].every((r) => r.isSeeded)).toBe(true);
    expect(listRows(rooms)).toEqual(full);

    const done = rooms.receive(snapshotBatch());
    expect(done).toBeInstanceOf(Promise);
    expect(rooms.loading).toBe(true);
    await done;
    expect(rooms.loading).toBe(false);
    expect(yields.count).toBeGreaterThan(1);
    expect([...rooms.all.getSnapshot().values()].some((r) => r.isSeeded)).toBe(false);
    expect(listRows(rooms)).toEqual(full);
    // Beyond the row: the full state (every member, the timeline) is there.
    const a = rooms.get("!r3:hs").getSnapshot();
    expect(a.members.size).toBe(loaded.get("!r3:hs").getSnapshot().members.size);
    expect(rooms.get("!r3:hs").recentEvents.map((e) => e.event_id)).toEqual(["$e3"]);
    // A summary built again after the load is the stored one (in another room order: the first screenful was seeded first).
    const again = new RoomListSummaryCache({ rooms, store: new MemoryStore(), userId: ME });
    const stored = (await storedParts(store)).flatMap((p) => p.rooms);
    expect(byRoomId(again.build().rooms)).toEqual(byRoomId(stored));
    cache.dispose();
  });

  it("seeds the first screenful (the most recent rooms, every invite) and lets it paint before the rest", async () => {
    const { store, full } = storedWorld();
    const rooms = newRooms({ count: 0 });
    let reached = (): void => undefined;
    const atFirst = new Promise<void>((resolve) => (reached = resolve));
    let release = (): void => undefined;
    const cache = new RoomListSummaryCache({
      rooms,
      store,
      userId: ME,
      afterFirst: () => {
        reached();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const loading = cache.load();
    await atFirst;
    const first = listRows(rooms);
    expect(first).toHaveLength(FIRST_SEED_ROOMS + 1);
    expect(first.slice(0, 20)).toEqual(full.slice(0, 20));
    expect(first.some((r) => r.category === "invite")).toBe(true);
    release();
    expect(await loading).toBe(N + 2);
    expect(listRows(rooms)).toEqual(full);
    cache.dispose();
  });

  it("stores the rooms past the first screenful in parts, seeds them a slice per task and lists them once", async () => {
    const { store, full } = storedWorld(40);
    const parts = await storedParts(store);
    // 61 in the first part (60 recent rooms and the invite), the other 191 in parts of 40.
    expect(parts.map((p) => p.rooms.length)).toEqual([FIRST_SEED_ROOMS + 1, 40, 40, 40, 40, 31]);
    expect(parts.map((p) => p.part)).toEqual([0, 1, 2, 3, 4, 5]);
    const rooms = newRooms({ count: 0 });
    const listings: number[] = [];
    rooms.onChange((changed) => listings.push(changed.size));
    const pauses = { count: 0 };
    const cache = new RoomListSummaryCache({
      rooms,
      store,
      userId: ME,
      afterFirst: () => Promise.resolve(),
      yieldToMain: () => {
        pauses.count++;
        // Between slices the rooms built so far are not listed yet.
        expect(new RoomListService(rooms).items.getSnapshot()).toHaveLength(FIRST_SEED_ROOMS + 1);
        return new Promise((resolve) => setTimeout(resolve, 0));
      },
    });
    expect(await cache.load()).toBe(N + 2);
    expect(pauses.count).toBeGreaterThanOrEqual(5);
    expect(listings).toEqual([FIRST_SEED_ROOMS + 1, N + 2 - FIRST_SEED_ROOMS - 1]);
    expect(listRows(rooms)).toEqual(full);
    cache.dispose();
  });

  it("uses part 0 read ahead, and drops it when the cache was discarded", async () => {
    const { store } = storedWorld();
    const reads: number[] = [];
    const get = store.getRoomListSummary.bind(store);
    store.getRoomListSummary = (part?: number) => {
      reads.push(part ?? 0);
      return get(part);
    };
    const rooms = newRooms({ count: 0 });
    const cache = new RoomListSummaryCache({ rooms, store, userId: ME, afterFirst: () => Promise.resolve() });
    cache.prefetch();
    expect(reads).toEqual([0]);
    expect(await cache.load()).toBe(N + 2);
    expect(reads).toEqual([0, 1]);
    const other = newRooms({ count: 0 });
    const discarded = new RoomListSummaryCache({ rooms: other, store, userId: ME });
    discarded.prefetch();
    expect(await discarded.load(true)).toBe(0);
    expect(other.all.getSnapshot().size).toBe(0);
  });

  it("leaves the rooms of a missing or corrupt later part to the snapshot's load", async () => {
    for (const damage of ["missing", "corrupt"] as const) {
      const { store, full } = storedWorld(40);
      const parts = await storedParts(store);
      const kept =
        damage === "missing" ? parts.slice(0, 3) : [...parts.slice(0, 3), { junk: true }, ...parts.slice(4)];
      store.setRoomListSummary(kept);
      const rooms = newRooms({ count: 0 });
      // Parts 0 to 2 seed; reading stops at the damaged part 3.
      expect(await new RoomListSummaryCache({ rooms, store, userId: ME }).load()).toBe(
        FIRST_SEED_ROOMS + 1 + 80,
      );
      await rooms.receive(snapshotBatch());
      expect(listRows(rooms)).toEqual(full);
    }
  });

  it("applies a batch that arrives during the chunked load after it, so nothing is lost", async () => {
    const { store } = storedWorld();
    const rooms = newRooms({ count: 0 });
    await new RoomListSummaryCache({ rooms, store, userId: ME }).load();
    const loading = rooms.receive(snapshotBatch());
    const live = batch({
      "!r5:hs": joined({
        events: [msg("$live", 99_999, "fresh")],
        unreadNotifications: { notificationCount: 9, highlightCount: 0 },
      }),
      "!new:hs": joined({
        state: [member(ME, "join"), state("m.room.name", "", { name: "New" })],
        events: [msg("$n", 50)],
      }),
    });
    const after = rooms.receive(live);
    expect(after).toBeInstanceOf(Promise);
    expect(rooms.find("!new:hs")).toBeUndefined();
    await Promise.all([loading, after]);
    const r5 = rooms.get("!r5:hs");
    expect(r5.getSnapshot().latestEvent?.event_id).toBe("$live");
    expect(r5.getSnapshot().unread.notificationCount).toBe(9);
    expect(r5.recentEvents.map((e) => e.event_id)).toEqual(["$e5", "$live"]);
    expect(rooms.get("!new:hs").getSnapshot().name.name).toBe("New");
    const list = new RoomListService(rooms).items.getSnapshot();
    expect(list[0]?.roomId).toBe("!r5:hs");
    // Later batches are applied at once again.
    expect(rooms.receive(batch({ "!r6:hs": joined({ events: [msg("$x", 100_000)] }) }))).toBeUndefined();
  });

  it("loads a room opened before its turn at once", async () => {
    const { store } = storedWorld();
    let release: () => void = () => undefined;
    const rooms = new Rooms({
      userId: ME,
      http: new FakeHttp(),
      yieldToMain: () => new Promise<void>((resolve) => (release = resolve)),
    });
    await new RoomListSummaryCache({ rooms, store, userId: ME }).load();
    const loading = rooms.receive(snapshotBatch());
    const room = rooms.get("!r249:hs");
    expect(room.isSeeded).toBe(true);
    expect(room.getSnapshot().members.size).toBeLessThan(5);
    const window = room.openTimeline();
    expect(room.isSeeded).toBe(false);
    expect(room.getSnapshot().members.size).toBe(22);
    expect(room.recentEvents.map((e) => e.event_id)).toEqual(["$e249"]);
    window.close();
    for (let i = 0; rooms.loading && i < 1_000; i++) {
      release();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await loading;
    expect(room.recentEvents.map((e) => e.event_id)).toEqual(["$e249"]);
  });

  it("loads first a room opened before the chunked load began, and its open timeline shows its events", async () => {
    const { store } = storedWorld();
    const rooms = newRooms({ count: 0 });
    await new RoomListSummaryCache({ rooms, store, userId: ME }).load();
    const room = rooms.get("!r248:hs");
    expect(room.isSeeded).toBe(true);
    const window = room.openTimeline();
    await window.load();
    expect(window.items.getSnapshot()).toHaveLength(0);
    let loadedAt = -1;
    let parts = 0;
    const stop = rooms.onChange((changed) => {
      parts++;
      if (changed.has("!r248:hs") && loadedAt < 0) loadedAt = parts;
    });
    await rooms.receive(snapshotBatch());
    stop();
    // The account data's part, then the opened room's, before the other rooms.
    expect(loadedAt).toBeLessThanOrEqual(2);
    expect(room.recentEvents.map((e) => e.event_id)).toEqual(["$e248"]);
    // The window opened on the seeded room follows the live end: the loaded event is in it.
    expect(JSON.stringify(window.items.getSnapshot())).toContain("$e248");
    window.close();
  });

  it("falls back to the full load when the summary is missing, corrupt or of another version", async () => {
    const junk = [
      null,
      { version: 2, part: 0, parts: 1, rooms: "x" },
      { version: 99, part: 0, parts: 1, rooms: [] },
      { version: 2, part: 0, parts: 0, rooms: [] },
      { version: 2, part: 1, parts: 1, rooms: [] },
      // The whole summary in one record, as the first version stored it.
      { version: 1, rooms: [] },
      "junk",
    ];
    for (const bad of junk) {
      const store = new MemoryStore();
      if (bad !== null) store.setRoomListSummary([bad as never]);
      const rooms = newRooms({ count: 0 });
      expect(await new RoomListSummaryCache({ rooms, store, userId: ME }).load()).toBe(0);
      expect(rooms.receive(snapshotBatch())).toBeUndefined();
      expect(rooms.all.getSnapshot().size).toBe(N + 2);
    }
    // Malformed entries are dropped; the good ones seed.
    const { store } = storedWorld();
    const [record] = await storedParts(store);
    store.setRoomListSummary([
      {
        ...record,
        parts: 1,
        rooms: [...(record?.rooms.slice(0, 3) ?? []), { roomId: 5 }, { roomId: "!x:hs" }],
      },
    ] as never);
    const rooms = newRooms({ count: 0 });
    expect(await new RoomListSummaryCache({ rooms, store, userId: ME }).load()).toBe(3);
  });

  it("drops seeded rooms the stored snapshot does not hold", async () => {
    const { store } = storedWorld();
    const rooms = newRooms({ count: 0 });
    await new RoomListSummaryCache({ rooms, store, userId: ME }).load();
    const partial = snapshotBatch();
    partial.rooms.join.delete("!r7:hs");
    await rooms.receive(partial);
    expect(rooms.find("!r7:hs")).toBeUndefined();
    expect(new RoomListService(rooms).items.getSnapshot().some((r) => r.roomId === "!r7:hs")).toBe(false);
  });

  it("stages after batches at most once per delay, and saves the first summary at once", async () => {
    const saves: boolean[] = [];
    const store = new MemoryStore();
    const save = store.save.bind(store);
    store.save = (force?: boolean) => {
      saves.push(force ?? false);
      return save();
    };
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    const cache = new RoomListSummaryCache({ rooms, store, userId: ME, delayMs: 20 });
    expect(await cache.load()).toBe(0);
    const first = emptyParsedSync("s1");
    first.rooms.join.set("!a:hs", joined({ events: [msg("$a", 1)] }));
    rooms.handle({ ...first, fromCache: false, catchingUp: false });
    rooms.handle(batch({ "!b:hs": joined({ events: [msg("$b", 2)] }) }));
    expect(await store.getRoomListSummary()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const staged = (await storedParts(store)).flatMap((p) => p.rooms);
    expect(staged.map((r) => r.roomId).sort()).toEqual(["!a:hs", "!b:hs"]);
    expect(saves).toEqual([true]);
    rooms.handle(batch({ "!c:hs": joined({ events: [msg("$c", 3)] }) }));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await storedParts(store)).flatMap((p) => p.rooms)).toHaveLength(3);
    // Later summaries wait for the store's own (throttled) save.
    expect(saves).toEqual([true]);
    cache.dispose();
  });
});
