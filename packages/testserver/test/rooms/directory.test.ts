/**
 * Aliases, the room directory, public rooms, upgrades, spaces and the room
 * summary, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;
const V1 = "/_matrix/client/v1";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ seed: 13 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const e = encodeURIComponent;

async function createRoom(user: TestUser, body: Obj = {}): Promise<string> {
  const res = await api(server, user, "POST", `${V3}/createRoom`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body["room_id"]);
}

describe("aliases and the directory", () => {
  it("creates, resolves, lists and deletes aliases", async () => {
    const roomId = await createRoom(alice, { room_alias_name: "lobby" });
    const alias = `#lobby:${server.serverName}`;
    expect((await api(server, undefined, "GET", `${V3}/directory/room/${e(alias)}`)).body).toEqual({
      room_id: roomId,
      servers: [server.serverName],
    });
    expect(
      (await api(server, alice, "POST", `${V3}/createRoom`, { room_alias_name: "lobby" })).body["errcode"],
    ).toBe("M_ROOM_IN_USE");
    const extra = `#lobby2:${server.serverName}`;
    expect(
      (await api(server, alice, "PUT", `${V3}/directory/room/${e(extra)}`, { room_id: roomId })).status,
    ).toBe(200);
    expect(
      (await api(server, alice, "PUT", `${V3}/directory/room/${e(extra)}`, { room_id: roomId })).status,
    ).toBe(409);
    expect(
      (await api(server, alice, "PUT", `${V3}/directory/room/${e("#x:elsewhere")}`, { room_id: roomId }))
        .status,
    ).toBe(400);
    expect(
      (
        await api(server, alice, "PUT", `${V3}/directory/room/${e("#y:" + server.serverName)}`, {
          room_id: 5,
        })
      ).status,
    ).toBe(400);
    const listed = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/aliases`);
    expect((listed.body["aliases"] as string[]).sort()).toEqual([alias, extra].sort());
    expect((await api(server, bob, "GET", `${V3}/rooms/${e(roomId)}/aliases`)).status).toBe(403);
    expect((await api(server, bob, "DELETE", `${V3}/directory/room/${e(extra)}`)).status).toBe(403);
    // A canonical alias must point to the room.
    const bad = await api(server, alice, "PUT", `${V3}/rooms/${e(roomId)}/state/m.room.canonical_alias/`, {
      alias: "#nope:" + server.serverName,
    });
    expect(bad.body["errcode"]).toBe("M_BAD_ALIAS");
    expect(
      (
        await api(server, alice, "PUT", `${V3}/rooms/${e(roomId)}/state/m.room.canonical_alias/`, {
          alias,
          alt_aliases: [extra],
        })
      ).status,
    ).toBe(200);
    expect((await api(server, alice, "DELETE", `${V3}/directory/room/${e(extra)}`)).status).toBe(200);
    expect((await api(server, alice, "GET", `${V3}/directory/room/${e(extra)}`)).status).toBe(404);
  });

  it("publishes rooms and filters the public list", async () => {
    const pub = await createRoom(alice, {
      visibility: "public",
      preset: "public_chat",
      name: "Gardening club",
      topic: "plants",
    });
    const space = await createRoom(alice, {
      visibility: "public",
      preset: "public_chat",
      name: "Garden space",
      creation_content: { type: "m.space" },
    });
    const priv = await createRoom(alice, { name: "Secret garden" });
    expect((await api(server, undefined, "GET", `${V3}/directory/list/room/${e(pub)}`)).body).toEqual({
      visibility: "public",
    });
    expect((await api(server, undefined, "GET", `${V3}/directory/list/room/${e(priv)}`)).body).toEqual({
      visibility: "private",
    });
    expect(
      (await api(server, bob, "PUT", `${V3}/directory/list/room/${e(priv)}`, { visibility: "public" }))
        .status,
    ).toBe(403);
    const list = await api(server, undefined, "GET", `${V3}/publicRooms`);
    const ids = (list.body["chunk"] as Obj[]).map((c) => c["room_id"]);
    expect(ids).toContain(pub);
    expect(ids).not.toContain(priv);
    const search = await api(server, bob, "POST", `${V3}/publicRooms`, {
      filter: { generic_search_term: "garden" },
    });
    expect((search.body["chunk"] as Obj[]).map((c) => c["room_id"]).sort()).toEqual([pub, space].sort());
    const spaces = await api(server, bob, "POST", `${V3}/publicRooms`, {
      filter: { room_types: ["m.space"] },
    });
    expect((spaces.body["chunk"] as Obj[]).map((c) => c["room_id"])).toEqual([space]);
    const plain = await api(server, bob, "POST", `${V3}/publicRooms`, {
      filter: { room_types: [null], generic_search_term: "garden" },
    });
    expect((plain.body["chunk"] as Obj[]).map((c) => c["room_id"])).toEqual([pub]);
    const page = await api(server, bob, "POST", `${V3}/publicRooms`, { limit: 1 });
    expect((page.body["chunk"] as Obj[]).length).toBe(1);
    const next = await api(server, bob, "POST", `${V3}/publicRooms`, {
      limit: 1,
      since: page.body["next_batch"],
    });
    expect((next.body["chunk"] as Obj[])[0]?.["room_id"]).not.toBe(
      (page.body["chunk"] as Obj[])[0]?.["room_id"],
    );
    expect((await api(server, bob, "POST", `${V3}/publicRooms`, { filter: "x" })).status).toBe(400);
    expect((await api(server, bob, "GET", `${V3}/publicRooms?since=zzz`)).status).toBe(400);
  });
});

describe("upgrades", () => {
  it("tombstones the old room and copies state and power levels to the new one", async () => {
    const roomId = await createRoom(alice, {
      name: "Old",
      room_alias_name: "upgrade-me",
      invite: [bob.userId],
    });
    await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {});
    expect(
      (await api(server, bob, "POST", `${V3}/rooms/${e(roomId)}/upgrade`, { new_version: "11" })).status,
    ).toBe(403);
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/upgrade`, { new_version: "77" })).body[
        "errcode"
      ],
    ).toBe("M_UNSUPPORTED_ROOM_VERSION");
    const res = await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/upgrade`, { new_version: "11" });
    expect(res.status).toBe(200);
    const next = String(res.body["replacement_room"]);
    const tomb = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/state/m.room.tombstone/`);
    expect(tomb.body["replacement_room"]).toBe(next);
    const create = await api(server, alice, "GET", `${V3}/rooms/${e(next)}/state/m.room.create/`);
    expect((create.body["predecessor"] as Obj)["room_id"]).toBe(roomId);
    expect(create.body["room_version"]).toBe("11");
    expect((await api(server, alice, "GET", `${V3}/rooms/${e(next)}/state/m.room.name/`)).body).toEqual({
      name: "Old",
    });
    const pl = await api(server, alice, "GET", `${V3}/rooms/${e(next)}/state/m.room.power_levels/`);
    expect((pl.body["users"] as Obj)[alice.userId]).toBe(100);
    expect(
      (await api(server, undefined, "GET", `${V3}/directory/room/${e("#upgrade-me:" + server.serverName)}`))
        .body["room_id"],
    ).toBe(next);
    // Bob can no longer talk in the old room.
    expect(
      (await api(server, bob, "PUT", `${V3}/rooms/${e(roomId)}/send/m.room.message/old`, { body: "x" }))
        .status,
    ).toBe(403);
    expect((await api(server, bob, "POST", `${V3}/join/${e(next)}`, {})).status).toBe(403);
  });
});

describe("spaces and summaries", () => {
  it("walks the hierarchy with max_depth, suggested_only, limit and from", async () => {
    const space = await createRoom(alice, {
      preset: "public_chat",
      name: "Space",
      creation_content: { type: "m.space" },
    });
    const sub = await createRoom(alice, {
      preset: "public_chat",
      name: "Sub",
      creation_content: { type: "m.space" },
    });
    const a = await createRoom(alice, { preset: "public_chat", name: "A" });
    const b = await createRoom(alice, { preset: "public_chat", name: "B" });
    const hidden = await createRoom(alice, { name: "Hidden" });
    const child = async (parent: string, c: string, suggested = false): Promise<void> => {
      const res = await api(server, alice, "PUT", `${V3}/rooms/${e(parent)}/state/m.space.child/${e(c)}`, {
        via: [server.serverName],
        suggested,
      });
      expect(res.status).toBe(200);
    };
    await child(space, sub, true);
    await child(space, a);
    await child(space, hidden);
    await child(sub, b);
    await api(server, alice, "PUT", `${V3}/rooms/${e(a)}/state/m.space.parent/${e(space)}`, {
      via: [server.serverName],
      canonical: true,
    });
    const all = await api(server, bob, "GET", `${V1}/rooms/${e(space)}/hierarchy`);
    const ids = (all.body["rooms"] as Obj[]).map((r) => r["room_id"]);
    expect(ids[0]).toBe(space);
    expect([...ids].sort()).toEqual([space, sub, a, b].sort());
    expect(((all.body["rooms"] as Obj[])[0]?.["children_state"] as Obj[]).length).toBe(3);
    const shallow = await api(server, bob, "GET", `${V1}/rooms/${e(space)}/hierarchy?max_depth=0`);
    expect((shallow.body["rooms"] as Obj[]).map((r) => r["room_id"])).toEqual([space]);
    const suggested = await api(server, bob, "GET", `${V1}/rooms/${e(space)}/hierarchy?suggested_only=true`);
    expect((suggested.body["rooms"] as Obj[]).map((r) => r["room_id"]).sort()).toEqual([space, sub].sort());
    const first = await api(server, bob, "GET", `${V1}/rooms/${e(space)}/hierarchy?limit=2`);
    const second = await api(
      server,
      bob,
      "GET",
      `/_matrix/client/unstable/org.matrix.msc2946/rooms/${e(space)}/hierarchy?limit=2&from=${String(first.body["next_batch"])}`,
    );
    const paged = [...(first.body["rooms"] as Obj[]), ...(second.body["rooms"] as Obj[])].map(
      (r) => r["room_id"],
    );
    expect(paged).toEqual(ids);
    expect((await api(server, bob, "GET", `${V1}/rooms/${e(hidden)}/hierarchy`)).status).toBe(403);
  });

  it("summarises a room by id or alias, on the stable and unstable paths", async () => {
    const roomId = await createRoom(alice, {
      preset: "public_chat",
      name: "Summary",
      room_alias_name: "summary",
      initial_state: [{ type: "m.room.encryption", content: { algorithm: "m.megolm.v1.aes-sha2" } }],
    });
    const byId = await api(server, bob, "GET", `${V1}/room_summary/${e(roomId)}`);
    expect(byId.body).toMatchObject({
      room_id: roomId,
      name: "Summary",
      join_rule: "public",
      num_joined_members: 1,
      membership: "leave",
      room_version: "10",
      encryption: "m.megolm.v1.aes-sha2",
    });
    const byAlias = await api(
      server,
      undefined,
      "GET",
      `/_matrix/client/unstable/im.nheko.summary/summary/${e("#summary:" + server.serverName)}`,
    );
    expect(byAlias.body["room_id"]).toBe(roomId);
    expect(byAlias.body["membership"]).toBeUndefined();
    const priv = await createRoom(alice, {});
    expect((await api(server, bob, "GET", `${V1}/room_summary/${e(priv)}`)).status).toBe(404);
    expect((await api(server, alice, "GET", `${V1}/room_summary/${e(priv)}`)).body["membership"]).toBe(
      "join",
    );
  });
});

describe("mutual rooms", () => {
  it("lists rooms both users are joined to, on the v1 and unstable paths", async () => {
    const shared = await createRoom(alice, { preset: "public_chat" });
    await api(server, bob, "POST", `${V3}/join/${e(shared)}`, {});
    const invitedOnly = await createRoom(alice, { invite: [bob.userId] });
    const res = await api(server, alice, "GET", `${V1}/mutual_rooms?user_id=${e(bob.userId)}`);
    expect(res.status).toBe(200);
    expect(res.body["joined"]).toContain(shared);
    expect(res.body["joined"]).not.toContain(invitedOnly);
    expect(res.body["count"]).toBe((res.body["joined"] as string[]).length);
    const unstable = await api(
      server,
      bob,
      "GET",
      `/_matrix/client/unstable/uk.half-shot.msc2666/user/mutual_rooms?user_id=${e(alice.userId)}`,
    );
    expect((unstable.body["joined"] as string[]).sort()).toEqual((res.body["joined"] as string[]).sort());
    expect(
      (await api(server, alice, "GET", `${V1}/mutual_rooms?user_id=${e(alice.userId)}`)).body["errcode"],
    ).toBe("M_INVALID_PARAM");
    expect(
      (await api(server, alice, "GET", `${V1}/mutual_rooms?user_id=${e(bob.userId)}&from=zz`)).body[
        "errcode"
      ],
    ).toBe("M_INVALID_PARAM");
    expect(
      (await api(server, alice, "GET", `${V1}/mutual_rooms?user_id=${e("@nobody:" + server.serverName)}`))
        .body,
    ).toEqual({ joined: [], count: 0 });
  });
});
