/**
 * Interop: registration through interactive auth, signing in with a
 * password and the first sync, on every server of the fixture. A user made
 * on the server signs in through the SDK's password login, a client starts
 * on that session, and its first sync brings the room the user was already
 * in, with its name.
 */
import { afterEach, expect, it } from "vitest";
import { whoami } from "../../src/api/account";
import { createRoom } from "../../src/api/rooms";
import { loginWithPassword } from "../../src/auth/login";
import { registerAccount } from "../../src/auth/register";
import { createClient, type Client } from "../../src/client";
import { createHttpClient } from "../../src/http";
import { waitFor } from "../client/helpers";
import { SYNC_WAIT_MS } from "./clients";
import { describeEachServer, uniqueLocalpart } from "./servers";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describeEachServer("sign-in and initial sync", (ctx) => {
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop();
  });

  it("signs in with a password; the first sync brings the rooms the user is in", async () => {
    const user = await ctx.user("alice");
    const setup = createHttpClient({ baseUrl: ctx.server.url, accessToken: user.accessToken, retry: false });
    const { room_id: roomId } = await createRoom(setup, { name: "Interop lobby", preset: "private_chat" });

    const anon = createHttpClient({ baseUrl: ctx.server.url, retry: false });
    const session = await loginWithPassword(anon, { userId: user.localpart }, user.password, {
      initialDeviceDisplayName: "interop",
    });
    expect(session.userId).toBe(user.userId);
    expect(session.deviceId).not.toBe(user.deviceId);
    expect(session.homeserverUrl).toBe(ctx.server.url);

    const client = createClient({
      baseUrl: ctx.server.url,
      accessToken: session.accessToken,
      userId: session.userId,
      deviceId: session.deviceId,
      crypto: false,
      logger: quiet,
      sync: { pollTimeoutMs: 1_000 },
    });
    clients.push(client);
    await client.start();
    const room = await waitFor(
      () => client.rooms.find(roomId),
      `room ${roomId} after the first sync (sync state: ${client.sync.state.getSnapshot()})`,
      SYNC_WAIT_MS,
    );
    await waitFor(() => room.getSnapshot().name.name === "Interop lobby", "the room's name", SYNC_WAIT_MS);
    expect(client.sync.state.getSnapshot()).toMatch(/^(prepared|syncing)$/);
  });

  it("registers through interactive auth (the dummy stage) and the new session works", async () => {
    const username = uniqueLocalpart("reg");
    const seen: string[] = [];
    const anon = createHttpClient({
      baseUrl: ctx.server.url,
      retry: false,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen.push(`${init.method ?? "GET"} ${res.status}`);
        return res;
      },
    });
    const data = await registerAccount(anon, { username, password: `password-${username}` });
    expect(data.userId).toBe(`@${username}:${ctx.server.serverName}`);
    // The first request learns the flows (401 with a session), the second completes m.login.dummy.
    expect(seen).toEqual(["POST 401", "POST 200"]);
    const http = createHttpClient({ baseUrl: ctx.server.url, accessToken: data.accessToken, retry: false });
    await expect(whoami(http)).resolves.toMatchObject({ user_id: data.userId, device_id: data.deviceId });
    // The password works for a later sign-in.
    const again = await loginWithPassword(anon, { userId: username }, `password-${username}`);
    expect(again.userId).toBe(data.userId);
  });
});
