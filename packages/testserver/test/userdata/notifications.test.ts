/**
 * Push evaluation applied to rooms: unread counts in sync (main timeline
 * and threads, after receipts), GET /notifications, and pushers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser } from "../helpers";
import { api, createRoom, dig, enc, send, specProblems, startHarness, sync, text, V3 } from "./harness";
import type { Harness, TestUser } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.stop();
  expect(specProblems(h)).toEqual([]);
});

const THREADS = { room: { timeline: { unread_thread_notifications: true } } };

async function counts(user: TestUser, roomId: string): Promise<Record<string, unknown>> {
  const s = await sync(h, user, undefined, THREADS);
  const room = dig(s, "rooms", "join", roomId) as Record<string, unknown>;
  return {
    main: room["unread_notifications"],
    threads: room["unread_thread_notifications"] ?? {},
  };
}

function receipt(user: TestUser, roomId: string, eventId: string, body: unknown = {}, type = "m.read") {
  return api(h.server, user, "POST", `${V3}/rooms/${enc(roomId)}/receipt/${type}/${enc(eventId)}`, body);
}

describe("unread counts", () => {
  it("counts notifying events after the latest receipt, not one's own, and highlights mentions", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob, h.carol]);
    const first = await send(h, h.bob, roomId, text("one"));
    await send(h, h.bob, roomId, text("two"));
    await send(h, h.alice, roomId, text("my own"));
    await send(h, h.bob, roomId, { msgtype: "m.notice", body: "a bot notice" });
    await send(
      h,
      h.bob,
      roomId,
      { "m.relates_to": { rel_type: "m.annotation", event_id: first, key: "👍" } },
      "m.reaction",
    );
    const mention = await send(h, h.bob, roomId, {
      ...text("hi alice"),
      "m.mentions": { user_ids: [h.alice.userId] },
    });
    expect(await counts(h.alice, roomId)).toEqual({
      main: { notification_count: 3, highlight_count: 1 },
      threads: {},
    });
    await receipt(h.alice, roomId, first);
    expect((await counts(h.alice, roomId))["main"]).toEqual({ notification_count: 2, highlight_count: 1 });
    await receipt(h.alice, roomId, mention, {}, "m.read.private");
    expect((await counts(h.alice, roomId))["main"]).toEqual({ notification_count: 0, highlight_count: 0 });
  });

  it("counts thread events per thread, cleared by threaded and unthreaded receipts", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob, h.carol]);
    const root = await send(h, h.bob, roomId, text("root"));
    const inThread = (body: string) => ({
      ...text(body),
      "m.relates_to": { rel_type: "m.thread", event_id: root },
    });
    const r1 = await send(h, h.bob, roomId, inThread("r1"));
    await send(h, h.carol, roomId, inThread("r2 alice"));
    expect(await counts(h.alice, roomId)).toEqual({
      main: { notification_count: 1, highlight_count: 0 },
      threads: { [root]: { notification_count: 2, highlight_count: 1 } },
    });
    await receipt(h.alice, roomId, r1, { thread_id: root });
    expect(await counts(h.alice, roomId)).toEqual({
      main: { notification_count: 1, highlight_count: 0 },
      threads: { [root]: { notification_count: 1, highlight_count: 1 } },
    });
    await receipt(h.alice, roomId, root, { thread_id: "main" });
    expect((await counts(h.alice, roomId))["main"]).toEqual({ notification_count: 0, highlight_count: 0 });
    const last = await send(h, h.bob, roomId, text("after"));
    await receipt(h.alice, roomId, last);
    expect(await counts(h.alice, roomId)).toEqual({
      main: { notification_count: 0, highlight_count: 0 },
      threads: {},
    });
  });

  it("highlights @room only from senders with the room notification level", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob, h.carol]);
    await send(h, h.bob, roomId, text("@room from a member"));
    expect((await counts(h.carol, roomId))["main"]).toEqual({ notification_count: 1, highlight_count: 0 });
    await send(h, h.alice, roomId, text("@room from the creator"));
    expect((await counts(h.carol, roomId))["main"]).toEqual({ notification_count: 2, highlight_count: 1 });
  });

  it("follows the user's push rules: a muted room counts nothing", async () => {
    const roomId = await createRoom(h, h.alice, [h.bob]);
    await send(h, h.bob, roomId, text("before mute"));
    expect((await counts(h.alice, roomId))["main"]).toEqual({ notification_count: 1, highlight_count: 0 });
    await api(h.server, h.alice, "PUT", `${V3}/pushrules/global/room/${enc(roomId)}`, { actions: [] });
    expect((await counts(h.alice, roomId))["main"]).toEqual({ notification_count: 0, highlight_count: 0 });
  });
});

describe("GET /notifications", () => {
  let roomId: string;
  let dave: TestUser;
  const sent: string[] = [];

  beforeAll(async () => {
    dave = await registerUser(h.server, "dave");
    roomId = await createRoom(h, dave, [h.bob]);
    for (let i = 0; i < 5; i++)
      sent.push(await send(h, h.bob, roomId, text(i === 3 ? "dave look" : `m${i}`)));
    await receipt(dave, roomId, sent[1] as string);
  });

  it("lists notifying events newest first with actions and read flags", async () => {
    const res = await api(h.server, dave, "GET", `${V3}/notifications`);
    expect(res.status).toBe(200);
    const list = res.body["notifications"] as Array<Record<string, unknown>>;
    expect(list.map((n) => dig(n, "event", "event_id"))).toEqual([...sent].reverse());
    expect(list.map((n) => n["read"])).toEqual([false, false, false, true, true]);
    expect(list[1]?.["actions"]).toContainEqual({ set_tweak: "highlight" });
    expect(list[0]).toMatchObject({ room_id: roomId, ts: expect.any(Number) as number });
    expect(res.body["next_token"]).toBeUndefined();
  });

  it("pages with limit and from, and filters highlights", async () => {
    const page1 = await api(h.server, dave, "GET", `${V3}/notifications?limit=2`);
    const token = page1.body["next_token"];
    expect(typeof token).toBe("string");
    const page2 = await api(h.server, dave, "GET", `${V3}/notifications?limit=10&from=${String(token)}`);
    const ids = (body: Record<string, unknown>) =>
      (body["notifications"] as Array<Record<string, unknown>>).map((n) => dig(n, "event", "event_id"));
    expect([...ids(page1.body), ...ids(page2.body)]).toEqual([...sent].reverse());
    expect(page2.body["next_token"]).toBeUndefined();
    const high = await api(h.server, dave, "GET", `${V3}/notifications?only=highlight`);
    expect(ids(high.body)).toEqual([sent[3]]);
  });

  it("rejects malformed from and limit", async () => {
    expect((await api(h.server, dave, "GET", `${V3}/notifications?from=abc`)).status).toBe(400);
    expect((await api(h.server, dave, "GET", `${V3}/notifications?limit=-1`)).status).toBe(400);
  });
});

describe("pushers", () => {
  const pusher = (pushkey: string, extra: Record<string, unknown> = {}) => ({
    pushkey,
    kind: "http",
    app_id: "org.example.app",
    app_display_name: "Example",
    device_display_name: "Phone",
    lang: "en",
    data: { url: "https://push.example.org/_matrix/push/v1/notify", format: "event_id_only" },
    ...extra,
  });
  const list = async (user: TestUser) =>
    (
      (await api(h.server, user, "GET", `${V3}/pushers`)).body["pushers"] as Array<Record<string, unknown>>
    ).map((p) => p["pushkey"]);

  it("adds, replaces and deletes pushers", async () => {
    expect(await api(h.server, h.alice, "POST", `${V3}/pushers/set`, pusher("k1"))).toEqual({
      status: 200,
      body: {},
    });
    await api(h.server, h.alice, "POST", `${V3}/pushers/set`, pusher("k2"));
    await api(h.server, h.alice, "POST", `${V3}/pushers/set`, pusher("k1", { lang: "fr" }));
    const all = (await api(h.server, h.alice, "GET", `${V3}/pushers`)).body["pushers"] as Array<
      Record<string, unknown>
    >;
    expect(all.map((p) => [p["pushkey"], p["lang"]])).toEqual([
      ["k2", "en"],
      ["k1", "fr"],
    ]);
    await api(h.server, h.alice, "POST", `${V3}/pushers/set`, { ...pusher("k2"), kind: null });
    expect(await list(h.alice)).toEqual(["k1"]);
  });

  it("moves a pushkey between users unless append is set", async () => {
    await api(h.server, h.bob, "POST", `${V3}/pushers/set`, pusher("shared"));
    await api(h.server, h.carol, "POST", `${V3}/pushers/set`, pusher("shared"));
    expect(await list(h.bob)).toEqual([]);
    await api(h.server, h.bob, "POST", `${V3}/pushers/set`, pusher("shared", { append: true }));
    expect(await list(h.bob)).toEqual(["shared"]);
    expect(await list(h.carol)).toEqual(["shared"]);
  });

  it("validates the body", async () => {
    const set = (body: unknown) => api(h.server, h.alice, "POST", `${V3}/pushers/set`, body);
    expect((await set({ ...pusher("x"), data: {} })).body["errcode"]).toBe("M_MISSING_PARAM");
    expect((await set({ ...pusher("x"), data: { url: "https://x/other" } })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await set({ ...pusher("x"), kind: "carrier-pigeon" })).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await set({ ...pusher("x"), app_id: 5 })).body["errcode"]).toBe("M_INVALID_PARAM");
    const { lang: _lang, ...noLang } = pusher("x");
    expect((await set(noLang)).body["errcode"]).toBe("M_MISSING_PARAM");
    expect((await set("[]")).body["errcode"]).toBe("M_BAD_JSON");
    expect(await list(h.alice)).not.toContain("x");
  });
});
