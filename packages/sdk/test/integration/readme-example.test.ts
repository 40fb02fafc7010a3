/**
 * The README's SDK examples, run for real against the test homeserver: the
 * public entry point exposes the HTTP client and the API families, and a
 * message sent through them comes back from /messages; createClient on an
 * IndexedDbStore (fake-indexeddb here) sends through its queue and logs out.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createClient, createHttpClient, createTxnIdGenerator, IndexedDbStore } from "../../src";
import { registerUser } from "@lattice/testserver/test/helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "readme" });
});
afterAll(() => server.stop());

it("creates a room, sends a message and reads it back through the public API", async () => {
  const alice = await registerUser(server, "alice");
  const http = createHttpClient({ baseUrl: server.url, accessToken: alice.accessToken });
  const txnIds = createTxnIdGenerator(() => Date.now());

  const { room_id } = await api.rooms.createRoom(http, { name: "Lattice", preset: "private_chat" });
  const txnId = txnIds();
  expect(txnId).toMatch(/^m\d+/);
  const sent = await api.send.sendEvent(http, room_id, "m.room.message", txnId, {
    msgtype: "m.text",
    body: "hi",
  });
  // The same transaction id is idempotent: the server answers with the same event.
  const again = await api.send.sendEvent(http, room_id, "m.room.message", txnId, {
    msgtype: "m.text",
    body: "hi",
  });
  expect(again.event_id).toBe(sent.event_id);

  const page = await api.timeline.messages(http, room_id, { dir: "b", limit: 5 });
  const bodies = page.chunk.filter((e) => e.type === "m.room.message").map((e) => e.content["body"]);
  expect(bodies).toEqual(["hi"]);
  expect(page.chunk[0]?.event_id).toBe(sent.event_id);
});

it("runs the createClient example: start, send through the queue, log out", async () => {
  const me = await registerUser(server, "readme");
  const roomId = (
    await api.rooms.createRoom(createHttpClient({ baseUrl: server.url, accessToken: me.accessToken }), {
      name: "Readme",
    })
  ).room_id;
  const indexedDB = (globalThis as unknown as { indexedDB: object }).indexedDB;

  const client = createClient({
    baseUrl: server.url,
    accessToken: me.accessToken,
    userId: me.userId,
    deviceId: me.deviceId,
    store: new IndexedDbStore({ indexedDB, dbName: `lattice:${me.userId}` }),
    cryptoStore: { name: `lattice-crypto:${me.userId}` },
    sync: { pollTimeoutMs: 1_000 },
  });
  await client.start();
  for (let i = 0; i < 200 && !client.rooms.find(roomId); i++) await new Promise((r) => setTimeout(r, 25));
  const echo = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "hi" });
  expect((await client.sendQueue.whenSettled(echo.txnId))?.status).toBe("sent");
  expect(client.crypto.enabled).toBe(true);
  // A new device loads the engine once, in the background, to upload its keys (0009, the key race).
  for (let i = 0; i < 200 && !client.crypto.loaded; i++) await new Promise((r) => setTimeout(r, 25));
  expect(client.crypto.loaded).toBe(true);
  await client.logout();
  await expect(api.account.whoami(client.http)).rejects.toMatchObject({ errcode: "M_UNKNOWN_TOKEN" });
});
