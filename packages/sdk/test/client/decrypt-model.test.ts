/**
 * Decryption inside the room model (issue #7), through createClient with
 * crypto on, over HTTP on the test homeserver (sliding sync): events fetched
 * outside sync (back-pagination, /context, /relations, /threads) enter the
 * models decrypted; a key that arrives late (a new device of bob restores
 * the key backup) turns the '** Unable to decrypt: ... **' stand-in into the
 * clear text in place, in an open TimelineWindow (an update diff), the room
 * list's latest event and the room snapshot; a reload from fake-indexeddb
 * (sync store and the engine's store) shows it decrypted again at load.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { createClient, IndexedDbStore } from "../../src";
import type { Client } from "../../src";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { decryptionInfoOf } from "../../src/crypto/decrypt";
import { RoomListService } from "../../src/models/room-list/RoomListService";
import { ThreadList } from "../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../src/models/threads/ThreadTimeline";
import type { TimelineItem } from "../../src/models/timeline/TimelineItem";
import { realScheduler } from "../../src/util/scheduler";
import { applyDiffs } from "../../src/util/observable-list";
import type { ListDiff } from "../../src/util/observable-list";
import { encryptedRoom, startClient, waitFor } from "./helpers";

/** The default protocol choice (sliding sync on the test server). */
const SYNC = { sync: { pollTimeoutMs: 1_000, syncMode: "auto" as const } };
const UTD = /^\*\* Unable to decrypt: .+ \*\*$/;
const idb = (globalThis as unknown as { indexedDB: object }).indexedDB;
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
/** Event ids of alice's numbered messages m1..m30, in order. */
const numbered: string[] = [];

function bodyOf(event: ClientEventWithoutRoomId | undefined): unknown {
  return event?.content["body"];
}

/** Sends a message through alice's send queue (encrypted); resolves with its event id. */
async function send(content: Record<string, unknown>): Promise<string> {
  const echo = alice.sendQueue.send(roomId, "m.room.message", content);
  const settled = await alice.sendQueue.whenSettled(echo.txnId);
  return settled?.eventId ?? waitFor(() => alice.sendQueue.get(echo.txnId)?.eventId, "event id");
}

function text(body: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { msgtype: "m.text", body, ...extra };
}

/** Logs bob in again: a new device with its own token. */
async function newBobDevice(): Promise<{ accessToken: string; deviceId: string }> {
  const res = await fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: bob.userId },
      password: "password-bob",
    }),
  });
  const body = (await res.json()) as { access_token: string; device_id: string };
  expect(res.status).toBe(200);
  return { accessToken: body.access_token, deviceId: body.device_id };
}

beforeAll(async () => {
  server = await startTestServer({ seed: "decrypt-model" });
  [alice, bob] = await Promise.all([startClient(server, "alice", SYNC), startClient(server, "bob", SYNC)]);
  roomId = await encryptedRoom(alice, bob, { name: "Secret history" });
  await waitFor(() => bob.rooms.find(roomId)?.getSnapshot().isEncrypted, "bob sees encryption");
  // Queued at once: the queue keeps the room's order.
  const sends = Array.from({ length: 30 }, (_, i) => send(text(`m${i + 1}`)));
  numbered.push(...(await Promise.all(sends)));
  const last = numbered.at(-1);
  await waitFor(() => bob.rooms.get(roomId).findEvent(last ?? ""), "bob receives m30");
}, 90_000);

afterAll(async () => {
  await Promise.all([alice, bob].map((c) => c?.dispose()));
  await server?.stop();
});

describe("events fetched outside sync enter the model decrypted", () => {
  it("back-pagination of a fresh window decrypts the older events", async () => {
    const room = bob.rooms.get(roomId);
    // The oldest messages are not among the recent sync events: they must come from /messages.
    expect(room.recentEvents.some((e) => e.event_id === numbered[0])).toBe(false);
    const window = room.openTimeline();
    try {
      await window.load();
      while (!window.items.getSnapshot().some((i) => i.eventId === numbered[0])) {
        expect(await window.paginate("b", 30)).toBe(true);
      }
      const bodies = window.items
        .getSnapshot()
        .filter((i) => numbered.includes(i.eventId))
        .map((i) => bodyOf(i.event));
      expect(bodies).toEqual(numbered.map((_, i) => `m${i + 1}`));
      expect(window.items.getSnapshot().some((i) => i.event.type === "m.room.encrypted")).toBe(false);
    } finally {
      window.close();
    }
  });

  it("a /context jump decrypts the event and its neighbours", async () => {
    const room = bob.rooms.get(roomId);
    expect(room.timelineMaterialised).toBe(false); // a fresh set: m3 is not loaded, /context answers
    const window = room.openTimeline();
    try {
      await window.load(numbered[2]);
      const items = window.items.getSnapshot();
      const target = items.find((i) => i.eventId === numbered[2]);
      expect(bodyOf(target?.event)).toBe("m3");
      const around = items.filter((i) => numbered.includes(i.eventId));
      expect(around.length).toBeGreaterThan(3);
      for (const item of around) expect(bodyOf(item.event)).toBe(`m${numbered.indexOf(item.eventId) + 1}`);
    } finally {
      window.close();
    }
  });

  it("thread replies from /relations and roots from /threads are decrypted", async () => {
    const rootId = await send(text("thread root"));
    const thread = { "m.relates_to": { rel_type: "m.thread", event_id: rootId } };
    await send(text("reply one", thread));
    const lastReply = await send(text("reply two", thread));
    await waitFor(() => bob.rooms.get(roomId).findEvent(lastReply), "bob receives the replies");

    const room = bob.rooms.get(roomId);
    const timeline = new ThreadTimeline({ room, rootId, http: bob.http, scheduler: realScheduler });
    try {
      await timeline.load();
      const bodies = timeline.items.getSnapshot().map((i) => bodyOf(i.event));
      expect(bodies).toEqual(["thread root", "reply one", "reply two"]);
    } finally {
      timeline.dispose();
    }

    const list = new ThreadList({ room, http: bob.http, scheduler: realScheduler });
    try {
      await list.loadMore();
      const listed = list.items.getSnapshot().find((t) => t.rootId === rootId);
      // The /threads root (and its bundled latest reply) replaced what sync gave: still clear.
      expect(bodyOf(listed?.root)).toBe("thread root");
      expect(bodyOf(listed?.lastEvent)).toBe("reply two");
    } finally {
      list.dispose();
    }
  });
});

