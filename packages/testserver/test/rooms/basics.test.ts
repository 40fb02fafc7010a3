/**
 * Rooms over HTTP: createRoom defaults and presets, room versions, sending
 * with transaction ids, state, membership transitions and power levels.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  server = await startTestServer({ seed: 3 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
  carol = await registerUser(server, "carol");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

async function createRoom(user: TestUser, body: Record<string, unknown> = {}): Promise<string> {
  const res = await api(server, user, "POST", `${V3}/createRoom`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body["room_id"]);
}

async function state(
  user: TestUser,
  roomId: string,
  type: string,
  key = "",
): Promise<Record<string, unknown>> {
  const res = await api(
    server,
    user,
    "GET",
    `${V3}/rooms/${encodeURIComponent(roomId)}/state/${type}/${encodeURIComponent(key)}`,
  );
  return res.body;
}

describe("createRoom", () => {
  it("writes the spec's defaults for a private room", async () => {
    const roomId = await createRoom(alice, { name: "Private", topic: "t" });
    expect(await state(alice, roomId, "m.room.join_rules")).toEqual({ join_rule: "invite" });
    expect(await state(alice, roomId, "m.room.history_visibility")).toEqual({ history_visibility: "shared" });
    expect(await state(alice, roomId, "m.room.name")).toEqual({ name: "Private" });
    const pl = await state(alice, roomId, "m.room.power_levels");
    expect(pl).toMatchObject({
      state_default: 50,
      events_default: 0,
      redact: 50,
      invite: 0,
      kick: 50,
      ban: 50,
    });
    expect(pl["users"]).toEqual({ [alice.userId]: 100 });
    expect(pl["notifications"]).toEqual({ room: 50 });
    const create = await state(alice, roomId, "m.room.create");
    expect(create["room_version"]).toBe("10");
    expect(create["creator"]).toBe(alice.userId);
  });

  it("makes public_chat rooms public with guest access forbidden and applies overrides", async () => {
    const roomId = await createRoom(alice, {
      preset: "public_chat",
      power_level_content_override: { events_default: 10 },
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    });
    expect(await state(alice, roomId, "m.room.join_rules")).toEqual({ join_rule: "public" });
    expect(await state(alice, roomId, "m.room.guest_access")).toEqual({ guest_access: "forbidden" });
    expect((await state(alice, roomId, "m.room.power_levels"))["events_default"]).toBe(10);
    expect(await state(alice, roomId, "m.room.encryption")).toEqual({ algorithm: "m.megolm.v1.aes-sha2" });
  });

  it("accepts room versions 1 to 12 and refuses others", async () => {
    for (const v of ["1", "5", "11", "12"]) {
      const roomId = await createRoom(alice, { room_version: v });
      expect((await state(alice, roomId, "m.room.create"))["room_version"]).toBe(v);
    }
    const bad = await api(server, alice, "POST", `${V3}/createRoom`, { room_version: "99" });
    expect(bad).toMatchObject({ status: 400, body: { errcode: "M_UNSUPPORTED_ROOM_VERSION" } });
  });

  it("gives v12 creators infinite power without listing them, and derives the room id from the create event", async () => {
    const roomId = await createRoom(alice, {
      room_version: "12",
      creation_content: { additional_creators: [bob.userId] },
    });
    expect(roomId).not.toContain(":");
    const all = await api(server, alice, "GET", `${V3}/rooms/${encodeURIComponent(roomId)}/state`);
    const create = (all.body["list"] as Array<Record<string, unknown>>).find(
      (e) => e["type"] === "m.room.create",
    );
    expect(String(create?.["event_id"]).slice(1)).toBe(roomId.slice(1));
    const pl = await state(alice, roomId, "m.room.power_levels");
    expect(pl["users"]).toEqual({});
    // Listing a creator in users is refused.
    const bad = await api(
      server,
      alice,
      "PUT",
      `${V3}/rooms/${encodeURIComponent(roomId)}/state/m.room.power_levels/`,
      {
        ...pl,
        users: { [alice.userId]: 100 },
      },
    );
    expect(bad.status).toBe(400);
    // The creator can still do anything: e.g. send a tombstone-level event.
    const ok = await api(
      server,
      alice,
      "PUT",
      `${V3}/rooms/${encodeURIComponent(roomId)}/state/m.room.server_acl/`,
      { allow: ["*"] },
    );
    expect(ok.status).toBe(200);
  });

  it("refuses malformed bodies", async () => {
    expect((await api(server, alice, "POST", `${V3}/createRoom`, "{nope")).body["errcode"]).toBe(
      "M_NOT_JSON",
    );
    expect((await api(server, alice, "POST", `${V3}/createRoom`, [1, 2])).body["errcode"]).toBe("M_BAD_JSON");
    expect((await api(server, alice, "POST", `${V3}/createRoom`, { name: 5 })).body["errcode"]).toBe(
      "M_BAD_JSON",
    );
    expect((await api(server, alice, "POST", `${V3}/createRoom`, { invite: "x" })).body["errcode"]).toBe(
      "M_BAD_JSON",
    );
    expect(
      (await api(server, alice, "POST", `${V3}/createRoom`, { initial_state: [{}] })).body["errcode"],
    ).toBe("M_BAD_JSON");
  });
});

describe("sending", () => {
  it("is idempotent per device and shows transaction_id only to the sending device", async () => {
    const roomId = await createRoom(alice);
    const path = `${V3}/rooms/${encodeURIComponent(roomId)}/send/m.room.message/txn1`;
    const a = await api(server, alice, "PUT", path, { msgtype: "m.text", body: "hi" });
    const b = await api(server, alice, "PUT", path, { msgtype: "m.text", body: "hi" });
    expect(a.status).toBe(200);
    expect(b.body["event_id"]).toBe(a.body["event_id"]);
    const ev = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(String(a.body["event_id"]))}`,
    );
    expect((ev.body["unsigned"] as Record<string, unknown>)["transaction_id"]).toBe("txn1");
    await api(server, alice, "POST", `${V3}/rooms/${encodeURIComponent(roomId)}/invite`, {
      user_id: bob.userId,
    });
    await api(server, bob, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {});
    const seen = await api(
      server,
      bob,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(String(a.body["event_id"]))}`,
    );
    expect(seen.status).toBe(200);
    expect((seen.body["unsigned"] as Record<string, unknown>)["transaction_id"]).toBeUndefined();
    // The same txn id from another user is a different event.
    const c = await api(server, bob, "PUT", path, { msgtype: "m.text", body: "hi" });
    expect(c.body["event_id"]).not.toBe(a.body["event_id"]);
  });

  it("refuses events over 65536 bytes with M_TOO_LARGE", async () => {
    const roomId = await createRoom(alice);
    const res = await api(
      server,
      alice,
      "PUT",
      `${V3}/rooms/${encodeURIComponent(roomId)}/send/m.room.message/big`,
      {
        body: "x".repeat(70_000),
      },
    );
    expect(res).toMatchObject({ status: 413, body: { errcode: "M_TOO_LARGE" } });
  });

  it("treats __proto__ as data", async () => {
    const roomId = await createRoom(alice);
    const r = encodeURIComponent(roomId);
    const put = await api(server, alice, "PUT", `${V3}/rooms/${r}/state/__proto__/__proto__`, { a: 1 });
    expect(put.status).toBe(200);
    expect(await state(alice, roomId, "__proto__", "__proto__")).toEqual({ a: 1 });
    const missing = await api(server, alice, "GET", `${V3}/rooms/__proto__/state`);
    expect(missing.status).toBe(404);
  });
});

describe("membership and power", () => {
  it("walks invite, join, kick, ban, unban and knock under the auth rules", async () => {
    const roomId = await createRoom(alice, { room_version: "10" });
    const r = encodeURIComponent(roomId);
    expect((await api(server, bob, "POST", `${V3}/join/${r}`, {})).status).toBe(403);
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${r}/invite`, { user_id: bob.userId })).status,
    ).toBe(200);
    expect((await api(server, bob, "POST", `${V3}/rooms/${r}/join`, {})).status).toBe(200);
    // Bob (level 0) cannot kick alice or change power levels.
    expect((await api(server, bob, "POST", `${V3}/rooms/${r}/kick`, { user_id: alice.userId })).status).toBe(
      403,
    );
    const pl = await state(alice, roomId, "m.room.power_levels");
    expect(
      (await api(server, bob, "PUT", `${V3}/rooms/${r}/state/m.room.power_levels/`, { ...pl, ban: 0 }))
        .status,
    ).toBe(403);
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${r}/kick`, { user_id: bob.userId, reason: "bye" }))
        .status,
    ).toBe(200);
    expect((await api(server, alice, "POST", `${V3}/rooms/${r}/ban`, { user_id: bob.userId })).status).toBe(
      200,
    );
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${r}/invite`, { user_id: bob.userId })).status,
    ).toBe(403);
    expect((await api(server, alice, "POST", `${V3}/rooms/${r}/unban`, { user_id: bob.userId })).status).toBe(
      200,
    );
    // Knocking needs the knock join rule.
    expect((await api(server, carol, "POST", `${V3}/knock/${r}`, {})).status).toBe(403);
    await api(server, alice, "PUT", `${V3}/rooms/${r}/state/m.room.join_rules/`, { join_rule: "knock" });
    expect((await api(server, carol, "POST", `${V3}/knock/${r}`, { reason: "let me in" })).status).toBe(200);
    const members = await api(server, alice, "GET", `${V3}/rooms/${r}/members?membership=knock`);
    expect((members.body["chunk"] as unknown[]).length).toBe(1);
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${r}/invite`, { user_id: carol.userId })).status,
    ).toBe(200);
    expect((await api(server, carol, "POST", `${V3}/rooms/${r}/join`, {})).status).toBe(200);
    const joined = await api(server, alice, "GET", `${V3}/rooms/${r}/joined_members`);
    expect(Object.keys(joined.body["joined"] as object).sort()).toEqual([alice.userId, carol.userId].sort());
  });

  it("lets a power change go only as high as the sender's own level", async () => {
    const roomId = await createRoom(alice);
    const r = encodeURIComponent(roomId);
    await api(server, alice, "POST", `${V3}/rooms/${r}/invite`, { user_id: bob.userId });
    await api(server, bob, "POST", `${V3}/rooms/${r}/join`, {});
    const pl = await state(alice, roomId, "m.room.power_levels");
    const users = { ...(pl["users"] as object), [bob.userId]: 50 };
    expect(
      (await api(server, alice, "PUT", `${V3}/rooms/${r}/state/m.room.power_levels/`, { ...pl, users }))
        .status,
    ).toBe(200);
    const next = await state(alice, roomId, "m.room.power_levels");
    // Bob at 50 may not give himself 100 nor set ban above 50.
    expect(
      (
        await api(server, bob, "PUT", `${V3}/rooms/${r}/state/m.room.power_levels/`, {
          ...next,
          users: { ...users, [bob.userId]: 100 },
        })
      ).status,
    ).toBe(403);
    expect(
      (await api(server, bob, "PUT", `${V3}/rooms/${r}/state/m.room.topic/`, { topic: "ok at 50" })).status,
    ).toBe(200);
  });

  it("restricted rooms admit members of the allowed room only", async () => {
    const space = await createRoom(alice, { preset: "public_chat" });
    const roomId = await createRoom(alice, {
      initial_state: [
        {
          type: "m.room.join_rules",
          content: { join_rule: "restricted", allow: [{ type: "m.room_membership", room_id: space }] },
        },
      ],
    });
    const r = encodeURIComponent(roomId);
    expect((await api(server, carol, "POST", `${V3}/rooms/${r}/join`, {})).status).toBe(403);
    await api(server, carol, "POST", `${V3}/join/${encodeURIComponent(space)}`, {});
    expect((await api(server, carol, "POST", `${V3}/rooms/${r}/join`, {})).status).toBe(200);
  });

  it("forgets only left rooms and lists joined rooms", async () => {
    const roomId = await createRoom(bob);
    const r = encodeURIComponent(roomId);
    expect((await api(server, bob, "POST", `${V3}/rooms/${r}/forget`, {})).status).toBe(400);
    expect((await api(server, bob, "GET", `${V3}/joined_rooms`)).body["joined_rooms"] as string[]).toContain(
      roomId,
    );
    expect((await api(server, bob, "POST", `${V3}/rooms/${r}/leave`, {})).status).toBe(200);
    expect((await api(server, bob, "POST", `${V3}/rooms/${r}/forget`, {})).status).toBe(200);
    expect(
      (await api(server, bob, "GET", `${V3}/joined_rooms`)).body["joined_rooms"] as string[],
    ).not.toContain(roomId);
  });
});
