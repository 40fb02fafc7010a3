/**
 * The room model over HTTP against the test homeserver: two or three
 * clients, each a SyncService with the real SyncProcessor feeding Rooms.
 * Each sees the others' messages in order; edits, reactions and redactions
 * land in place; threads list and thread timelines; back-pagination across
 * the gap a limited sync leaves; jumps to an event and to a date.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Rooms, batchSourceOf } from "../../../src/models/room/Rooms";
import { ThreadList } from "../../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../../src/models/threads/ThreadTimeline";
import type { TimelineWindow } from "../../../src/models/timeline/TimelineWindow";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import { realScheduler } from "../../../src/util/scheduler";
import { SyncService } from "../../../src/sync/SyncService";
import {
  call,
  clientFor,
  fastScheduler,
  quietLogger,
  register,
  sendText,
  startServer,
  waitFor,
} from "../../sync/service/helpers";
import type { TestServerHandle, TestUser } from "../../sync/service/helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const services: SyncService[] = [];

interface Client {
  user: TestUser;
  service: SyncService;
  rooms: Rooms;
}

async function client(
  user: TestUser,
  initialSyncLimit?: number,
  syncMode?: "v2" | "sliding",
): Promise<Client> {
  const http = clientFor(server, user, true);
  const logger = quietLogger();
  const service = new SyncService({
    http,
    store: new MemoryStore(),
    userId: user.userId,
    processor: (store) => new SyncProcessor({ store, logger }),
    pollTimeoutMs: 200,
    scheduler: fastScheduler(),
    logger,
    ...(initialSyncLimit !== undefined ? { initialSyncLimit } : {}),
    ...(syncMode !== undefined ? { syncMode } : {}),
  });
  const rooms = new Rooms({
    userId: user.userId,
    http,
    source: batchSourceOf(service.processor),
    scheduler: realScheduler,
  });
  services.push(service);
  await service.start();
  return { user, service, rooms };
}

async function createRoom(owner: TestUser, invite: TestUser[]): Promise<string> {
  const reply = await call(server, owner, "POST", "/createRoom", {
    preset: "private_chat",
    invite: invite.map((u) => u.userId),
  });
  const roomId = String(reply["room_id"]);
  for (const u of invite) await call(server, u, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  return roomId;
}

async function sendContent(user: TestUser, roomId: string, type: string, content: unknown): Promise<string> {
  const txn = `i${Math.random().toString(36).slice(2)}`;
  const reply = await call(
    server,
    user,
    "PUT",
    `/rooms/${encodeURIComponent(roomId)}/send/${type}/${txn}`,
    content,
  );
  return String(reply["event_id"]);
}

const bodies = (w: TimelineWindow) =>
  w.items
    .getSnapshot()
    .filter((i) => i.type === "m.room.message")
    .map((i) => String(i.content["body"]));

async function openWhenKnown(c: Client, roomId: string): Promise<TimelineWindow> {
  await waitFor(
    () => c.rooms.find(roomId)?.getSnapshot().category === "join",
    10_000,
    `${c.user.userId} in room`,
  );
  const w = c.rooms.get(roomId).openTimeline();
  await w.load();
  return w;
}

beforeAll(async () => {
  server = await startServer(5);
  alice = await register(server, "alice");
  bob = await register(server, "bob");
  carol = await register(server, "carol");
});

afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

afterAll(async () => {
  await server.stop();
});

describe("room model against the test homeserver", () => {
  it("shows each client the others' messages in the same order", async () => {
    const roomId = await createRoom(alice, [bob, carol]);
    const [a, b, c] = await Promise.all([client(alice), client(bob), client(carol)]);
    const windows = await Promise.all([a, b, c].map((x) => openWhenKnown(x, roomId)));
    const sent: string[] = [];
    for (let i = 0; i < 9; i++) {
      const user = [alice, bob, carol][i % 3] as TestUser;
      const text = `m${i} from ${user.userId}`;
      await sendText(server, user, roomId, text);
      sent.push(text);
    }
    for (const w of windows) await waitFor(() => bodies(w).length >= 9, 10_000, "nine messages");
    for (const w of windows) expect(bodies(w)).toEqual(sent);
    expect(a.rooms.get(roomId).getSnapshot().members.get(bob.userId)?.membership).toBe("join");
    expect(a.rooms.get(roomId).getSnapshot().members.get(alice.userId)?.powerLevel).toBe(100);
    for (const w of windows) w.close();
  });

  it("applies concurrent edits, reactions and redactions in place", async () => {
    const roomId = await createRoom(alice, [bob]);
    const [a, b] = await Promise.all([client(alice), client(bob)]);
    const wb = await openWhenKnown(b, roomId);
    const wa = await openWhenKnown(a, roomId);
    const original = await sendText(server, alice, roomId, "helo");
    const other = await sendText(server, bob, roomId, "to delete");
    const edit = (body: string) =>
      sendContent(alice, roomId, "m.room.message", {
        msgtype: "m.text",
        body: `* ${body}`,
        "m.new_content": { msgtype: "m.text", body },
        "m.relates_to": { rel_type: "m.replace", event_id: original },
      });
    await Promise.all([
      edit("hello"),
      sendContent(bob, roomId, "m.reaction", {
        "m.relates_to": { rel_type: "m.annotation", event_id: original, key: "👍" },
      }),
      sendContent(alice, roomId, "m.reaction", {
        "m.relates_to": { rel_type: "m.annotation", event_id: original, key: "👍" },
      }),
    ]);
    await edit("hello, world");
    await call(
      server,
      bob,
      "PUT",
      `/rooms/${encodeURIComponent(roomId)}/redact/${encodeURIComponent(other)}/r1`,
      {},
    );
    for (const w of [wa, wb]) {
      await waitFor(
        () => {
          const items = w.items.getSnapshot();
          const o = items.find((i) => i.eventId === original);
          const d = items.find((i) => i.eventId === other);
          return o?.content["body"] === "hello, world" && o.reactions[0]?.count === 2 && d?.redacted === true;
        },
        10_000,
        "edit, reactions and redaction",
      );
      const items = w.items.getSnapshot();
      // The edits and reactions are folded into their target; the redacted event stays, stripped.
      expect(items.filter((i) => i.type === "m.room.message").map((i) => i.eventId)).toEqual([
        original,
        other,
      ]);
      expect(items.find((i) => i.eventId === other)?.content).toEqual({});
    }
    wa.close();
    wb.close();
  });

  it("lists threads and loads thread timelines", async () => {
    const roomId = await createRoom(alice, [bob]);
    const [a, b] = await Promise.all([client(alice), client(bob)]);
    await openWhenKnown(b, roomId).then((w) => w.close());
    const root = await sendText(server, alice, roomId, "root");
    const reply = (user: TestUser, body: string) =>
      sendContent(user, roomId, "m.room.message", {
        msgtype: "m.text",
        body,
        "m.relates_to": {
          rel_type: "m.thread",
          event_id: root,
          is_falling_back: true,
          "m.in_reply_to": { event_id: root },
        },
      });
    await reply(bob, "first");
    await reply(alice, "second");
    await waitFor(() => b.rooms.find(roomId)?.threads.get(root)?.replyCount === 2, 10_000, "live thread");
    expect(b.rooms.get(roomId).threads.get(root)).toMatchObject({
      participated: true,
      root: { event_id: root },
    });

    const http = clientFor(server, carol);
    await call(server, alice, "POST", `/rooms/${encodeURIComponent(roomId)}/invite`, {
      user_id: carol.userId,
    });
    await call(server, carol, "POST", `/join/${encodeURIComponent(roomId)}`, {});
    const c = await client(carol);
    await waitFor(() => c.rooms.find(roomId) !== undefined, 10_000, "carol's room");
    const room = c.rooms.get(roomId);
    const list = new ThreadList({ room, http, scheduler: realScheduler });
    await list.loadMore();
    expect(list.source).toBe("server");
    expect(list.items.getSnapshot().map((t) => [t.rootId, t.replyCount, t.participated])).toEqual([
      [root, 2, false],
    ]);
    const mine = new ThreadList({ room, http, scheduler: realScheduler, include: "participated" });
    await mine.loadMore();
    expect(mine.items.getSnapshot()).toEqual([]);
    const timeline = new ThreadTimeline({ room, rootId: root, http, scheduler: realScheduler });
    await timeline.load();
    expect(timeline.items.getSnapshot().map((i) => i.content["body"])).toEqual(["root", "first", "second"]);
    await reply(carol, "third");
    await waitFor(
      () => timeline.items.getSnapshot().length === 4,
      10_000,
      "live reply in the thread timeline",
    );
    expect(a.rooms.get(roomId).getSnapshot().category).toBe("join");
    list.dispose();
    mine.dispose();
    timeline.dispose();
  });

  it("back-paginates across the gap of a limited sync, and jumps to an event and a date", async () => {
    const roomId = await createRoom(alice, [bob]);
    for (let i = 0; i < 12; i++) await sendText(server, alice, roomId, `old ${i}`);
    const b = await client(bob, 5);
    const w = await openWhenKnown(b, roomId);
    await waitFor(() => bodies(w).includes("old 11"), 10_000, "old messages");
    await b.service.stop();
    const middle: string[] = [];
    for (let i = 0; i < 15; i++) middle.push(await sendText(server, alice, roomId, `new ${i}`));
    const dateOfMiddle = Date.now();
    await b.service.start();
    await waitFor(() => bodies(w).includes("new 14"), 10_000, "the limited sync");
    // The window followed the live end into the new chunk: the gap is before it.
    expect(bodies(w)).not.toContain("new 0");
    while (!bodies(w).includes("old 0") && w.canPaginate("b")) await w.paginate("b", 30);
    const all = bodies(w);
    const expected = [
      ...Array.from({ length: 12 }, (_, i) => `old ${i}`),
      ...Array.from({ length: 15 }, (_, i) => `new ${i}`),
    ];
    expect(all).toEqual(expected);
    w.close();

    const jump = b.rooms.get(roomId).openTimeline({ initialLoad: 6 });
    await jump.load(middle[3]);
    expect(bodies(jump)).toContain("new 3");
    jump.close();

    const { set, release } = b.rooms.get(roomId).acquireTimeline();
    const found = await set.jumpToDate(dateOfMiddle, "b");
    expect(found.eventId).toBe(middle[14]);
    release();
  });

  // Sync v2 brings the server's per-thread counts; sliding sync (MSC4186) has none, so the client counts.
  it.each(["v2", "sliding"] as const)(
    "keeps per-thread unread counts and the room badge in step with threaded receipts (%s)",
    async (mode) => {
      const roomId = await createRoom(alice, [bob]);
      const b = await client(bob, undefined, mode);
      await waitFor(() => b.rooms.find(roomId)?.getSnapshot().category === "join", 10_000, "bob in room");
      const root = await sendText(server, alice, roomId, "root");
      const threadMessage = (body: string) =>
        sendContent(alice, roomId, "m.room.message", {
          msgtype: "m.text",
          body,
          "m.relates_to": {
            rel_type: "m.thread",
            event_id: root,
            is_falling_back: true,
            "m.in_reply_to": { event_id: root },
          },
        });
      await threadMessage("one");
      const last = await threadMessage("two");
      const main = await sendText(server, alice, roomId, "main");
      const room = b.rooms.get(roomId);
      const threadCount = () => room.getSnapshot().threadUnread.get(root)?.notificationCount ?? 0;
      await waitFor(
        () => threadCount() === 2 && room.getSnapshot().unread.notificationCount === 2,
        10_000,
        "unread counts",
      );
      expect(room.threads.get(root)?.unread.notificationCount).toBe(2);
      // The root and "main" count in the main timeline; the two replies in the thread.
      const mainBefore = room.getSnapshot().unread.notificationCount;

      // Reading the thread clears the thread's count, not the main timeline's.
      const receipt = (eventId: string, threadId: string) =>
        call(
          server,
          bob,
          "POST",
          `/rooms/${encodeURIComponent(roomId)}/receipt/m.read/${encodeURIComponent(eventId)}`,
          {
            thread_id: threadId,
          },
        );
      await receipt(last, root);
      await waitFor(
        () => threadCount() === 0 && room.threads.get(root)?.readUpTo === last,
        10_000,
        "thread read",
      );
      expect(room.threads.get(root)?.unread.notificationCount).toBe(0);
      expect(room.getSnapshot().unread.notificationCount).toBe(mainBefore);

      // Reading the main timeline clears the room badge.
      await receipt(main, "main");
      await waitFor(() => room.getSnapshot().unread.notificationCount === 0, 10_000, "room read");
      expect(threadCount()).toBe(0);
    },
  );
});
