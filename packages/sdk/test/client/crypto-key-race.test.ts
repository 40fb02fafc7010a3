/**
 * When the lazily loaded engine loads, over HTTP on the test homeserver:
 * - the key race: a brand-new device that never meets an encrypted room
 *   still uploads its keys at sign-in (the engine loads in the background on
 *   the first batch without one-time keys), so a room key bob sends while it
 *   is away reaches it and the message decrypts when it comes back;
 * - the catch-up: a returning device (persistent sync and engine stores in
 *   fake-indexeddb) whose rooms are all unencrypted does not load the engine,
 *   so it misses the device-list change of a new device of its own user;
 *   when an encrypted room later loads the engine, the missed span goes to
 *   /keys/changes (sync v2) or marks every tracked user for a new query
 *   (sliding sync), and the room key of its first message reaches that new
 *   device.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createClient, IndexedDbStore } from "../../src";
import type { Client, CreateClientOptions } from "../../src";
import { registerUser } from "@lattice/testserver/test/helpers";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const ENCRYPTION = {
  type: "m.room.encryption",
  state_key: "",
  content: { algorithm: "m.megolm.v1.aes-sha2" },
};
const open: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: "crypto-key-race" });
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.dispose()));
  await server?.stop();
});

/** Logs `userId` in again: a new device. */
async function login(userId: string, password: string): Promise<{ accessToken: string; deviceId: string }> {
  const res = await fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: userId },
      password,
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; device_id: string };
  return { accessToken: body.access_token, deviceId: body.device_id };
}

/** Whether the server holds device keys for `deviceId` of `userId` (asked as `asker`). */
async function serverHasKeys(asker: Client, userId: string, deviceId: string): Promise<boolean> {
  const answer = await api.keys.queryKeys(asker.http, { device_keys: { [userId]: [] } });
  return answer.device_keys?.[userId]?.[deviceId] !== undefined;
}

/** Polls `probe` (async) until true or `timeoutMs`; returns the last answer. */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function bodyIn(client: Client, roomId: string, eventId: string): unknown {
  const event = client.rooms.find(roomId)?.recentEvents.find((e) => e.event_id === eventId);
  return event?.type === "m.room.message" ? event.content["body"] : undefined;
}

async function send(client: Client, roomId: string, body: string): Promise<string> {
  const echo = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body });
  const settled = await client.sendQueue.whenSettled(echo.txnId);
  expect(settled?.status).toBe("sent");
  return settled?.eventId ?? echo.eventId ?? "";
}

describe("the key race", () => {
  it("a fresh device that never opened an encrypted room decrypts what bob sent while it was away", async () => {
    const bob = await startClient(server, "racebob");
    open.push(bob);
    const alice = await startClient(server, "racealice");
    open.push(alice);
    const roomId = (
      await api.rooms.createRoom(bob.http, { preset: "private_chat", name: "Plain", invite: [alice.userId] })
    ).room_id;
    await waitFor(() => alice.rooms.find(roomId), "alice's invite");
    await alice.moderation.join(roomId);
    await waitForMembership(bob, roomId, alice.userId, "join");
    // Alice's device met no encrypted room, yet its keys reach the server.
    const uploaded = await eventually(() => serverHasKeys(bob, alice.userId, alice.deviceId ?? ""), 5_000);
    expect(uploaded).toBe(true);
    expect(alice.crypto.isRoomEncrypted(roomId)).toBe(false);

    await alice.stop();
    await bob.state.setState(roomId, ENCRYPTION.type, "", ENCRYPTION.content);
    await waitFor(() => bob.rooms.find(roomId)?.getSnapshot().isEncrypted, "bob sees encryption");
    const eventId = await send(bob, roomId, "sent while you were away");

    await alice.start();
    const body = await waitFor(() => bodyIn(alice, roomId, eventId), "alice decrypts bob's message");
    expect(body).toBe("sent while you were away");
  }, 30_000);
});

describe.each(["v2", "sliding"] as const)("device-list catch-up (%s)", (syncMode) => {
  it("a returning device learns of its user's new device it missed while the engine was unloaded", async () => {
    const name = `catchup${syncMode}`;
    const password = `password-${name}`;
    const user = await registerUser(server, name, password);
    const idb = (globalThis as unknown as { indexedDB: object }).indexedDB;
    const options: CreateClientOptions = {
      baseUrl: server.url,
      accessToken: user.accessToken,
      userId: user.userId,
      deviceId: user.deviceId,
      logger: quiet,
      sync: { pollTimeoutMs: 500, syncMode },
      cryptoStore: { name: `${name}-crypto` },
    };
    const store = (): IndexedDbStore => new IndexedDbStore({ indexedDB: idb, dbName: `${name}-sync` });

    // Session 1: the fresh device loads the engine for its keys; its store now knows its own user's devices.
    const first = createClient({ ...options, store: store() });
    await first.start();
    await waitFor(() => first.crypto.loaded, "the engine of the fresh device");
    await first.crypto.flush();
    expect((await first.crypto.getUserDevices(user.userId)).map((d) => d.deviceId)).toEqual([user.deviceId]);
    await first.dispose();

    // Session 2 starts from the stored token with unencrypted rooms only: no engine.
    const device = createClient({ ...options, store: store() });
    open.push(device);
    await device.start();
    const plain = (await api.rooms.createRoom(device.http, { preset: "private_chat", name: "Plain" }))
      .room_id;
    await waitFor(() => device.rooms.find(plain), "the plain room");

    // Meanwhile the user signs in a second device, which uploads its keys.
    const second = await login(user.userId, password);
    const other = createClient({ ...options, ...second, store: undefined, cryptoStore: undefined });
    open.push(other);
    await other.start();
    await waitFor(() => other.crypto.loaded, "the second device's engine");
    await other.crypto.flush();
    // The first device's sync passes the device-list change without the engine.
    const marker = await send(device, plain, "marker");
    await waitFor(() => bodyIn(device, plain, marker), "the marker");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(device.crypto.loaded).toBe(false);

    // An encrypted room loads the engine; its first message's key must reach the second device.
    const secret = (
      await api.rooms.createRoom(device.http, { preset: "private_chat", initial_state: [ENCRYPTION] })
    ).room_id;
    await waitFor(() => device.rooms.find(secret)?.getSnapshot().isEncrypted, "the encrypted room");
    await waitFor(() => device.crypto.loaded, "the engine");
    const eventId = await send(device, secret, "for all my devices");
    await waitFor(() => other.rooms.find(secret), "the second device sees the room");
    const body = await waitFor(() => bodyIn(other, secret, eventId), "the second device decrypts");
    expect(body).toBe("for all my devices");
  }, 40_000);
});
