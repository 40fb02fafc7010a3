/**
 * Issue 5's "send while offline then reconnect and reload" through
 * createClient, with an IndexedDbStore on fake-indexeddb and the test
 * homeserver's offline switch: messages sent while the server is gone wait
 * (the sync says reconnecting), go out in order when it is back, and those
 * still pending when the page goes away are restored by the next client on
 * the same database and sent once. Bob's room model and the server's
 * timeline hold every message exactly once, in order. Then logout deletes
 * the store's data, the crypto store's databases and the access token.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createClient, IndexedDbStore } from "../../src";
import type { Client, CreateClientOptions } from "../../src";
import { registerUser } from "@lattice/testserver/test/helpers";
import type { TestUser } from "@lattice/testserver/test/helpers";
import { startClient, waitFor, waitForMembership } from "./helpers";

const idb = (globalThis as unknown as { indexedDB: IDBFactoryLike }).indexedDB;
interface IDBFactoryLike {
  databases(): Promise<Array<{ name?: string }>>;
  open(name: string): { onsuccess: (() => void) | null; result: { close(): void } };
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let server: TestServerHandle;
let aliceUser: TestUser;
let bob: Client;
let roomId: string;
const clients: Client[] = [];

function aliceClient(dbName: string, extra: Partial<CreateClientOptions> = {}): Client {
  const client = createClient({
    baseUrl: server.url,
    accessToken: aliceUser.accessToken,
    userId: aliceUser.userId,
    deviceId: aliceUser.deviceId,
    store: new IndexedDbStore({ indexedDB: idb, dbName }),
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
    ...extra,
  });
  clients.push(client);
  return client;
}

const text = (body: string) => ({ msgtype: "m.text", body });

function bodiesSeenBy(client: Client): string[] {
  return (client.rooms.find(roomId)?.recentEvents ?? [])
    .filter((e) => e.type === "m.room.message")
    .map((e) => String(e.content["body"]));
}

beforeAll(async () => {
  server = await startTestServer({ seed: "client-offline-reload" });
  aliceUser = await registerUser(server, "alice");
  bob = await startClient(server, "bob");
  clients.push(bob);
});

afterAll(async () => {
  server.faults.setOffline(false);
  await Promise.all(clients.map((c) => c.dispose().catch(() => undefined)));
  await server?.stop();
});

it("loses nothing, repeats nothing and keeps the order across going offline and a reload", async () => {
  const dbName = "offline-reload";
  const first = aliceClient(dbName);
  await first.start();
  roomId = (await api.rooms.createRoom(first.http, { preset: "public_chat", name: "Offline" })).room_id;
  await waitFor(() => first.rooms.find(roomId), "alice's room");
  await bob.moderation.join(roomId);
  await waitForMembership(first, roomId, bob.userId, "join");

  // The server goes away; the sync notices, and sends wait instead of failing.
  server.faults.setOffline(true);
  const early = ["A", "B", "C"].map((b) => first.sendQueue.send(roomId, "m.room.message", text(b)));
  await waitFor(
    () => ["reconnecting", "error"].includes(first.sync.state.getSnapshot() ?? ""),
    "reconnecting",
  );
  expect(early.map((e) => first.sendQueue.get(e.txnId)?.status)).not.toContain("sent");
  server.faults.setOffline(false);
  await waitFor(() => early.every((e) => first.sendQueue.get(e.txnId) === undefined), "A-C echoed", 20_000);

  // Offline again, two more, and the page goes away before they leave.
  server.faults.setOffline(true);
  const late = ["D", "E"].map((b) => first.sendQueue.send(roomId, "m.room.message", text(b)));
  await waitFor(
    () => ["reconnecting", "error"].includes(first.sync.state.getSnapshot() ?? ""),
    "offline again",
  );
  await first.dispose();
  server.faults.setOffline(false);

  const second = aliceClient(dbName);
  await second.start();
  // Restored with their txn ids, in order, before anything new.
  expect(
    second.sendQueue
      .room(roomId)
      .getSnapshot()
      .map((e) => e.txnId),
  ).toEqual(late.map((e) => e.txnId));
  const after = second.sendQueue.send(roomId, "m.room.message", text("F"));
  await waitFor(
    () => [...late, after].every((e) => second.sendQueue.get(e.txnId) === undefined),
    "D-F echoed",
    20_000,
  );

  const expected = ["A", "B", "C", "D", "E", "F"];
  await waitFor(() => bodiesSeenBy(bob).length >= expected.length, "bob sees six messages");
  expect(bodiesSeenBy(bob)).toEqual(expected);
  expect(bodiesSeenBy(second)).toEqual(expected);
  const page = await api.timeline.messages(second.http, roomId, { dir: "b", limit: 50 });
  const onServer = page.chunk
    .filter((e) => e.type === "m.room.message")
    .map((e) => String(e.content["body"]))
    .reverse();
  expect(onServer).toEqual(expected);
  await second.dispose();
}, 60_000);

it("logs out: the store's data, the crypto store and the token are gone", async () => {
  const user = await registerUser(server, "dave");
  const dbName = "logout";
  // The engine's databases for this account, as a browser would have them.
  for (const suffix of ["::matrix-sdk-crypto", "::matrix-sdk-crypto-meta"]) {
    await new Promise<void>((resolve) => {
      const req = idb.open(`dave-crypto${suffix}`);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
    });
  }
  const store = new IndexedDbStore({ indexedDB: idb, dbName });
  const client = createClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    userId: user.userId,
    deviceId: user.deviceId,
    store,
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
    cryptoStore: { name: "dave-crypto" },
  });
  clients.push(client);
  await client.start();
  const room = (await api.rooms.createRoom(client.http, { name: "Soon gone" })).room_id;
  await waitFor(() => client.rooms.find(room), "dave's room");
  await client.sync.forceSave();

  await client.logout();
  const names = (await idb.databases()).map((d) => d.name);
  expect(names).not.toContain("dave-crypto::matrix-sdk-crypto");
  expect(names).not.toContain("dave-crypto::matrix-sdk-crypto-meta");
  await store.open();
  expect(await store.getSync()).toBeNull();
  await store.close();
  await expect(api.account.whoami(client.http)).rejects.toMatchObject({ errcode: "M_UNKNOWN_TOKEN" });
});
