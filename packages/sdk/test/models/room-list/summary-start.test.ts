/**
 * The summary-first start through createClient, an IndexedDbStore on
 * fake-indexeddb and the test homeserver: a first run persists the room
 * list summary with its snapshot; a second run on the same database shows
 * every room from the summary before the snapshot is read (seeded rooms in
 * the list with their names, DM flag and preview), then start() ends with
 * every room fully loaded and equal to the first run's; logout deletes the
 * summary with the rest of the store.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createClient, IndexedDbStore } from "../../../src";
import type { Client } from "../../../src";
import { RoomListService } from "../../../src/models/room-list/RoomListService";
import type { RoomSnapshot } from "../../../src/models/room/Room";
import { registerUser } from "@lattice/testserver/test/helpers";
import type { TestUser } from "@lattice/testserver/test/helpers";
import { startClient, waitFor } from "../../client/helpers";

const idb = (globalThis as unknown as { indexedDB: object }).indexedDB;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let server: TestServerHandle;
let alice: TestUser;
let bob: Client;
const clients: Client[] = [];

function aliceClient(dbName: string, initialSyncLimit?: number): Client {
  const client = createClient({
    baseUrl: server.url,
    accessToken: alice.accessToken,
    userId: alice.userId,
    deviceId: alice.deviceId,
    store: new IndexedDbStore({ indexedDB: idb, dbName }),
    logger: quiet,
    sync: { pollTimeoutMs: 500, ...(initialSyncLimit !== undefined ? { initialSyncLimit } : {}) },
  });
  clients.push(client);
  return client;
}

const row = (s: RoomSnapshot) => ({
  roomId: s.roomId,
  name: s.name.name,
  isDirect: s.isDirect,
  latest: s.latestEvent?.event_id,
  unread: s.unread,
});

beforeAll(async () => {
  server = await startTestServer({ seed: "summary-start" });
  alice = await registerUser(server, "alice");
  bob = await startClient(server, "bob");
  clients.push(bob);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose().catch(() => undefined)));
  await server?.stop();
});

it("shows the stored room list before the snapshot loads, then the same rooms in full; logout deletes it", async () => {
  const dbName = "summary-start";
  const first = aliceClient(dbName);
  await first.start();
  const ids: string[] = [];
  for (const name of ["Alpha", "Beta", "Gamma"]) {
    const { room_id } = await api.rooms.createRoom(first.http, { preset: "public_chat", name });
    ids.push(room_id);
  }
  const dm = (await api.rooms.createRoom(first.http, { is_direct: true, invite: [bob.userId] })).room_id;
  await bob.moderation.join(dm);
  await first.accountData.set("m.direct", { [bob.userId]: [dm] });
  first.sendQueue.send(ids[1] ?? "", "m.room.message", { msgtype: "m.text", body: "latest" });
  await waitFor(
    () => first.rooms.find(ids[1] ?? "")?.getSnapshot().latestEvent?.content["body"] === "latest",
    "the message",
  );
  await waitFor(() => first.rooms.find(dm)?.getSnapshot().isDirect === true, "the DM flag");
  const firstRows = new RoomListService(first.rooms).items.getSnapshot().map(row);
  expect(firstRows).toHaveLength(4);
  await first.dispose();

  // Second run: record what the list shows when rooms first appear, before start() ends.
  const second = aliceClient(dbName);
  const seenSeeded: boolean[] = [];
  let seededRows: ReturnType<typeof row>[] = [];
  const stop = second.rooms.all.subscribe((all) => {
    if (seenSeeded.length > 0 || all.size === 0) return;
    seenSeeded.push(...[...all.values()].map((r) => r.isSeeded));
    seededRows = new RoomListService(second.rooms).items.getSnapshot().map(row);
  });
  await second.start();
  stop();
  expect(seenSeeded).toHaveLength(4);
  expect(seenSeeded.every(Boolean)).toBe(true);
  expect(seededRows).toEqual(firstRows);
  expect(second.rooms.loading).toBe(false);
  expect([...second.rooms.all.getSnapshot().values()].some((r) => r.isSeeded)).toBe(false);
  expect(new RoomListService(second.rooms).items.getSnapshot().map(row)).toEqual(firstRows);
  expect(second.rooms.get(dm).getSnapshot().members.get(bob.userId)?.membership).toBe("join");

  await second.dispose();

  // A run under other options discards the cache: the summary it read ahead of the check seeds nothing.
  const third = aliceClient(dbName, 7);
  const firstSeen: boolean[] = [];
  const stopThird = third.rooms.all.subscribe((all) => {
    if (firstSeen.length === 0 && all.size > 0) firstSeen.push(...[...all.values()].map((r) => r.isSeeded));
  });
  await third.start();
  await waitFor(() => new RoomListService(third.rooms).items.getSnapshot().length === 4, "the synced rooms");
  stopThird();
  expect(firstSeen.length).toBeGreaterThan(0);
  expect(firstSeen.some(Boolean)).toBe(false);

  // Logout deletes the summary with the store's data.
  await third.dispose({ clearStorage: true });
  const peek = new IndexedDbStore({ indexedDB: idb, dbName });
  await peek.open();
  expect(await peek.getRoomListSummary()).toBeNull();
  expect(await peek.getRoomListSummary(1)).toBeNull();
  expect(await peek.getSync()).toBeNull();
  await peek.close();
}, 60_000);
