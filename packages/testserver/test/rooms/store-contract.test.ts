/**
 * The RoomStore contract other domains call (delayed events, push rules,
 * the demo seed): sendAsUser through the auth rules, membership queries,
 * timeline and state lookups, and canSee.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { MatrixHttpError } from "../../src/http/errors";
import { api, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ seed: 29 });
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(() => server.stop());

describe("RoomStore contract", () => {
  it("creates, joins and sends as users, visible over HTTP", async () => {
    const rooms = server.ctx.rooms;
    const roomId = rooms.createRoomAs(alice.userId, {
      name: "Seeded",
      preset: "private_chat",
      invite: [bob.userId],
    });
    expect(rooms.has(roomId)).toBe(true);
    expect(rooms.membershipOf(roomId, bob.userId)).toBe("invite");
    rooms.joinAs(bob.userId, roomId);
    expect(rooms.joinedMembers(roomId).sort()).toEqual([alice.userId, bob.userId].sort());
    expect(rooms.roomsForUser(bob.userId)).toContainEqual({ roomId, membership: "join" });
    const ev = rooms.sendAsUser(bob.userId, roomId, "m.room.message", { msgtype: "m.text", body: "seeded" });
    expect(rooms.getEvent(roomId, ev.event_id)).toBe(ev);
    expect(rooms.timeline(roomId).at(-1)).toBe(ev);
    expect(rooms.currentState(roomId, "m.room.name", "")?.content).toEqual({ name: "Seeded" });
    expect(rooms.canSee(bob.userId, ev)).toBe(true);
    const carol = await registerUser(server, "carol");
    expect(rooms.canSee(carol.userId, ev)).toBe(false);
    // Refused like the HTTP API: bob (level 0) cannot set the name; carol is not in the room.
    expect(() => rooms.sendAsUser(bob.userId, roomId, "m.room.name", { name: "x" }, "")).toThrow(
      MatrixHttpError,
    );
    expect(() => rooms.sendAsUser(carol.userId, roomId, "m.room.message", { body: "x" })).toThrow(
      MatrixHttpError,
    );
    const fetched = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(ev.event_id)}`,
    );
    expect((fetched.body["content"] as Record<string, unknown>)["body"]).toBe("seeded");
    expect(rooms.has("!missing:localhost")).toBe(false);
    expect(rooms.timeline("!missing:localhost")).toEqual([]);
    expect(rooms.membershipOf("!missing:localhost", alice.userId)).toBeUndefined();
  });
});
