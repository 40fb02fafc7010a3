/**
 * Test helpers of the room, people and settings view model tests: users
 * registered on the test homeserver and SDK clients (crypto off, memory
 * store) syncing against it over loopback HTTP.
 */
import { createClient } from "../../sdk";
import type { Client } from "../../sdk";

/** Registers `name` (dummy auth) and returns a started client for it. */
export async function signUp(baseUrl: string, name: string): Promise<Client> {
  const res = await fetch(`${baseUrl}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  if (!res.ok) throw new Error(`register ${name}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; user_id: string; device_id: string };
  const client = createClient({
    baseUrl,
    accessToken: body.access_token,
    userId: body.user_id,
    deviceId: body.device_id,
    crypto: false,
    httpOptions: { retry: false },
    sync: { pollTimeoutMs: 500 },
  });
  await client.start();
  return client;
}

/**
 * Polls `get` until it gives a value other than undefined or false (a
 * check that holds gives true) and resolves with it; fails after `timeoutMs`.
 */
export async function until<T>(
  get: () => T | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `client` has `roomId` in the given membership category. */
export async function untilRoom(client: Client, roomId: string, category = "join"): Promise<void> {
  await until(() => client.rooms.find(roomId)?.getSnapshot().category === category, `${roomId} ${category}`);
}
