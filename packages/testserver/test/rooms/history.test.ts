/**
 * History visibility (world_readable, shared, invited, joined) as applied to
 * /messages, /context, /event, /relations, /sync and the room initialSync;
 * guest access; /messages filters, /members at and membership filters, and
 * 3PID invites.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { api, installSpecValidator, registerGuest, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;

let server: TestServerHandle;
let alice: TestUser;
let n = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: 19 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const e = encodeURIComponent;

async function say(user: TestUser, roomId: string, body: string, extra: Obj = {}): Promise<string> {
  const res = await api(server, user, "PUT", `${V3}/rooms/${e(roomId)}/send/m.room.message/h${++n}`, {
    msgtype: "m.text",
    body,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body["event_id"]);
}

async function messageBodies(user: TestUser, roomId: string): Promise<string[]> {
  const res = await api(server, user, "GET", `${V3}/rooms/${e(roomId)}/messages?dir=b&limit=100`);
  expect(res.status).toBe(200);
  return (res.body["chunk"] as Obj[])
    .filter((x) => x["type"] === "m.room.message")
    .map((x) => String((x["content"] as Obj)["body"]))
    .reverse();
}

async function roomWith(visibility: string): Promise<string> {
  return String(
    (
      await api(server, alice, "POST", `${V3}/createRoom`, {
        preset: "public_chat",
        initial_state: [{ type: "m.room.history_visibility", content: { history_visibility: visibility } }],
      })
    ).body["room_id"],
  );
}

describe("history visibility", () => {
  it("shared shows everything to members; joined only from the join; invited from the invite", async () => {
    const cases: Array<[string, string[]]> = [
      ["shared", ["before", "invited", "after"]],
      ["invited", ["invited", "after"]],
      ["joined", ["after"]],
    ];
    for (const [visibility, expected] of cases) {
      const roomId = await roomWith(visibility);
      const bob = await registerUser(server, `bob-${visibility}`);
      const early = await say(alice, roomId, "before");
      await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/invite`, { user_id: bob.userId });
      await say(alice, roomId, "invited");
      await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {});
      await say(alice, roomId, "after");
      expect(await messageBodies(bob, roomId)).toEqual(expected);
      const ev = await api(server, bob, "GET", `${V3}/rooms/${e(roomId)}/event/${e(early)}`);
      expect(ev.status).toBe(visibility === "shared" ? 200 : 404);
      const ctx = await api(server, bob, "GET", `${V3}/rooms/${e(roomId)}/context/${e(early)}`);
      expect(ctx.status).toBe(visibility === "shared" ? 200 : 404);
      const sync = await api(
        server,
        bob,
        "GET",
        `${V3}/sync?filter=${e(JSON.stringify({ room: { timeline: { limit: 50 } } }))}`,
      );
      const timeline = ((((sync.body["rooms"] as Obj)["join"] as Obj)[roomId] as Obj)["timeline"] as Obj)[
        "events"
      ] as Obj[];
      const bodies = timeline
        .filter((x) => x["type"] === "m.room.message")
        .map((x) => (x["content"] as Obj)["body"]);
      expect(bodies).toEqual(expected);
      const initial = await api(server, bob, "GET", `${V3}/rooms/${e(roomId)}/initialSync?limit=50`);
      const chunk = ((initial.body["messages"] as Obj)["chunk"] as Obj[]).filter(
        (x) => x["type"] === "m.room.message",
      );
      expect(chunk.map((x) => (x["content"] as Obj)["body"])).toEqual(expected);
      expect(initial.body["membership"]).toBe("join");
    }
  });

  it("lets a former member read shared history only up to their leave", async () => {
    const roomId = await roomWith("shared");
    const bob = await registerUser(server, "bob-left");
    await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {});
    await say(alice, roomId, "while here");
    await api(server, bob, "POST", `${V3}/rooms/${e(roomId)}/leave`, {});
    await say(alice, roomId, "after leaving");
    expect(await messageBodies(bob, roomId)).toEqual(["while here"]);
    const stranger = await registerUser(server, "stranger");
    expect((await api(server, stranger, "GET", `${V3}/rooms/${e(roomId)}/messages`)).status).toBe(403);
  });

  it("world_readable rooms are readable, relations included, by anyone", async () => {
    const roomId = await roomWith("world_readable");
    const root = await say(alice, roomId, "root");
    await say(alice, roomId, "child", { "m.relates_to": { rel_type: "m.thread", event_id: root } });
    const stranger = await registerUser(server, "reader");
    expect(await messageBodies(stranger, roomId)).toEqual(["root", "child"]);
    const rel = await api(
      server,
      stranger,
      "GET",
      `/_matrix/client/v1/rooms/${e(roomId)}/relations/${e(root)}`,
    );
    expect((rel.body["chunk"] as Obj[]).length).toBe(1);
    const hidden = await roomWith("joined");
    const secret = await say(alice, hidden, "secret");
    expect(
      (await api(server, stranger, "GET", `/_matrix/client/v1/rooms/${e(hidden)}/relations/${e(secret)}`))
        .status,
    ).toBe(404);
  });
});

describe("guests", () => {
  it("join only rooms with guest access can_join, and cannot send state", async () => {
    const guest = await registerGuest(server);
    const closed = await roomWith("shared");
    expect((await api(server, guest, "POST", `${V3}/join/${e(closed)}`, {})).status).toBe(403);
    const open = String(
      (
        await api(server, alice, "POST", `${V3}/createRoom`, {
          preset: "public_chat",
          initial_state: [{ type: "m.room.guest_access", content: { guest_access: "can_join" } }],
        })
      ).body["room_id"],
    );
    expect((await api(server, guest, "POST", `${V3}/join/${e(open)}`, {})).status).toBe(200);
    expect(
      (
        await api(server, guest, "PUT", `${V3}/rooms/${e(open)}/send/m.room.message/g1`, {
          msgtype: "m.text",
          body: "hi",
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(server, guest, "PUT", `${V3}/rooms/${e(open)}/state/m.room.topic/`, { topic: "x" })).body[
        "errcode"
      ],
    ).toBe("M_GUEST_ACCESS_FORBIDDEN");
    const sync = await api(server, guest, "GET", `${V3}/sync`);
    expect(Object.keys((sync.body["rooms"] as Obj)["join"] as Obj)).toEqual([open]);
  });
});

describe("reading rooms", () => {
  it("filters /messages by senders, types, contains_url and lazy-loads members", async () => {
    const roomId = await roomWith("shared");
    const bob = await registerUser(server, "bob-filter");
    await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {});
    await say(alice, roomId, "from alice");
    await say(bob, roomId, "from bob");
    await api(server, bob, "PUT", `${V3}/rooms/${e(roomId)}/send/m.room.message/img`, {
      msgtype: "m.image",
      body: "pic",
      url: "mxc://x/y",
    });
    const q = (f: Obj): string =>
      `${V3}/rooms/${e(roomId)}/messages?dir=f&limit=50&filter=${e(JSON.stringify(f))}`;
    const bySender = await api(server, alice, "GET", q({ senders: [bob.userId], types: ["m.room.message"] }));
    expect((bySender.body["chunk"] as Obj[]).map((x) => (x["content"] as Obj)["body"])).toEqual([
      "from bob",
      "pic",
    ]);
    const urls = await api(server, alice, "GET", q({ contains_url: true }));
    expect((urls.body["chunk"] as Obj[]).map((x) => (x["content"] as Obj)["body"])).toEqual(["pic"]);
    const lazy = await api(server, alice, "GET", q({ types: ["m.room.message"], lazy_load_members: true }));
    expect((lazy.body["state"] as Obj[]).map((x) => x["state_key"]).sort()).toEqual(
      [alice.userId, bob.userId].sort(),
    );
    // Paging forward to the end and back with from/to.
    const first = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/messages?dir=f&limit=2`);
    const rest = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${e(roomId)}/messages?dir=f&limit=100&from=${String(first.body["end"])}`,
    );
    const all = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/messages?dir=f&limit=100`);
    expect(
      [...(first.body["chunk"] as Obj[]), ...(rest.body["chunk"] as Obj[])].map((x) => x["event_id"]),
    ).toEqual((all.body["chunk"] as Obj[]).map((x) => x["event_id"]));
    expect((await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/messages?dir=x`)).status).toBe(400);
    expect(
      (await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/messages?from=bogus`)).body["errcode"],
    ).toBe("M_INVALID_PARAM");
  });

  it("answers /context with events around and /members at a point in time", async () => {
    const roomId = await roomWith("shared");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await say(alice, roomId, `c${i}`));
    const ctx = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${e(roomId)}/context/${e(ids[2] as string)}?limit=2`,
    );
    expect((ctx.body["events_before"] as Obj[]).map((x) => x["event_id"])).toEqual([ids[1]]);
    expect((ctx.body["events_after"] as Obj[]).map((x) => x["event_id"])).toEqual([ids[3]]);
    const bob = await registerUser(server, "bob-members");
    const before = await api(server, alice, "GET", `${V3}/sync`);
    await api(server, bob, "POST", `${V3}/join/${e(roomId)}`, {});
    const then = await api(
      server,
      alice,
      "GET",
      `${V3}/rooms/${e(roomId)}/members?at=${String(before.body["next_batch"])}`,
    );
    expect((then.body["chunk"] as Obj[]).map((x) => x["state_key"])).toEqual([alice.userId]);
    const now = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/members?not_membership=leave`);
    expect((now.body["chunk"] as Obj[]).length).toBe(2);
  });

  it("handles 3PID invites: stored as m.room.third_party_invite, or refused by the identity server", async () => {
    const roomId = await roomWith("shared");
    const ok = await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/invite`, {
      id_server: "id.example",
      id_access_token: "t",
      medium: "email",
      address: "carol@example.org",
    });
    expect(ok.status).toBe(200);
    const state = await api(server, alice, "GET", `${V3}/rooms/${e(roomId)}/state`);
    expect((state.body["list"] as Obj[]).some((x) => x["type"] === "m.room.third_party_invite")).toBe(true);
    const refused = await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/invite`, {
      id_server: "forbidden.example",
      id_access_token: "t",
      medium: "email",
      address: "x@example.org",
    });
    expect(refused.body["errcode"]).toBe("M_FORBIDDEN");
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/invite`, { medium: "email" })).body[
        "errcode"
      ],
    ).toBe("M_MISSING_PARAM");
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${e(roomId)}/invite`, { user_id: "nope" })).body[
        "errcode"
      ],
    ).toBe("M_INVALID_PARAM");
  });
});
