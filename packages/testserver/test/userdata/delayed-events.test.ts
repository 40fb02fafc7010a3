/**
 * MSC4140 delayed events: scheduling (the hook the rooms domain's send and
 * state routes call), listing, cancel/restart/send over HTTP, and expiry on
 * the server clock that really sends the event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src";
import { api, createRoom, enc, specProblems, startHarness, V3 } from "./harness";
import type { Harness, TestUser } from "./harness";

let h: Harness;
let roomId: string;
const clock = new ManualClock();
const PREFIX = "/_matrix/client/unstable/org.matrix.msc4140";

beforeAll(async () => {
  h = await startHarness({ clock });
  roomId = await createRoom(h, h.alice, [h.bob]);
});
afterAll(async () => {
  await h.server.stop();
  expect(specProblems(h)).toEqual([]);
});

function schedule(
  user: TestUser,
  content: Record<string, unknown>,
  delay: number | undefined,
  options: { stateKey?: string; type?: string; parent?: string } = {},
): string {
  return h.server.ctx.userData.scheduleDelayedEvent(
    user.userId,
    roomId,
    options.type ?? "m.room.message",
    content,
    options.stateKey,
    delay,
    options.parent,
  ).delay_id;
}

const bodies = (): unknown[] =>
  h.server.ctx.rooms
    .timeline(roomId)
    .filter((e) => e.type === "m.room.message")
    .map((e) => e.content["body"]);

const list = async (user: TestUser) =>
  (await api(h.server, user, "GET", `${PREFIX}/delayed_events`)).body["delayed_events"] as Array<
    Record<string, unknown>
  >;

const update = (user: TestUser | undefined, delayId: string, body: unknown) =>
  api(h.server, user, "POST", `${PREFIX}/delayed_events/${enc(delayId)}`, body);

describe("delayed events", () => {
  it("is advertised in /versions", async () => {
    const res = await api(h.server, undefined, "GET", "/_matrix/client/versions");
    expect(res.body["unstable_features"]).toMatchObject({ "org.matrix.msc4140": true });
  });

  it("lists a scheduled event and sends it when the delay passes", async () => {
    const id = schedule(h.alice, { msgtype: "m.text", body: "later" }, 5000);
    expect(await list(h.alice)).toEqual([
      {
        delay_id: id,
        room_id: roomId,
        type: "m.room.message",
        delay: 5000,
        running_since: clock.now(),
        content: { msgtype: "m.text", body: "later" },
      },
    ]);
    expect(await list(h.bob)).toEqual([]);
    clock.advance(4999);
    expect(bodies()).not.toContain("later");
    clock.advance(1);
    expect(bodies()).toContain("later");
    expect(await list(h.alice)).toEqual([]);
  });

  it("restarts, cancels and sends on request", async () => {
    const restarted = schedule(h.alice, { msgtype: "m.text", body: "restarted" }, 1000);
    const cancelled = schedule(h.alice, { msgtype: "m.text", body: "cancelled" }, 1000);
    const sentNow = schedule(h.alice, { msgtype: "m.text", body: "now" }, 60_000);
    clock.advance(800);
    expect(await update(h.alice, restarted, { action: "restart" })).toEqual({ status: 200, body: {} });
    expect((await update(h.alice, cancelled, { action: "cancel" })).status).toBe(200);
    expect((await update(h.alice, sentNow, { action: "send" })).status).toBe(200);
    expect(bodies()).toContain("now");
    clock.advance(800);
    expect(bodies()).not.toContain("restarted");
    clock.advance(200);
    expect(bodies()).toContain("restarted");
    clock.advance(10_000);
    expect(bodies()).not.toContain("cancelled");
    expect((await update(h.alice, cancelled, { action: "send" })).status).toBe(404);
  });

  it("sends delayed state events with their state key", () => {
    schedule(h.alice, { topic: "delayed topic" }, 100, { type: "m.room.topic", stateKey: "" });
    clock.advance(100);
    expect(h.server.ctx.rooms.currentState(roomId, "m.room.topic", "")?.content).toEqual({
      topic: "delayed topic",
    });
  });

  it("starts a child's delay when its parent is sent, and cancels children with the parent", async () => {
    const parent = schedule(h.alice, { msgtype: "m.text", body: "parent" }, 1000);
    schedule(h.alice, { msgtype: "m.text", body: "child" }, 500, { parent });
    clock.advance(1000);
    expect(bodies()).toContain("parent");
    expect(bodies()).not.toContain("child");
    clock.advance(500);
    expect(bodies()).toContain("child");
    const other = schedule(h.alice, { msgtype: "m.text", body: "parent2" }, 1000);
    schedule(h.alice, { msgtype: "m.text", body: "orphan" }, undefined, { parent: other });
    await update(h.alice, other, { action: "cancel" });
    clock.advance(5000);
    expect(bodies()).not.toContain("orphan");
    expect(await list(h.alice)).toEqual([]);
  });

  it("supports the action-in-path endpoints without an access token", async () => {
    const id = schedule(h.alice, { msgtype: "m.text", body: "by path" }, 1000);
    const res = await api(h.server, undefined, "POST", `${PREFIX}/delayed_events/${enc(id)}/send`, {});
    expect(res).toEqual({ status: 200, body: {} });
    expect(bodies()).toContain("by path");
    const bad = await api(h.server, undefined, "POST", `${PREFIX}/delayed_events/${enc(id)}/explode`, {});
    expect(bad.status).toBe(404);
  });

  it("rejects bad actions, unknown ids, other users' events and bad schedules", async () => {
    const id = schedule(h.alice, { msgtype: "m.text", body: "guarded" }, 1000);
    expect((await update(h.alice, id, {})).body["errcode"]).toBe("M_MISSING_PARAM");
    expect((await update(h.alice, id, { action: "explode" })).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await update(h.alice, id, "[]")).body["errcode"]).toBe("M_BAD_JSON");
    expect((await update(h.alice, "syd_unknown", { action: "send" })).status).toBe(404);
    expect((await update(h.alice, "__proto__", { action: "send" })).status).toBe(404);
    expect((await update(h.bob, id, { action: "cancel" })).status).toBe(404);
    expect(() => schedule(h.alice, {}, -1)).toThrow();
    expect(() => schedule(h.alice, {}, 1.5)).toThrow();
    expect(() => schedule(h.alice, {}, undefined)).toThrow();
    expect(() => schedule(h.alice, {}, 10, { parent: "syd_missing" })).toThrow();
    expect(() => schedule(h.carol, {}, 10)).toThrow();
    await update(h.alice, id, { action: "cancel" });
  });

  it("schedules from a send route's query, and leaves undelayed sends alone", () => {
    const store = h.server.ctx.userData;
    const content = { msgtype: "m.text", body: "from query" };
    const q = (init: Record<string, string>) => new URLSearchParams(init);
    expect(
      store.scheduleFromQuery(h.alice.userId, roomId, "m.room.message", content, undefined, q({})),
    ).toBeUndefined();
    const scheduled = store.scheduleFromQuery(
      h.alice.userId,
      roomId,
      "m.room.message",
      content,
      undefined,
      q({ "org.matrix.msc4140.delay": "250" }),
    );
    expect(scheduled?.delay_id).toMatch(/^syd_/);
    expect(() =>
      store.scheduleFromQuery(
        h.alice.userId,
        roomId,
        "m.room.message",
        content,
        undefined,
        q({ "org.matrix.msc4140.delay": "soon" }),
      ),
    ).toThrow();
    clock.advance(250);
    expect(bodies()).toContain("from query");
  });

  it("drops an event whose sender may no longer send it", async () => {
    schedule(h.bob, { msgtype: "m.text", body: "after leaving" }, 1000);
    expect((await api(h.server, h.bob, "POST", `${V3}/rooms/${enc(roomId)}/leave`, {})).status).toBe(200);
    clock.advance(1000);
    expect(bodies()).not.toContain("after leaving");
  });
});