describe("a late key updates the event in place", () => {
  it("bob's new device shows the stand-in, then the clear text once it restores the backup; a reload keeps it", async () => {
    const backup = await bob.crypto.keyBackup();
    const { recoveryKey } = await backup.create();
    const eventId = await send(text("before the new device"));
    await waitFor(() => bodyOf(bob.rooms.get(roomId).findEvent(eventId)) === "before the new device", "bob1");
    await backup.upload();

    const device = await newBobDevice();
    const options = {
      baseUrl: server.url,
      userId: bob.userId,
      ...device,
      logger: quiet,
      ...SYNC,
      cryptoStore: { name: "bob2-crypto", passphrase: "secret" },
    };
    const bob2 = createClient({
      ...options,
      store: new IndexedDbStore({ indexedDB: idb, dbName: "bob2-sync" }),
    });
    await bob2.start();
    let reloaded: Client | undefined;
    try {
      const stand = await waitFor(() => bob2.rooms.find(roomId)?.findEvent(eventId), "bob2 gets the event");
      expect(bodyOf(stand)).toMatch(UTD);
      expect(decryptionInfoOf(stand)?.failure).toMatchObject({ code: "historical_message", expected: true });

      const room = bob2.rooms.get(roomId);
      expect(room.getSnapshot().latestEvent?.event_id).toBe(eventId);
      const roomList = new RoomListService(bob2.rooms);
      const window = room.openTimeline();
      await window.load();
      const diffs: Array<ListDiff<TimelineItem>> = [];
      const stop = window.items.subscribe((_, d) => diffs.push(...d));
      const before = window.items.getSnapshot();
      expect(bodyOf(before.find((i) => i.eventId === eventId)?.event)).toMatch(UTD);
      // The thread replies are stand-ins too, shown in the main timeline until they decrypt.
      const replies = before.filter(
        (i) => i.event.content["m.relates_to"] === undefined && UTD.test(String(bodyOf(i.event))),
      );
      expect(replies.length).toBeGreaterThan(1);

      const restored = await (await bob2.crypto.keyBackup()).restore(recoveryKey);
      expect(restored.imported).toBeGreaterThan(0);

      // No further action: the window, the room snapshot and the room list follow.
      const update = await waitFor(
        () => diffs.find((d) => d.type === "update" && d.value.eventId === eventId),
        "the window's update diff",
      );
      expect(bodyOf(update.type === "update" ? update.value.event : undefined)).toBe("before the new device");
      const after = window.items.getSnapshot();
      expect(applyDiffs(before, diffs)).toEqual(after);
      expect(bodyOf(after.find((i) => i.eventId === eventId)?.event)).toBe("before the new device");
      // Decrypted thread replies belong to their thread: they left the main timeline (remove diffs).
      expect(diffs.some((d) => d.type === "remove")).toBe(true);
      expect(after.some((i) => UTD.test(String(bodyOf(i.event))))).toBe(false);
      expect(bodyOf(room.getSnapshot().latestEvent)).toBe("before the new device");
      const listed = roomList.items.getSnapshot().find((r) => r.roomId === roomId);
      expect(bodyOf(listed?.latestEvent)).toBe("before the new device");
      expect(bodyOf(room.findEvent(eventId))).toBe("before the new device");
      stop();
      window.close();
      roomList.dispose();

      // Reload: the sync store keeps the encrypted original, decrypted again at load with the stored keys.
      await bob2.dispose();
      reloaded = createClient({
        ...options,
        store: new IndexedDbStore({ indexedDB: idb, dbName: "bob2-sync" }),
      });
      await reloaded.start();
      const again = reloaded.rooms.find(roomId)?.findEvent(eventId);
      expect(bodyOf(again)).toBe("before the new device");
      expect(decryptionInfoOf(again!)?.failure).toBeUndefined();
    } finally {
      await bob2.dispose();
      await reloaded?.dispose();
    }
  }, 60_000);
});
