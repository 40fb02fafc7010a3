/**
 * Two users over HTTP: create, join, chat, thread, react, edit, redact and
 * moderate, with each user's sync seeing the right events in order; then
 * relations, threads, edits, redaction per room version, search,
 * timestamp_to_event and reports.
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
let txn = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: 7 });
  installSpecValidator(server);
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(async () => {
  await server.stop();
  expect(server.validationErrors).toEqual([]);
});

const r = (roomId: string): string => encodeURIComponent(roomId);

async function send(user: TestUser, roomId: string, type: string, content: Obj): Promise<string> {
  const res = await api(server, user, "PUT", `${V3}/rooms/${r(roomId)}/send/${type}/t${++txn}`, content);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body["event_id"]);
}

async function sync(user: TestUser, since?: string, extra = ""): Promise<Obj> {
  const res = await api(server, user, "GET", `${V3}/sync?timeout=0${since ? `&since=${since}` : ""}${extra}`);
  expect(res.status).toBe(200);
  return res.body;
}

function joinedTimeline(body: Obj, roomId: string): Obj[] {
  const room = ((body["rooms"] as Obj)["join"] as Obj)[roomId] as Obj | undefined;
  return room ? ((room["timeline"] as Obj)["events"] as Obj[]) : [];
}

async function getEvent(user: TestUser, roomId: string, id: string): Promise<Obj> {
  return (await api(server, user, "GET", `${V3}/rooms/${r(roomId)}/event/${encodeURIComponent(id)}`)).body;
}

describe("a conversation between two users", () => {
  it("lets both syncs see chat, thread, reaction, edit, redaction and moderation in order", async () => {
    const a0 = await sync(alice);
    const b0 = await sync(bob);
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { invite: [bob.userId] })).body["room_id"],
    );
    await api(server, bob, "POST", `${V3}/join/${r(roomId)}`, {});
    const hello = await send(alice, roomId, "m.room.message", { msgtype: "m.text", body: "hello bob" });
    const reply = await send(bob, roomId, "m.room.message", { msgtype: "m.text", body: "hi alice" });
    const inThread = await send(bob, roomId, "m.room.message", {
      msgtype: "m.text",
      body: "thread reply",
      "m.relates_to": {
        rel_type: "m.thread",
        event_id: hello,
        is_falling_back: true,
        "m.in_reply_to": { event_id: hello },
      },
    });
    const reaction = await send(alice, roomId, "m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: reply, key: "👍" },
    });
    const edit = await send(alice, roomId, "m.room.message", {
      msgtype: "m.text",
      body: "* hello bob!",
      "m.new_content": { msgtype: "m.text", body: "hello bob!" },
      "m.relates_to": { rel_type: "m.replace", event_id: hello },
    });
    const redaction = (
      await api(server, bob, "PUT", `${V3}/rooms/${r(roomId)}/redact/${encodeURIComponent(reply)}/x1`, {
        reason: "oops",
      })
    ).body["event_id"];
    // Moderation: bob may not kick alice; alice raises bob to moderator and bob changes the topic.
    expect(
      (await api(server, bob, "POST", `${V3}/rooms/${r(roomId)}/kick`, { user_id: alice.userId })).status,
    ).toBe(403);
    const pl = (await api(server, alice, "GET", `${V3}/rooms/${r(roomId)}/state/m.room.power_levels/`)).body;
    await api(server, alice, "PUT", `${V3}/rooms/${r(roomId)}/state/m.room.power_levels/`, {
      ...pl,
      users: { ...(pl["users"] as Obj), [bob.userId]: 50 },
    });
    await api(server, bob, "PUT", `${V3}/rooms/${r(roomId)}/state/m.room.topic/`, { topic: "moderated" });

    const order = [hello, reply, inThread, reaction, edit, redaction];
    for (const [user, base] of [
      [alice, a0],
      [bob, b0],
    ] as const) {
      const res = await sync(
        user,
        String(base["next_batch"]),
        `&filter=${encodeURIComponent(JSON.stringify({ room: { timeline: { limit: 50 } } }))}`,
      );
      const events = joinedTimeline(res, roomId);
      const ids = events.map((e) => e["event_id"]);
      const positions = order.map((id) => ids.indexOf(id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      const redacted = events.find((e) => e["event_id"] === reply) as Obj;
      expect(redacted["content"]).toEqual({});
      expect(((redacted["unsigned"] as Obj)["redacted_because"] as Obj)["event_id"]).toBe(redaction);
      const last = events[events.length - 1] as Obj;
      expect(last["type"]).toBe("m.room.topic");
    }
    // Aggregations on the root: thread summary and latest edit.
    const root = await getEvent(bob, roomId, hello);
    const relations = (root["unsigned"] as Obj)["m.relations"] as Obj;
    expect((relations["m.thread"] as Obj)["count"]).toBe(1);
    expect((relations["m.thread"] as Obj)["current_user_participated"]).toBe(true);
    expect(((relations["m.thread"] as Obj)["latest_event"] as Obj)["event_id"]).toBe(inThread);
    expect((relations["m.replace"] as Obj)["event_id"]).toBe(edit);
    // unsigned.membership: bob was only invited when the room was made, joined when alice said hello.
    expect((root["unsigned"] as Obj)["membership"]).toBe("join");
    const states = (await api(server, bob, "GET", `${V3}/rooms/${r(roomId)}/state`)).body["list"] as Obj[];
    const create = states.find((x) => x["type"] === "m.room.create") as Obj;
    expect((create["unsigned"] as Obj)["membership"]).toBe("leave");
    const topic = states.find((x) => x["type"] === "m.room.topic") as Obj;
    expect((topic["unsigned"] as Obj)["replaces_state"]).toBeUndefined();
    const plNow = states.find((x) => x["type"] === "m.room.power_levels") as Obj;
    expect(typeof (plNow["unsigned"] as Obj)["replaces_state"]).toBe("string");
  });
});

describe("relations and threads", () => {
  it("pages relations by type, event type and direction, and recurses", async () => {
    const roomId = String((await api(server, alice, "POST", `${V3}/createRoom`, {})).body["room_id"]);
    const root = await send(alice, roomId, "m.room.message", { body: "root", msgtype: "m.text" });
    const replies: string[] = [];
    for (let i = 0; i < 4; i++)
      replies.push(
        await send(alice, roomId, "m.room.message", {
          body: `r${i}`,
          msgtype: "m.text",
          "m.relates_to": { rel_type: "m.thread", event_id: root },
        }),
      );
    const react = await send(alice, roomId, "m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: root, key: "x" },
    });
    const nested = await send(alice, roomId, "m.reaction", {
      "m.relates_to": { rel_type: "m.annotation", event_id: replies[0], key: "y" },
    });
    const all = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}?limit=3`,
    );
    expect((all.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([react, replies[3], replies[2]]);
    const more = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}?limit=3&from=${String(all.body["next_batch"])}`,
    );
    expect((more.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([replies[1], replies[0]]);
    const threadOnly = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}/m.thread?dir=f&limit=10`,
    );
    expect((threadOnly.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual(replies);
    const byType = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}/m.annotation/m.reaction`,
    );
    expect((byType.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([react]);
    const recursive = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}?recurse=true&limit=20`,
    );
    expect((recursive.body["chunk"] as Obj[]).map((e) => e["event_id"])).toContain(nested);
    expect(recursive.body["recursion_depth"]).toBe(3);
    await api(server, alice, "PUT", `${V3}/rooms/${r(roomId)}/redact/${encodeURIComponent(react)}/rr`, {});
    const afterRedaction = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/relations/${encodeURIComponent(root)}/m.annotation`,
    );
    expect(afterRedaction.body["chunk"]).toEqual([]);
    const missing = await api(server, alice, "GET", `${V1}/rooms/${r(roomId)}/relations/$nope`);
    expect(missing.status).toBe(404);
  });

  it("lists threads by latest activity, all or participated", async () => {
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    await api(server, bob, "POST", `${V3}/join/${r(roomId)}`, {});
    const t1 = await send(alice, roomId, "m.room.message", { body: "t1", msgtype: "m.text" });
    const t2 = await send(alice, roomId, "m.room.message", { body: "t2", msgtype: "m.text" });
    await send(alice, roomId, "m.room.message", {
      body: "in t2",
      msgtype: "m.text",
      "m.relates_to": { rel_type: "m.thread", event_id: t2 },
    });
    await send(bob, roomId, "m.room.message", {
      body: "in t1",
      msgtype: "m.text",
      "m.relates_to": { rel_type: "m.thread", event_id: t1 },
    });
    const all = await api(server, bob, "GET", `${V1}/rooms/${r(roomId)}/threads`);
    expect((all.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([t1, t2]);
    const mine = await api(server, bob, "GET", `${V1}/rooms/${r(roomId)}/threads?include=participated`);
    expect((mine.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([t1]);
    const paged = await api(server, bob, "GET", `${V1}/rooms/${r(roomId)}/threads?limit=1`);
    const next = await api(
      server,
      bob,
      "GET",
      `${V1}/rooms/${r(roomId)}/threads?limit=1&from=${String(paged.body["next_batch"])}`,
    );
    expect((next.body["chunk"] as Obj[]).map((e) => e["event_id"])).toEqual([t2]);
    expect((await api(server, bob, "GET", `${V1}/rooms/${r(roomId)}/threads?include=bogus`)).status).toBe(
      400,
    );
  });

  it("bundles only the sender's own latest edit", async () => {
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    await api(server, bob, "POST", `${V3}/join/${r(roomId)}`, {});
    const msg = await send(alice, roomId, "m.room.message", { body: "v1", msgtype: "m.text" });
    const rel = { rel_type: "m.replace", event_id: msg };
    await send(alice, roomId, "m.room.message", {
      body: "* v2",
      msgtype: "m.text",
      "m.new_content": { body: "v2", msgtype: "m.text" },
      "m.relates_to": rel,
    });
    const v3 = await send(alice, roomId, "m.room.message", {
      body: "* v3",
      msgtype: "m.text",
      "m.new_content": { body: "v3", msgtype: "m.text" },
      "m.relates_to": rel,
    });
    await send(bob, roomId, "m.room.message", {
      body: "* hijack",
      msgtype: "m.text",
      "m.new_content": { body: "hijack", msgtype: "m.text" },
      "m.relates_to": rel,
    });
    const ev = await getEvent(alice, roomId, msg);
    expect((((ev["unsigned"] as Obj)["m.relations"] as Obj)["m.replace"] as Obj)["event_id"]).toBe(v3);
  });
});

describe("redaction", () => {
  it("keeps the keys of the room version's algorithm", async () => {
    for (const [version, kept] of [
      ["10", { join_rule: "public" }],
      ["11", { join_rule: "public" }],
    ] as const) {
      const roomId = String(
        (await api(server, alice, "POST", `${V3}/createRoom`, { room_version: version })).body["room_id"],
      );
      const pl = (await api(server, alice, "GET", `${V3}/rooms/${r(roomId)}/state/m.room.power_levels/`))
        .body;
      const res = await api(server, alice, "PUT", `${V3}/rooms/${r(roomId)}/state/m.room.join_rules/`, {
        join_rule: "public",
        extra: 1,
      });
      await api(
        server,
        alice,
        "PUT",
        `${V3}/rooms/${r(roomId)}/redact/${encodeURIComponent(String(res.body["event_id"]))}/red${version}`,
        {},
      );
      const ev = await getEvent(alice, roomId, String(res.body["event_id"]));
      expect(ev["content"]).toEqual(kept);
      const plEvents = (await api(server, alice, "GET", `${V3}/rooms/${r(roomId)}/state`)).body[
        "list"
      ] as Obj[];
      const plEvent = plEvents.find((e) => e["type"] === "m.room.power_levels") as Obj;
      const red = await api(
        server,
        alice,
        "PUT",
        `${V3}/rooms/${r(roomId)}/redact/${encodeURIComponent(String(plEvent["event_id"]))}/pl${version}`,
        {},
      );
      const after = await getEvent(alice, roomId, String(plEvent["event_id"]));
      // invite survives redaction from v11 only; notifications never.
      expect("invite" in (after["content"] as Obj)).toBe(version === "11");
      expect("notifications" in (after["content"] as Obj)).toBe(false);
      expect(pl["ban"]).toBe(50);
      const redEvent = await getEvent(alice, roomId, String(red.body["event_id"]));
      if (version === "11") {
        expect(redEvent["redacts"]).toBeUndefined();
        expect((redEvent["content"] as Obj)["redacts"]).toBe(plEvent["event_id"]);
      } else {
        expect(redEvent["redacts"]).toBe(plEvent["event_id"]);
      }
    }
  });

  it("lets only the sender or a moderator redact", async () => {
    const roomId = String(
      (await api(server, alice, "POST", `${V3}/createRoom`, { preset: "public_chat" })).body["room_id"],
    );
    await api(server, bob, "POST", `${V3}/join/${r(roomId)}`, {});
    const msg = await send(alice, roomId, "m.room.message", { body: "mine", msgtype: "m.text" });
    const res = await api(
      server,
      bob,
      "PUT",
      `${V3}/rooms/${r(roomId)}/redact/${encodeURIComponent(msg)}/no`,
      {},
    );
    expect(res.status).toBe(403);
  });
});

describe("search, timestamps and reports", () => {
  it("searches room events with rank or recent order, context and paging", async () => {
    const roomId = String((await api(server, alice, "POST", `${V3}/createRoom`, {})).body["room_id"]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await send(alice, roomId, "m.room.message", { body: `banana number ${i}`, msgtype: "m.text" }),
      );
    await send(alice, roomId, "m.room.message", { body: "apple", msgtype: "m.text" });
    const res = await api(server, alice, "POST", `${V3}/search`, {
      search_categories: {
        room_events: {
          search_term: "banana",
          order_by: "recent",
          filter: { limit: 2, rooms: [roomId] },
          event_context: { before_limit: 1, after_limit: 1, include_profile: true },
        },
      },
    });
    expect(res.status).toBe(200);
    const cat = (res.body["search_categories"] as Obj)["room_events"] as Obj;
    expect(cat["count"]).toBe(3);
    const results = cat["results"] as Obj[];
    expect(results.map((x) => (x["result"] as Obj)["event_id"])).toEqual([ids[2], ids[1]]);
    expect(((results[0]?.["context"] as Obj)["events_after"] as Obj[]).length).toBe(1);
    const next = await api(server, alice, "POST", `${V3}/search?next_batch=${String(cat["next_batch"])}`, {
      search_categories: {
        room_events: { search_term: "banana", order_by: "recent", filter: { limit: 2, rooms: [roomId] } },
      },
    });
    const nextResults = ((next.body["search_categories"] as Obj)["room_events"] as Obj)["results"] as Obj[];
    expect(nextResults.map((x) => (x["result"] as Obj)["event_id"])).toEqual([ids[0]]);
    expect(
      (
        await api(server, alice, "POST", `${V3}/search`, {
          search_categories: { room_events: { search_term: 5 } },
        })
      ).status,
    ).toBe(400);
  });

  it("finds events by timestamp and records reports", async () => {
    const roomId = String((await api(server, alice, "POST", `${V3}/createRoom`, {})).body["room_id"]);
    const id = await send(alice, roomId, "m.room.message", { body: "when", msgtype: "m.text" });
    const ev = await getEvent(alice, roomId, id);
    const ts = Number(ev["origin_server_ts"]);
    const found = await api(
      server,
      alice,
      "GET",
      `${V1}/rooms/${r(roomId)}/timestamp_to_event?ts=${ts + 1000}&dir=b`,
    );
    expect(found.body["event_id"]).toBe(id);
    const unstable = await api(
      server,
      alice,
      "GET",
      `/_matrix/client/unstable/org.matrix.msc3030/rooms/${r(roomId)}/timestamp_to_event?ts=${ts + 100000}&dir=f`,
    );
    expect(unstable.status).toBe(404);
    expect(
      (await api(server, alice, "GET", `${V1}/rooms/${r(roomId)}/timestamp_to_event?ts=x&dir=f`)).status,
    ).toBe(400);
    expect(
      (
        await api(server, alice, "POST", `${V3}/rooms/${r(roomId)}/report/${encodeURIComponent(id)}`, {
          reason: "spam",
          score: -100,
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(server, alice, "POST", `${V3}/rooms/${r(roomId)}/report`, { reason: "room spam" })).status,
    ).toBe(200);
    expect(
      (await api(server, bob, "POST", `${V3}/rooms/${r(roomId)}/report/${encodeURIComponent(id)}`, {}))
        .status,
    ).toBe(404);
    expect(server.ctx.rooms.reports.filter((x) => x.roomId === roomId).length).toBe(2);
  });
});
