/**
 * Presence over HTTP: setting and reading status, activity on the server
 * clock, who may see whom, and m.presence in sync.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src";
import { api, createRoom, dig, enc, specProblems, startHarness, sync, V3 } from "./harness";
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

const status = (user: TestUser, target: string) =>
  api(h.server, user, "GET", `${V3}/presence/${enc(target)}/status`);
const setStatus = (user: TestUser, body: unknown, target = user.userId) =>
  api(h.server, user, "PUT", `${V3}/presence/${enc(target)}/status`, body);

describe("presence", () => {
  it("reports offline before anything is set", async () => {
    expect(await status(h.carol, h.carol.userId)).toEqual({ status: 200, body: { presence: "offline" } });
  });

  it("sets presence and status message, with activity on the server clock", async () => {
    expect(await setStatus(h.alice, { presence: "online", status_msg: "Making cupcakes" })).toEqual({
      status: 200,
      body: {},
    });
    expect((await status(h.alice, h.alice.userId)).body).toEqual({
      presence: "online",
      status_msg: "Making cupcakes",
      last_active_ago: 0,
      currently_active: true,
    });
    clock.advance(61_000);
    expect((await status(h.alice, h.alice.userId)).body).toMatchObject({
      last_active_ago: 61_000,
      currently_active: false,
    });
    await setStatus(h.alice, { presence: "unavailable" });
    expect((await status(h.alice, h.alice.userId)).body).toMatchObject({
      presence: "unavailable",
      status_msg: "Making cupcakes",
    });
  });

  it("validates the body and refuses setting someone else's presence", async () => {
    expect((await setStatus(h.bob, { presence: "busy" })).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await setStatus(h.bob, {})).body["errcode"]).toBe("M_MISSING_PARAM");
    expect((await setStatus(h.bob, { presence: "online", status_msg: 5 })).status).toBe(400);
    expect((await setStatus(h.bob, { presence: "online", status_msg: "x".repeat(100_000) })).status).toBe(
      400,
    );
    expect((await setStatus(h.bob, "[]")).body["errcode"]).toBe("M_BAD_JSON");
    expect((await setStatus(h.bob, { presence: "online" }, h.alice.userId)).status).toBe(403);
    expect((await status(h.bob, h.bob.userId)).body["presence"]).toBe("offline");
  });

  it("shows presence only to users sharing a room, and 404 for unknown users", async () => {
    expect((await status(h.bob, h.alice.userId)).status).toBe(403);
    await createRoom(h, h.alice, [h.bob]);
    expect((await status(h.bob, h.alice.userId)).body["presence"]).toBe("unavailable");
    expect((await status(h.bob, "@nobody:localhost")).status).toBe(404);
  });

  it("sends m.presence to users who share a room, once per change", async () => {
    const s0 = await sync(h, h.bob);
    await setStatus(h.alice, { presence: "online", status_msg: "back" });
    const s1 = await sync(h, h.bob, String(s0["next_batch"]));
    const events = dig(s1, "presence", "events") as Array<Record<string, unknown>>;
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "m.presence",
        sender: h.alice.userId,
        content: expect.objectContaining({
          presence: "online",
          status_msg: "back",
          currently_active: true,
        }) as unknown,
      }),
    );
    const s2 = await sync(h, h.bob, String(s1["next_batch"]));
    expect((dig(s2, "presence", "events") as unknown[] | undefined) ?? []).toEqual([]);
  });

  it("takes set_presence from sync without waking anyone when nothing changes", async () => {
    const q = new URLSearchParams({ timeout: "0", set_presence: "unavailable" });
    expect((await api(h.server, h.carol, "GET", `${V3}/sync?${q.toString()}`)).status).toBe(200);
    expect((await status(h.carol, h.carol.userId)).body["presence"]).toBe("unavailable");
    const before = h.server.ctx.notifier.position;
    h.server.ctx.userData.setPresenceFromSync(h.carol.userId, "unavailable");
    h.server.ctx.userData.setPresenceFromSync(h.carol.userId, "offline");
    expect(h.server.ctx.notifier.position).toBe(before);
    expect((await status(h.carol, h.carol.userId)).body["presence"]).toBe("unavailable");
  });
});
