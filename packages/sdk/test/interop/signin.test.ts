/**
 * Interop: signing in with a password and the first sync, on every server
 * of the fixture. A user made on the server signs in through the SDK's
 * password login, a client starts on that session, and its first sync
 * brings the room the user was already in, with its name.
 */
import { afterEach, expect, it } from "vitest";
import { createRoom } from "../../src/api/rooms";
import { loginWithPassword } from "../../src/auth/login";
import { createClient, type Client } from "../../src/client";
import { createHttpClient } from "../../src/http";
import { waitFor } from "../client/helpers";
import { describeEachServer } from "./servers";

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
      `room ${roomId} after the first sync`,
      30_000,
    );
    await waitFor(() => room.getSnapshot().name.name === "Interop lobby", "the room's name", 30_000);
    expect(client.sync.state.getSnapshot()).toMatch(/^(prepared|syncing)$/);
  });
});
