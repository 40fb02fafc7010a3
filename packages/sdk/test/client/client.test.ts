/**
 * The facade itself: option checking, a guest client (no receipts, no
 * typing, no state events, nothing sent), and the lifecycle (stop, start
 * again, dispose) against the test homeserver.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, auth, ClientServiceError, createClient, GuestForbiddenError } from "../../src";
import type { Client } from "../../src";
import { registerUser } from "@lattice/testserver/test/helpers";
import { startClient, waitFor } from "./helpers";

let server: TestServerHandle;
let host: Client;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: "client-facade" });
  host = await startClient(server, "host");
  roomId = (await api.rooms.createRoom(host.http, { preset: "public_chat" })).room_id;
});

afterAll(async () => {
  await host?.dispose();
  await server?.stop();
});

it("needs a session or a token with its user", () => {
  expect(() => createClient({ baseUrl: server.url, accessToken: "t" })).toThrow(ClientServiceError);
  expect(() => createClient({ accessToken: "t", userId: "@u:test" })).toThrow(
    "createClient needs a session, or baseUrl, accessToken and userId",
  );
});

it("sends no receipts, typing or state events as a guest", async () => {
  const user = await registerUser(server, "visitor");
  const fetched: string[] = [];
  const guest = createClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    userId: user.userId,
    guest: true,
    sync: { pollTimeoutMs: 1_000 },
    httpOptions: {
      fetch: (input, init) => {
        fetched.push(`${init.method ?? "GET"} ${input}`);
        return fetch(input, init);
      },
    },
  });
  try {
    await guest.start();
    expect(guest.sync.guest).toBe(true);
    await guest.moderation.join(roomId);
    await waitFor(() => guest.rooms.find(roomId), "the guest's room");
    const last = host.rooms.find(roomId)?.getSnapshot().latestEvent?.event_id;
    const eventId =
      last ?? (await api.timeline.messages(guest.http, roomId, { dir: "b", limit: 1 })).chunk[0]?.event_id;
    expect(eventId).toMatch(/^\$/);
    expect(await guest.receipts.sendReceipt(roomId, eventId ?? "$none")).toBe(false);
    expect(await guest.receipts.setReadMarkers(roomId, { fullyRead: eventId ?? "$none" })).toBe(false);
    expect(await guest.typing.setTyping(roomId, true)).toBe(false);
    await expect(guest.moderation.setPowerLevel(roomId, user.userId, 0)).rejects.toBeInstanceOf(
      GuestForbiddenError,
    );
    expect(
      fetched.filter((f) => /\/(receipt|read_markers|typing|state)\//.test(f) || f.includes("/read_markers")),
    ).toEqual([]);
  } finally {
    await guest.dispose();
  }
});

it("stops, refuses calls while stopped, and starts again", async () => {
  await host.stop();
  expect(host.sync.isRunning).toBe(false);
  await expect(host.moderation.invite(roomId, "@x:test")).rejects.toThrow("Client is not running");
  await host.start();
  expect(host.sync.isRunning).toBe(true);
  const versions = await host.versions();
  expect(await host.versions()).toBe(versions);
});

it("runs from a signed-in session", async () => {
  const user = await registerUser(server, "sessioned");
  const session = new auth.Session(new auth.MemorySessionStorage(), {
    homeserverUrl: server.url,
    userId: user.userId,
    deviceId: user.deviceId,
    accessToken: user.accessToken,
  });
  const client = createClient({ session, sync: { pollTimeoutMs: 1_000 } });
  try {
    expect(client.userId).toBe(user.userId);
    expect(client.deviceId).toBe(user.deviceId);
    await client.start();
    await client.moderation.join(roomId);
    await waitFor(() => client.rooms.find(roomId)?.getSnapshot().category === "join", "joined");
    await client.typing.setTyping(roomId, true);
    await waitFor(
      () => host.rooms.find(roomId)?.getSnapshot().typing.includes(user.userId),
      "host sees the session user typing",
    );
    // The token is revoked elsewhere: the next sync meets M_UNKNOWN_TOKEN, the session ends and the client stops.
    await api.login.logout(
      createClient({ baseUrl: server.url, accessToken: user.accessToken, userId: user.userId }).http,
    );
    await waitFor(() => session.state.getSnapshot().kind === "signed_out", "session signed out");
    await waitFor(() => !client.sync.isRunning, "client stopped");
  } finally {
    await client.dispose();
  }
  expect(() => createClient({ session })).toThrow("The session is signed out");
});
