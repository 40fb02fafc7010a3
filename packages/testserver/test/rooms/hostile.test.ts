/**
 * Hostile and malformed input to the rooms and sync endpoints: wrong types,
 * missing fields, `__proto__` ids, oversized content and garbage tokens get
 * clear errors, never a crash or a hung request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: 23 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  roomId = String(
    (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
  );
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const e = encodeURIComponent;

describe("hostile input", () => {
  it("answers wrong types and missing fields with M_BAD_JSON / M_MISSING_PARAM / M_INVALID_PARAM", async () => {
    const r = e(roomId);
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", `${V3}/rooms/${r}/kick`, { user_id: 5 }, "M_BAD_JSON"],
      ["POST", `${V3}/rooms/${r}/ban`, {}, "M_MISSING_PARAM"],
      ["POST", `${V3}/rooms/${r}/invite`, { user_id: "@" }, "M_INVALID_PARAM"],
      ["POST", `${V3}/rooms/${r}/join`, [1], "M_BAD_JSON"],
      ["POST", `${V3}/rooms/${r}/join`, { third_party_signed: "x" }, "M_BAD_JSON"],
      ["PUT", `${V3}/rooms/${r}/redact/$x/t1`, { reason: 7 }, "M_BAD_JSON"],
      ["PUT", `${V3}/rooms/${r}/send/m.room.message/t2`, "null", "M_BAD_JSON"],
      [
        "PUT",
        `${V3}/rooms/${r}/state/m.room.power_levels/`,
        { users: { [alice.userId]: "high" } },
        "M_BAD_JSON",
      ],
      ["PUT", `${V3}/rooms/${r}/state/m.room.power_levels/`, { users: [] }, "M_BAD_JSON"],
      ["POST", `${V3}/search`, {}, "M_BAD_JSON"],
      [
        "POST",
        `${V3}/search`,
        { search_categories: { room_events: { search_term: "x", keys: ["content.evil"] } } },
        "M_BAD_JSON",
      ],
      ["POST", `${V3}/rooms/${r}/upgrade`, { new_version: 11 }, "M_BAD_JSON"],
      ["POST", `${V3}/createRoom`, { visibility: "everyone" }, "M_BAD_JSON"],
      ["POST", `${V3}/createRoom`, { preset: "nope" }, "M_BAD_JSON"],
      ["POST", `${V3}/createRoom`, { room_alias_name: "bad alias" }, "M_INVALID_PARAM"],
      [
        "POST",
        `${V3}/createRoom`,
        { room_version: "12", creation_content: { additional_creators: "me" } },
        "M_BAD_JSON",
      ],
      ["POST", `${V3}/rooms/${r}/report/$nope`, { score: "bad" }, "M_NOT_FOUND"],
    ];
    for (const [method, path, body, errcode] of cases) {
      const res = await api(server, alice, method, path, body);
      expect(res.body["errcode"], `${method} ${path} ${JSON.stringify(body)}`).toBe(errcode);
    }
  });

  it("answers garbage query parameters with M_INVALID_PARAM", async () => {
    const r = e(roomId);
    const invalid = [400, "M_INVALID_PARAM"] as const;
    for (const [path, [status, errcode]] of [
      [`${V3}/rooms/${r}/messages?limit=abc`, invalid],
      [`${V3}/rooms/${r}/messages?to=zz`, invalid],
      [`${V3}/rooms/${r}/members?at=zz`, invalid],
      // A well-formed query for an event the room does not have.
      [`/_matrix/client/v1/rooms/${r}/relations/$x?limit=1`, [404, "M_NOT_FOUND"]],
      [`/_matrix/client/v1/rooms/${r}/hierarchy?from=zz`, invalid],
      [`/_matrix/client/v1/rooms/${r}/threads?from=zz`, invalid],
      [
        `${V3}/sync?filter=${e(JSON.stringify({ room: { timeline: { types: "m.room.message" } } }))}`,
        invalid,
      ],
      [`${V3}/sync?filter=${e(JSON.stringify({ room: 5 }))}`, invalid],
      [`${V3}/sync?full_state=maybe`, invalid],
    ] as const) {
      const res = await api(server, alice, "GET", path);
      expect(res.status, path).toBe(status);
      expect(res.body["errcode"], path).toBe(errcode);
    }
  });

  it("treats __proto__ and friends as plain ids", async () => {
    for (const id of ["__proto__", "constructor", "!__proto__:localhost", "#__proto__:localhost"]) {
      expect(
        (await api(server, alice, "GET", `${V3}/rooms/${e(id)}/messages`)).status,
      ).toBeGreaterThanOrEqual(400);
      expect((await api(server, alice, "POST", `${V3}/join/${e(id)}`, {})).status).toBeGreaterThanOrEqual(
        400,
      );
      expect(
        (await api(server, alice, "GET", `${V3}/directory/room/${e(id)}`)).status,
      ).toBeGreaterThanOrEqual(400);
    }
    const r = e(roomId);
    const put = await api(
      server,
      alice,
      "PUT",
      `${V3}/rooms/${r}/send/__proto__/__proto__`,
      `{"__proto__": {"polluted": true}, "constructor": 1}`,
    );
    expect(put.status).toBe(200);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const ev = await api(server, alice, "GET", `${V3}/rooms/${r}/event/${e(String(put.body["event_id"]))}`);
    expect(Object.keys(ev.body["content"] as object).sort()).toEqual(["__proto__", "constructor"]);
    const sync = await api(
      server,
      alice,
      "GET",
      `${V3}/sync?filter=${e(JSON.stringify({ room: { rooms: ["__proto__", roomId] } }))}`,
    );
    expect(
      Object.keys((sync.body["rooms"] as Record<string, Record<string, unknown>>)["join"] ?? {}),
    ).toEqual([roomId]);
    const joined = await api(server, alice, "GET", `${V3}/rooms/${r}/joined_members`);
    expect(Object.keys(joined.body["joined"] as object)).toEqual([alice.userId]);
  });

  it("refuses oversized content and survives huge strings", async () => {
    const big = "x".repeat(70_000);
    expect(
      (await api(server, alice, "PUT", `${V3}/rooms/${e(roomId)}/state/m.room.topic/`, { topic: big })).body[
        "errcode"
      ],
    ).toBe("M_TOO_LARGE");
    const search = await api(server, alice, "POST", `${V3}/search`, {
      search_categories: { room_events: { search_term: big.slice(0, 20_000) } },
    });
    expect(search.status).toBe(200);
    const created = await api(server, alice, "POST", `${V3}/createRoom`, { name: big });
    expect(created.body["errcode"]).toBe("M_TOO_LARGE");
    // Nothing half-made is left behind.
    const rooms = (await api(server, alice, "GET", `${V3}/joined_rooms`)).body["joined_rooms"] as string[];
    expect(rooms.length).toBe(1);
  });
});
