/**
 * Test helpers for the client integration tests: a started client per user
 * of a homeserver (the test homeserver, or any server of the interop
 * fixture: test homeserver, Synapse), and polling for a condition that sync
 * makes true.
 */
import type { TestServerHandle } from "@lattice/testserver";
import type { InteropServer } from "../interop/servers";
import { createClient } from "../../src/client";
import type { Client, CreateClientOptions } from "../../src/client";
import { createRoom } from "../../src/api/rooms";
import type { CreateRoomRequest } from "../../src/api/types/rooms";
import { registerUser } from "@lattice/testserver/test/helpers";
import type { FilesService } from "../../src/files/FilesService";
import type { RtcService } from "../../src/rtc/RtcService";
import type { VoipService } from "../../src/voip/VoipService";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A homeserver the helpers can register users on and sign in to. */
export type HelperServer = TestServerHandle | InteropServer;

/** Registers `name` with the password `password-${name}` (the convention startAnotherDevice relies on). */
export function registerOn(
  server: HelperServer,
  name: string,
): Promise<{ userId: string; accessToken: string; deviceId: string }> {
  if ("registerUser" in server) return server.registerUser(name, { password: `password-${name}` });
  return registerUser(server, name);
}

/**
 * Registers `name` and starts a client for it (short polls, so stop() is
 * quick). On an interop server `name` is used as the localpart as it is:
 * make it unique (ServerContext.user, uniqueLocalpart). Its lazily loaded
 * services are loaded too (loadServices), so a test reads them with svc().
 */
export async function startClient(
  server: HelperServer,
  name: string,
  options: Partial<CreateClientOptions> = {},
): Promise<Client> {
  const user = await registerOn(server, name);
  const client = createClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    userId: user.userId,
    deviceId: user.deviceId,
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
    ...options,
  });
  await client.start();
  await loadServices(client);
  return client;
}

/** A client's lazily loaded services (ADR 0038), once loaded. */
export interface LoadedServices {
  voip: VoipService;
  rtc: RtcService;
  files: FilesService;
}

const loadedServices = new WeakMap<object, LoadedServices>();

/** Loads the client's call and file services, so the test reads them synchronously through svc(). */
export async function loadServices(client: Pick<Client, "voip" | "rtc" | "files">): Promise<LoadedServices> {
  const [voip, rtc, files] = await Promise.all([client.voip(), client.rtc(), client.files()]);
  const loaded = { voip, rtc, files };
  loadedServices.set(client, loaded);
  return loaded;
}

/** The services loadServices (or startClient) loaded for `client`. */
export function svc(client: object): LoadedServices {
  const loaded = loadedServices.get(client);
  if (loaded === undefined)
    throw new Error("The client's services are not loaded: await loadServices(client)");
  return loaded;
}

/** Resolves with the first truthy value of `probe`, polling; fails after `timeoutMs` (`what`, or what it returns then, says what was awaited). */
export async function waitFor<T>(
  probe: () => T | undefined | null | false,
  what: string | (() => string),
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined | null | false;
    try {
      value = probe();
    } catch {
      value = undefined;
    }
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until `client` sees `userId` with `membership` in the room. */
export function waitForMembership(
  client: Client,
  roomId: string,
  userId: string,
  membership: string,
  timeoutMs?: number,
): Promise<true> {
  return waitFor(
    () => client.rooms.find(roomId)?.getSnapshot().state.membershipOf(userId) === membership,
    `${userId} ${membership} in ${roomId} as seen by ${client.userId}`,
    timeoutMs,
  );
}

/**
 * Alice creates an encrypted room (megolm) inviting bob, who joins; resolves
 * with its id once alice sees him joined. `extra` adds to the request
 * (preset, name, is_direct...).
 */
export async function encryptedRoom(
  alice: Client,
  bob: Client,
  extra: Partial<CreateRoomRequest> = {},
): Promise<string> {
  const roomId = (
    await createRoom(alice.http, {
      preset: "private_chat",
      invite: [bob.userId],
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
      ...extra,
    })
  ).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob's invite");
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  return roomId;
}

/**
 * Logs `client`'s user in again (the password registerUser gave it) and
 * starts a client on that new device, with `options` added.
 */
export async function startAnotherDevice(
  server: HelperServer,
  client: Client,
  options: Partial<CreateClientOptions> = {},
): Promise<Client> {
  const name = client.userId.slice(1, client.userId.indexOf(":"));
  const res = await fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: client.userId },
      password: `password-${name}`,
    }),
  });
  if (res.status !== 200) throw new Error(`login of another device of ${client.userId}: ${res.status}`);
  const body = (await res.json()) as { access_token: string; device_id: string };
  const another = createClient({
    baseUrl: server.url,
    accessToken: body.access_token,
    userId: client.userId,
    deviceId: body.device_id,
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
    ...options,
  });
  await another.start();
  return another;
}
