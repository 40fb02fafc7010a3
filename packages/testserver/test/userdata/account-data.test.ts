/**
 * Account data, tags and filters over HTTP, and how their changes reach
 * sync.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createRoom, dig, enc, specProblems, startHarness, sync, V3 } from "./harness";
import type { Harness } from "./harness";

let h: Harness;
const MSC3391 = "/_matrix/client/unstable/org.matrix.msc3391";

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.stop();
  expect(specProblems(h)).toEqual([]);
});

const userPath = (userId: string): string => `${V3}/user/${enc(userId)}`;

describe("global account data", () => {
  it("stores, reads back and overwrites content", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/org.example.settings`;
    expect((await api(h.server, h.alice, "PUT", path, { theme: "dark" })).status).toBe(200);
    expect(await api(h.server, h.alice, "GET", path)).toEqual({ status: 200, body: { theme: "dark" } });
    await api(h.server, h.alice, "PUT", path, { theme: "light" });
    expect((await api(h.server, h.alice, "GET", path)).body).toEqual({ theme: "light" });
  });

  it("returns content whose keys look like a response envelope unchanged", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/org.example.envelope`;
    const content = { status: 500, body: "x", raw: { contentType: "text/plain" }, headers: {} };
    expect((await api(h.server, h.alice, "PUT", path, content)).status).toBe(200);
    expect(await api(h.server, h.alice, "GET", path)).toEqual({ status: 200, body: content });
  });

  it("answers 404 M_NOT_FOUND for a type never set", async () => {
    const res = await api(
      h.server,
      h.alice,
      "GET",
      `${userPath(h.alice.userId)}/account_data/org.example.none`,
    );
    expect(res).toMatchObject({ status: 404, body: { errcode: "M_NOT_FOUND" } });
  });

  it("refuses another user's account data with 403 M_FORBIDDEN", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/org.example.settings`;
    expect(await api(h.server, h.bob, "GET", path)).toMatchObject({
      status: 403,
      body: { errcode: "M_FORBIDDEN" },
    });
    expect(await api(h.server, h.bob, "PUT", path, { x: 1 })).toMatchObject({
      status: 403,
      body: { errcode: "M_FORBIDDEN" },
    });
  });

  it("refuses m.push_rules and m.fully_read with M_BAD_JSON", async () => {
    for (const type of ["m.push_rules", "m.fully_read"]) {
      const res = await api(h.server, h.alice, "PUT", `${userPath(h.alice.userId)}/account_data/${type}`, {});
      expect(res.status).toBe(405);
      expect(res.body["errcode"]).toBe("M_BAD_JSON");
    }
  });

  it("rejects bodies that are not JSON objects", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/org.example.bad`;
    expect((await api(h.server, h.alice, "PUT", path, "[1,2]")).body["errcode"]).toBe("M_BAD_JSON");
    expect((await api(h.server, h.alice, "PUT", path, '"text"')).body["errcode"]).toBe("M_BAD_JSON");
    expect((await api(h.server, h.alice, "PUT", path, "{not json")).body["errcode"]).toBe("M_NOT_JSON");
  });

  it("treats __proto__ as an ordinary type", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/__proto__`;
    expect((await api(h.server, h.alice, "PUT", path, { polluted: true })).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", path)).body).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("deletes through MSC3391: GET answers 404 and sync shows empty content", async () => {
    const path = `${userPath(h.alice.userId)}/account_data/org.example.gone`;
    await api(h.server, h.alice, "PUT", path, { v: 1 });
    const first = await sync(h, h.alice);
    const del = await api(
      h.server,
      h.alice,
      "DELETE",
      `${MSC3391}/user/${enc(h.alice.userId)}/account_data/org.example.gone`,
    );
    expect(del.status).toBe(200);
    expect((await api(h.server, h.alice, "GET", path)).status).toBe(404);
    const next = await sync(h, h.alice, String(first["next_batch"]));
    const events = dig(next, "account_data", "events") as Array<Record<string, unknown>>;
    expect(events).toContainEqual({ type: "org.example.gone", content: {} });
  });

  it("reports only changes after the since token, m.push_rules on the initial sync", async () => {
    const initial = await sync(h, h.bob);
    const types = (dig(initial, "account_data", "events") as Array<{ type: string }>).map((e) => e.type);
    expect(types).toContain("m.push_rules");
    await api(h.server, h.bob, "PUT", `${userPath(h.bob.userId)}/account_data/org.example.a`, { n: 1 });
    const next = await sync(h, h.bob, String(initial["next_batch"]));
    expect(dig(next, "account_data", "events")).toEqual([{ type: "org.example.a", content: { n: 1 } }]);
    const idle = await sync(h, h.bob, String(next["next_batch"]));
    expect(dig(idle, "account_data", "events") ?? []).toEqual([]);
  });
});

describe("room account data and tags", () => {
  it("stores room account data per room and shows it in the room's sync section", async () => {
    const roomId = await createRoom(h, h.alice);
    const path = `${userPath(h.alice.userId)}/rooms/${enc(roomId)}/account_data/org.example.room`;
    expect((await api(h.server, h.alice, "PUT", path, { pinned: true })).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", path)).body).toEqual({ pinned: true });
    const other = `${userPath(h.alice.userId)}/rooms/${enc("!other:localhost")}/account_data/org.example.room`;
    expect((await api(h.server, h.alice, "GET", other)).status).toBe(404);
    const s = await sync(h, h.alice);
    expect(dig(s, "rooms", "join", roomId, "account_data", "events")).toContainEqual({
      type: "org.example.room",
      content: { pinned: true },
    });
  });

  it("rejects a room id that is not one with M_INVALID_PARAM", async () => {
    const res = await api(
      h.server,
      h.alice,
      "GET",
      `${userPath(h.alice.userId)}/rooms/nope/account_data/x.y`,
    );
    expect(res).toMatchObject({ status: 400, body: { errcode: "M_INVALID_PARAM" } });
  });

  it("refuses m.fully_read as room account data", async () => {
    const roomId = await createRoom(h, h.alice);
    const path = `${userPath(h.alice.userId)}/rooms/${enc(roomId)}/account_data/m.fully_read`;
    const res = await api(h.server, h.alice, "PUT", path, { event_id: "$x" });
    expect(res.body["errcode"]).toBe("M_BAD_JSON");
  });

  it("adds, lists and removes tags, stored as m.tag", async () => {
    const roomId = await createRoom(h, h.alice);
    const tags = `${userPath(h.alice.userId)}/rooms/${enc(roomId)}/tags`;
    expect((await api(h.server, h.alice, "PUT", `${tags}/m.favourite`, { order: 0.25 })).status).toBe(200);
    expect((await api(h.server, h.alice, "PUT", `${tags}/u.work`, {})).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", tags)).body).toEqual({
      tags: { "m.favourite": { order: 0.25 }, "u.work": {} },
    });
    expect((await api(h.server, h.alice, "DELETE", `${tags}/u.work`)).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", tags)).body).toEqual({
      tags: { "m.favourite": { order: 0.25 } },
    });
    const mtag = await api(
      h.server,
      h.alice,
      "GET",
      `${userPath(h.alice.userId)}/rooms/${enc(roomId)}/account_data/m.tag`,
    );
    expect(mtag.body).toEqual({ tags: { "m.favourite": { order: 0.25 } } });
    expect((await api(h.server, h.bob, "GET", tags)).status).toBe(403);
  });

  it("rejects a non-numeric order and keeps a __proto__ tag as data", async () => {
    const roomId = await createRoom(h, h.alice);
    const tags = `${userPath(h.alice.userId)}/rooms/${enc(roomId)}/tags`;
    expect((await api(h.server, h.alice, "PUT", `${tags}/u.x`, { order: "first" })).status).toBe(400);
    expect((await api(h.server, h.alice, "PUT", `${tags}/__proto__`, { order: 1 })).status).toBe(200);
    const res = await api(h.server, h.alice, "GET", tags);
    expect(Object.keys(dig(res.body, "tags") as object)).toEqual(["__proto__"]);
  });
});

describe("filters", () => {
  it("stores a filter, returns its id and reads it back", async () => {
    const filter = {
      room: { timeline: { limit: 5, types: ["m.room.message"] } },
      presence: { not_types: ["*"] },
    };
    const created = await api(h.server, h.alice, "POST", `${userPath(h.alice.userId)}/filter`, filter);
    expect(created.status).toBe(200);
    const id = created.body["filter_id"];
    expect(typeof id).toBe("string");
    const read = await api(h.server, h.alice, "GET", `${userPath(h.alice.userId)}/filter/${enc(String(id))}`);
    expect(read).toEqual({ status: 200, body: filter });
    expect(h.server.ctx.userData.filter(h.alice.userId, String(id))).toEqual(filter);
  });

  it("answers 404 M_NOT_FOUND for unknown ids and 403 for other users", async () => {
    for (const id of ["999", "abc", "__proto__", "-1"]) {
      const res = await api(h.server, h.alice, "GET", `${userPath(h.alice.userId)}/filter/${id}`);
      expect(res).toMatchObject({ status: 404, body: { errcode: "M_NOT_FOUND" } });
    }
    const created = await api(h.server, h.alice, "POST", `${userPath(h.alice.userId)}/filter`, {});
    const id = String(created.body["filter_id"]);
    expect((await api(h.server, h.bob, "GET", `${userPath(h.alice.userId)}/filter/${id}`)).status).toBe(403);
    expect((await api(h.server, h.bob, "POST", `${userPath(h.alice.userId)}/filter`, {})).status).toBe(403);
  });

  it("rejects filters that are not objects or have wrong types", async () => {
    const post = (body: unknown): Promise<{ status: number; body: Record<string, unknown> }> =>
      api(h.server, h.alice, "POST", `${userPath(h.alice.userId)}/filter`, body);
    expect((await post("[]")).status).toBe(400);
    expect((await post({ room: { timeline: { limit: "ten" } } })).body["errcode"]).toBe("M_BAD_JSON");
    expect((await post({ room: { rooms: "!a:b" } })).body["errcode"]).toBe("M_BAD_JSON");
    expect((await post({ event_fields: [1] })).body["errcode"]).toBe("M_BAD_JSON");
  });

  it("is used by sync when passed by id", async () => {
    const roomId = await createRoom(h, h.carol);
    const created = await api(h.server, h.carol, "POST", `${userPath(h.carol.userId)}/filter`, {
      room: { rooms: [] },
    });
    const q = new URLSearchParams({ timeout: "0", filter: String(created.body["filter_id"]) });
    const s = await api(h.server, h.carol, "GET", `${V3}/sync?${q.toString()}`);
    expect(s.status).toBe(200);
    expect(dig(s.body, "rooms", "join", roomId)).toBeUndefined();
  });
});
