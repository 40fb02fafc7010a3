/**
 * Receipts, read markers and typing over HTTP, and the m.receipt / m.typing
 * ephemeral events sync delivers from them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src";
import { api, createRoom, dig, enc, send, specProblems, startHarness, sync, text, V3 } from "./harness";
import type { Harness, TestUser } from "./harness";

let h: Harness;
const clock = new ManualClock();

beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => {
  await h.server.stop();
  expect(specProblems(h)).toEqual([]);
});

function receipt(user: TestUser, roomId: string, type: string, eventId: string, body: unknown = {}) {
  return api(h.server, user, "POST", `${V3}/rooms/${enc(roomId)}/receipt/${type}/${enc(eventId)}`, body);
}

type Ephemeral = Array<{ type: string; content: Record<string, unknown> }>;

function ephemeral(body: Record<string, unknown>, roomId: string): Ephemeral {
  return (dig(body, "rooms", "join", roomId, "ephemeral", "events") as Ephemeral | undefined) ?? [];
}

describe("receipts", () => {
  it("delivers a public receipt to every member, in the spec's shape", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const eventId = await send(h, h.alice, roomId, text("hello"));
    expect(await receipt(h.bob, roomId, "m.read", eventId)).toEqual({ status: 200, body: {} });
    const seen = ephemeral(await sync(h, h.alice), roomId).find((e) => e.type === "m.receipt");
    expect(seen?.content[eventId]).toEqual({ "m.read": { [h.bob.userId]: { ts: clock.now() } } });
  });

  it("shows a private receipt only to its owner", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const eventId = await send(h, h.alice, roomId, text("secret"));
    expect((await receipt(h.bob, roomId, "m.read.private", eventId)).status).toBe(200);
    const forAlice = ephemeral(await sync(h, h.alice), roomId).find((e) => e.type === "m.receipt");
    expect(forAlice).toBeUndefined();
    const forBob = ephemeral(await sync(h, h.bob), roomId).find((e) => e.type === "m.receipt");
    expect(dig(forBob?.content, eventId, "m.read.private", h.bob.userId)).toEqual({ ts: clock.now() });
  });

  it("carries thread_id for threaded receipts and checks the thread", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const root = await send(h, h.alice, roomId, text("root"));
    const reply = await send(h, h.alice, roomId, {
      ...text("in thread"),
      "m.relates_to": { rel_type: "m.thread", event_id: root },
    });
    const other = await send(h, h.alice, roomId, text("main"));
    expect((await receipt(h.bob, roomId, "m.read", reply, { thread_id: root })).status).toBe(200);
    expect((await receipt(h.bob, roomId, "m.read", other, { thread_id: "main" })).status).toBe(200);
    const bad = await receipt(h.bob, roomId, "m.read", other, { thread_id: root });
    expect(bad).toMatchObject({ status: 400, body: { errcode: "M_INVALID_PARAM" } });
    const r = ephemeral(await sync(h, h.alice), roomId).find((e) => e.type === "m.receipt");
    expect(dig(r?.content, reply, "m.read", h.bob.userId, "thread_id")).toBe(root);
    expect(dig(r?.content, other, "m.read", h.bob.userId, "thread_id")).toBe("main");
  });

  it("rejects bad receipt types, thread ids, unknown events and non-members", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const eventId = await send(h, h.alice, roomId, text("x"));
    expect((await receipt(h.bob, roomId, "m.unknown", eventId)).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await receipt(h.bob, roomId, "m.read", eventId, { thread_id: "" })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await receipt(h.bob, roomId, "m.read", eventId, { thread_id: 5 })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await receipt(h.bob, roomId, "m.fully_read", eventId, { thread_id: "main" })).status).toBe(400);
    expect((await receipt(h.bob, roomId, "m.read", "$nope:localhost")).status).toBe(404);
    expect((await receipt(h.carol, roomId, "m.read", eventId)).status).toBe(403);
    expect((await receipt(h.bob, roomId, "m.read", eventId, "[]")).body["errcode"]).toBe("M_BAD_JSON");
  });

  it("sends only receipts newer than the since token, and never moves one backwards", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const first = await send(h, h.alice, roomId, text("1"));
    const second = await send(h, h.alice, roomId, text("2"));
    await receipt(h.bob, roomId, "m.read", second);
    const s1 = await sync(h, h.alice);
    const s2 = await sync(h, h.alice, String(s1["next_batch"]));
    expect(ephemeral(s2, roomId)).toEqual([]);
    await receipt(h.bob, roomId, "m.read", first);
    const s3 = await sync(h, h.alice, String(s2["next_batch"]));
    expect(ephemeral(s3, roomId)).toEqual([]);
    const third = await send(h, h.alice, roomId, text("3"));
    await receipt(h.bob, roomId, "m.read", third);
    const s4 = await sync(h, h.alice, String(s3["next_batch"]));
    const r = ephemeral(s4, roomId).find((e) => e.type === "m.receipt");
    expect(Object.keys(r?.content ?? {})).toEqual([third]);
  });
});

describe("read markers", () => {
  it("sets m.fully_read as room account data and the receipts in one call", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const a = await send(h, h.alice, roomId, text("a"));
    const b = await send(h, h.alice, roomId, text("b"));
    const res = await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/read_markers`, {
      "m.fully_read": b,
      "m.read": a,
      "m.read.private": b,
    });
    expect(res).toEqual({ status: 200, body: {} });
    const path = `${V3}/user/${enc(h.bob.userId)}/rooms/${enc(roomId)}/account_data/m.fully_read`;
    expect((await api(h.server, h.bob, "GET", path)).body).toEqual({ event_id: b });
    // The marker does not move backwards.
    await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/read_markers`, { "m.fully_read": a });
    expect((await api(h.server, h.bob, "GET", path)).body).toEqual({ event_id: b });
    // m.fully_read never shows up as a receipt.
    const r = ephemeral(await sync(h, h.bob), roomId).find((e) => e.type === "m.receipt");
    expect(dig(r?.content, a, "m.read", h.bob.userId)).toBeDefined();
    expect(dig(r?.content, b, "m.read.private", h.bob.userId)).toBeDefined();
    expect(JSON.stringify(r)).not.toContain("m.fully_read");
  });

  it("changes nothing when one of the events is unknown or a value is not a string", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const a = await send(h, h.alice, roomId, text("a"));
    const res = await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/read_markers`, {
      "m.fully_read": a,
      "m.read": "$missing:localhost",
    });
    expect(res.status).toBe(404);
    const path = `${V3}/user/${enc(h.bob.userId)}/rooms/${enc(roomId)}/account_data/m.fully_read`;
    expect((await api(h.server, h.bob, "GET", path)).status).toBe(404);
    const typed = await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/read_markers`, {
      "m.read": 7,
    });
    expect(typed.status).toBe(400);
  });
});

describe("typing", () => {
  const typing = (user: TestUser, roomId: string, body: unknown, target = user.userId) =>
    api(h.server, user, "PUT", `${V3}/rooms/${enc(roomId)}/typing/${enc(target)}`, body);

  it("shows typing users and clears them after the timeout on the server clock", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    const s0 = await sync(h, h.alice);
    expect((await typing(h.bob, roomId, { typing: true, timeout: 5000 })).status).toBe(200);
    const s1 = await sync(h, h.alice, String(s0["next_batch"]));
    expect(ephemeral(s1, roomId)).toContainEqual({ type: "m.typing", content: { user_ids: [h.bob.userId] } });
    clock.advance(4999);
    const s2 = await sync(h, h.alice, String(s1["next_batch"]));
    expect(ephemeral(s2, roomId).filter((e) => e.type === "m.typing")).toEqual([]);
    clock.advance(1);
    const s3 = await sync(h, h.alice, String(s2["next_batch"]));
    expect(ephemeral(s3, roomId)).toContainEqual({ type: "m.typing", content: { user_ids: [] } });
  });

  it("stops typing on typing: false, and wakes a long-polling sync", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    await typing(h.bob, roomId, { typing: true, timeout: 30000 });
    const s0 = await sync(h, h.alice);
    // A poll of 60 s outlasts the test's timeout: an answer means the typing change woke it.
    const q = new URLSearchParams({ timeout: "60000", since: String(s0["next_batch"]) });
    const polling = api(h.server, h.alice, "GET", `${V3}/sync?${q.toString()}`);
    await new Promise((r) => setTimeout(r, 50));
    await typing(h.bob, roomId, { typing: false });
    const s1 = await polling;
    expect(ephemeral(s1.body, roomId)).toContainEqual({ type: "m.typing", content: { user_ids: [] } });
  });

  it("drops a user who leaves from the typing list", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    await typing(h.bob, roomId, { typing: true, timeout: 30000 });
    expect(h.server.ctx.userData.typing.typingIn(roomId)).toEqual([h.bob.userId]);
    await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/leave`, {});
    expect(h.server.ctx.userData.typing.typingIn(roomId)).toEqual([]);
    const s = await sync(h, h.alice);
    expect(ephemeral(s, roomId).filter((e) => e.type === "m.typing")).toEqual([]);
    clock.advance(30000);
  });

  it("refuses other users, non-members and malformed bodies", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    expect((await typing(h.bob, roomId, { typing: true }, h.alice.userId)).status).toBe(403);
    expect((await typing(h.carol, roomId, { typing: true })).status).toBe(403);
    expect((await typing(h.bob, roomId, {})).body["errcode"]).toBe("M_MISSING_PARAM");
    expect((await typing(h.bob, roomId, { typing: "yes" })).body["errcode"]).toBe("M_BAD_JSON");
    expect((await typing(h.bob, roomId, { typing: true, timeout: "soon" })).body["errcode"]).toBe(
      "M_BAD_JSON",
    );
    expect(h.server.ctx.userData.typing.typingIn(roomId)).toEqual([]);
  });
});
