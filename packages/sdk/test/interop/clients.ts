/**
 * Clients for interop scenarios: started on the scenario's server with
 * unique users (encryption off unless asked for: most scenarios do not need
 * the engine, and loading it costs seconds), disposed after the file, and a
 * shared room helper. Waits are longer than in the fast suite: a real server
 * on a loaded machine answers in seconds, not milliseconds.
 */
import { afterAll } from "vitest";
import { createRoom } from "../../src/api/rooms";
import type { CreateRoomRequest } from "../../src/api/types/rooms";
import type { Client, CreateClientOptions } from "../../src/client";
import { startClient, waitFor, waitForMembership } from "../client/helpers";
import { uniqueLocalpart, type ServerContext } from "./servers";

/** How long a scenario waits for something sync brings. */
export const SYNC_WAIT_MS = 30_000;

/** Returns a starter of clients on `ctx`'s server; every client it starts is disposed after the file. */
export function clientsOf(
  ctx: ServerContext,
): (prefix: string, options?: Partial<CreateClientOptions>) => Promise<Client> {
  const started: Client[] = [];
  afterAll(async () => {
    await Promise.all(started.splice(0).map((c) => c.dispose()));
  });
  return async (prefix, options = {}) => {
    const client = await startClient(ctx.server, uniqueLocalpart(prefix), { crypto: false, ...options });
    started.push(client);
    return client;
  };
}

/**
 * `owner` creates a room (private chat unless `extra` says otherwise) and
 * each of `members` is invited and joins; resolves once the owner sees them
 * all joined and each member sees the room.
 */
export async function sharedRoom(
  owner: Client,
  members: readonly Client[],
  extra: Partial<CreateRoomRequest> = {},
): Promise<string> {
  const { room_id: roomId } = await createRoom(owner.http, {
    preset: "private_chat",
    invite: members.map((m) => m.userId),
    ...extra,
  });
  for (const member of members) {
    await waitFor(() => member.rooms.find(roomId), `${member.userId}'s invite to ${roomId}`, SYNC_WAIT_MS);
    await member.moderation.join(roomId);
  }
  for (const member of members) {
    await waitForMembership(owner, roomId, member.userId, "join", SYNC_WAIT_MS);
    await waitForMembership(member, roomId, member.userId, "join", SYNC_WAIT_MS);
  }
  await waitFor(() => owner.rooms.find(roomId), `${owner.userId}'s room ${roomId}`, SYNC_WAIT_MS);
  return roomId;
}
