/**
 * /sync over HTTP: initial and incremental syncs, tokens, filters, limited
 * timelines with usable prev_batch, invites, leaves, the summary, the
 * state-after flag and lazy-loaded members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ seed: 5 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

async function sync(user: TestUser, params: Record<string, string> = {}): Promise<Obj> {
  const qs = new URLSearchParams(params).toString();
  const res = await api(server, user, "GET", `${V3}/sync${qs ? "?" + qs : ""}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function section(body: Obj, kind: string, roomId: string): Obj | undefined {
  return ((body["rooms"] as Obj)[kind] as Obj)[roomId] as Obj | undefined;
}

function timeline(body: Obj, roomId: string, kind = "join"): Obj[] {
  const s = section(body, kind, roomId);
  return s ? ((s["timeline"] as Obj)["events"] as Obj[]) : [];
}

async function send(
  user: TestUser,
  roomId: string,
  text: string,
  txn = Math.random().toString(36).slice(2),
): Promise<string> {
  const res = await api(
    server,
    user,
    "PUT",
    `${V3}/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${txn}`,
    {
      msgtype: "m.text",
      body: text,
    },
  );
  expect(res.status).toBe(200);
  return String(res.body["event_id"]);
}

async function newRoom(user: TestUser, body: Obj = {}): Promise<string> {
  const res = await api(server, user, "POST", `${V3}/createRoom`, body);
  return String(res.body["room_id"]);
}

describe("sync", () => {
  it("gives an initial sync with state and timeline, then only what is new", async () => {
    const roomId = await newRoom(alice, { name: "Sync room" });
    const first = await sync(alice);
    const joined = section(first, "join", roomId) as Obj;
    const state = [...((joined["state"] as Obj)["events"] as Obj[]), ...timeline(first, roomId)];
    expect(state.some((e) => e["type"] === "m.room.create")).toBe(true);
    expect(typeof first["next_batch"]).toBe("string");
    expect(joined["unread_notifications"]).toEqual({ notification_count: 0, highlight_count: 0 });
    const id = await send(alice, roomId, "hello");
    const second = await sync(alice, { since: String(first["next_batch"]) });
    expect(timeline(second, roomId).map((e) => e["event_id"])).toEqual([id]);
    expect(timeline(second, roomId)[0]?.["room_id"]).toBeUndefined();
    const third = await sync(alice, { since: String(second["next_batch"]), timeout: "0" });
    expect(section(third, "join", roomId)).toBeUndefined();
  });

  it("rejects garbage since tokens and filters", async () => {
    for (const since of ["garbage", "s-1", "s99999999_0", "__proto__"]) {
      const res = await api(server, alice, "GET", `${V3}/sync?since=${since}`);
      expect(res.body["errcode"]).toBe("M_INVALID_PARAM");
    }
    expect((await api(server, alice, "GET", `${V3}/sync?filter={nope`)).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await api(server, alice, "GET", `${V3}/sync?filter=12345`)).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await api(server, alice, "GET", `${V3}/sync?timeout=abc`)).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await api(server, alice, "GET", `${V3}/sync?set_presence=weird`)).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    const inline = encodeURIComponent(JSON.stringify({ room: { timeline: { limit: "x" } } }));
    expect((await api(server, alice, "GET", `${V3}/sync?filter=${inline}`)).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
  });

  it("limits the timeline and hands a prev_batch that /messages continues from", async () => {
    const roomId = await newRoom(alice);
    const base = await sync(alice);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await send(alice, roomId, `m${i}`));
    const filter = JSON.stringify({ room: { timeline: { limit: 3 } } });
    const res = await sync(alice, { since: String(base["next_batch"]), filter });
    const t = section(res, "join", roomId)?.["timeline"] as Obj;
    expect((t["events"] as Obj[]).map((e) => e["event_id"])).toEqual(ids.slice(5));
    expect(t["limited"]).toBe(true);
    const older = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=5&from=${String(t["prev_batch"])}`,
    );
    expect((older.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual(ids.slice(0, 5).reverse());
  });

  it("applies types, not_types and rooms filters", async () => {
    const a = await newRoom(alice);
    const b = await newRoom(alice);
    const base = await sync(alice);
    await send(alice, a, "in a");
    await send(alice, b, "in b");
    await api(server, alice, "PUT", `${V3}/rooms/${encodeURIComponent(a)}/state/m.room.topic/`, {
      topic: "x",
    });
    const filter = JSON.stringify({ room: { rooms: [a], timeline: { not_types: ["m.room.topic"] } } });
    const res = await sync(alice, { since: String(base["next_batch"]), filter });
    expect(section(res, "join", b)).toBeUndefined();
    expect(timeline(res, a).map((e) => e["type"])).toEqual(["m.room.message"]);
    const onlyTopic = JSON.stringify({ room: { timeline: { types: ["m.room.t*"] } } });
    const res2 = await sync(alice, { since: String(base["next_batch"]), filter: onlyTopic });
    expect(timeline(res2, a).map((e) => e["type"])).toEqual(["m.room.topic"]);
  });

  it("shows invites with stripped state, then the join, then the leave", async () => {
    const roomId = await newRoom(alice, { name: "Invite me" });
    const base = await sync(bob);
    await api(server, alice, "POST", `${V3}/rooms/${encodeURIComponent(roomId)}/invite`, {
      user_id: bob.userId,
    });
    const invited = await sync(bob, { since: String(base["next_batch"]) });
    const inv = section(invited, "invite", roomId) as Obj;
    const stripped = (inv["invite_state"] as Obj)["events"] as Obj[];
    expect(stripped.find((e) => e["type"] === "m.room.name")?.["content"]).toEqual({ name: "Invite me" });
    expect(stripped.find((e) => e["type"] === "m.room.member")?.["state_key"]).toBe(bob.userId);
    await api(server, bob, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {});
    const joined = await sync(bob, { since: String(invited["next_batch"]) });
    const j = section(joined, "join", roomId) as Obj;
    expect(j).toBeDefined();
    expect((j["summary"] as Obj)["m.joined_member_count"]).toBe(2);
    await api(server, alice, "POST", `${V3}/rooms/${encodeURIComponent(roomId)}/kick`, {
      user_id: bob.userId,
    });
    const left = await sync(bob, { since: String(joined["next_batch"]) });
    const l = timeline(left, roomId, "leave");
    expect(l[l.length - 1]?.["content"]).toMatchObject({ membership: "leave" });
    // An initial sync shows left rooms only with include_leave.
    expect(section(await sync(bob), "leave", roomId)).toBeUndefined();
    const withLeave = await sync(bob, { filter: JSON.stringify({ room: { include_leave: true } }) });
    expect(section(withLeave, "leave", roomId)).toBeDefined();
  });

  it("answers state_after under the MSC4222 flag and heroes in the summary", async () => {
    const roomId = await newRoom(alice, { invite: [bob.userId] });
    const base = await sync(alice);
    await api(server, alice, "PUT", `${V3}/rooms/${encodeURIComponent(roomId)}/state/m.room.topic/`, {
      topic: "after",
    });
    const res = await sync(alice, {
      since: String(base["next_batch"]),
      "org.matrix.msc4222.use_state_after": "true",
    });
    const j = section(res, "join", roomId) as Obj;
    expect(j["state"]).toBeUndefined();
    const after = (j["org.matrix.msc4222.state_after"] as Obj)["events"] as Obj[];
    expect(after.map((e) => e["type"])).toContain("m.room.topic");
    const initial = await sync(alice, { use_state_after: "true" });
    const summary = (section(initial, "join", roomId) as Obj)["summary"] as Obj;
    expect(summary["m.heroes"]).toEqual([bob.userId]);
    expect(summary["m.invited_member_count"]).toBe(1);
    const versions = await api(server, undefined, "GET", "/_matrix/client/versions");
    expect((versions.body["unstable_features"] as Obj)["org.matrix.msc4222"]).toBe(true);
  });

  it("lazy-loads members of timeline senders once per device", async () => {
    const roomId = await newRoom(alice, { preset: "public_chat" });
    await api(server, bob, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {});
    const carol = await registerUser(server, "carol-lazy");
    await api(server, carol, "POST", `${V3}/join/${encodeURIComponent(roomId)}`, {});
    await send(bob, roomId, "from bob");
    const filter = JSON.stringify({ room: { state: { lazy_load_members: true }, timeline: { limit: 1 } } });
    const first = await sync(alice, { filter });
    const members = ((section(first, "join", roomId) as Obj)["state"] as Obj)["events"] as Obj[];
    const memberKeys = members.filter((e) => e["type"] === "m.room.member").map((e) => e["state_key"]);
    expect(memberKeys.sort()).toEqual([alice.userId, bob.userId].sort());
    await send(bob, roomId, "again");
    const next = await sync(alice, { filter, since: String(first["next_batch"]) });
    const again = ((section(next, "join", roomId) as Obj)["state"] as Obj)["events"] as Obj[];
    expect(again.filter((e) => e["type"] === "m.room.member")).toEqual([]);
    // With include_redundant_members the member comes every time.
    const redundant = JSON.stringify({
      room: { state: { lazy_load_members: true, include_redundant_members: true }, timeline: { limit: 1 } },
    });
    const r1 = await sync(alice, { filter: redundant });
    await send(bob, roomId, "third");
    const r2 = await sync(alice, { filter: redundant, since: String(r1["next_batch"]) });
    const resent = ((section(r2, "join", roomId) as Obj)["state"] as Obj)["events"] as Obj[];
    expect(resent.filter((e) => e["type"] === "m.room.member").map((e) => e["state_key"])).toEqual([
      bob.userId,
    ]);
  });
});
