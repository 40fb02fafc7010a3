/**
 * Push rules over HTTP: the default ruleset, CRUD with before/after,
 * enabled and actions, validation errors, and m.push_rules in sync.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, dig, enc, specProblems, startHarness, sync, V3 } from "./harness";
import type { Harness, TestUser } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.stop();
  expect(specProblems(h)).toEqual([]);
});

const rule = (kind: string, id: string): string => `${V3}/pushrules/global/${kind}/${enc(id)}`;

async function ids(user: TestUser, kind: string): Promise<string[]> {
  const res = await api(h.server, user, "GET", `${V3}/pushrules/global/`);
  return (res.body[kind] as Array<{ rule_id: string }>).map((r) => r.rule_id);
}

describe("reading push rules", () => {
  it("serves the full default ruleset for the user", async () => {
    const res = await api(h.server, h.alice, "GET", `${V3}/pushrules/`);
    expect(res.status).toBe(200);
    const global = res.body["global"] as Record<string, Array<Record<string, unknown>>>;
    expect(Object.keys(global).sort()).toEqual(["content", "override", "room", "sender", "underride"]);
    expect(global["override"]?.[0]).toEqual({
      rule_id: ".m.rule.master",
      default: true,
      enabled: false,
      conditions: [],
      actions: [],
    });
    expect(global["content"]?.[0]).toMatchObject({ rule_id: ".m.rule.contains_user_name", pattern: "alice" });
    const invite = global["override"]?.find((r) => r["rule_id"] === ".m.rule.invite_for_me");
    expect(invite?.["conditions"]).toContainEqual({
      kind: "event_match",
      key: "state_key",
      pattern: h.alice.userId,
    });
    expect(global["underride"]?.length).toBe(5);
  });

  it("reads one rule, its enabled flag and its actions", async () => {
    const one = await api(h.server, h.alice, "GET", rule("underride", ".m.rule.call"));
    expect(one.body).toMatchObject({ rule_id: ".m.rule.call", default: true, enabled: true });
    expect(
      (await api(h.server, h.alice, "GET", `${rule("override", ".m.rule.master")}/enabled`)).body,
    ).toEqual({
      enabled: false,
    });
    expect(
      (await api(h.server, h.alice, "GET", `${rule("underride", ".m.rule.message")}/actions`)).body,
    ).toEqual({
      actions: ["notify"],
    });
  });

  it("answers 404 M_NOT_FOUND for unknown rules, 400 for unknown kinds, M_UNRECOGNIZED for other scopes", async () => {
    expect(await api(h.server, h.alice, "GET", rule("override", "nope"))).toMatchObject({
      status: 404,
      body: { errcode: "M_NOT_FOUND" },
    });
    expect((await api(h.server, h.alice, "GET", rule("override", "__proto__"))).status).toBe(404);
    expect((await api(h.server, h.alice, "GET", rule("sideways", "x"))).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await api(h.server, h.alice, "GET", `${V3}/pushrules/device/override/x`)).body["errcode"]).toBe(
      "M_UNRECOGNIZED",
    );
  });
});

describe("changing push rules", () => {
  it("adds user rules as the most important, honouring before and after", async () => {
    const body = {
      actions: ["notify"],
      conditions: [{ kind: "event_match", key: "type", pattern: "org.a" }],
    };
    expect(await api(h.server, h.bob, "PUT", rule("override", "one"), body)).toEqual({
      status: 200,
      body: {},
    });
    await api(h.server, h.bob, "PUT", rule("override", "two"), body);
    expect((await ids(h.bob, "override")).slice(0, 3)).toEqual([".m.rule.master", "two", "one"]);
    await api(h.server, h.bob, "PUT", `${rule("override", "three")}?after=one`, body);
    await api(h.server, h.bob, "PUT", `${rule("override", "zero")}?before=two`, body);
    expect((await ids(h.bob, "override")).slice(0, 5)).toEqual([
      ".m.rule.master",
      "zero",
      "two",
      "one",
      "three",
    ]);
    // Moving an existing rule.
    await api(h.server, h.bob, "PUT", `${rule("override", "zero")}?after=three`, body);
    expect((await ids(h.bob, "override")).slice(0, 5)).toEqual([
      ".m.rule.master",
      "two",
      "one",
      "three",
      "zero",
    ]);
    expect((await ids(h.bob, "override"))[5]).toBe(".m.rule.suppress_notices");
  });

  it("stores content, room and sender rules, then deletes them", async () => {
    expect(
      (
        await api(h.server, h.carol, "PUT", rule("content", "cake"), {
          pattern: "cake*",
          actions: ["notify"],
        })
      ).status,
    ).toBe(200);
    expect((await api(h.server, h.carol, "PUT", rule("room", "!r:localhost"), { actions: [] })).status).toBe(
      200,
    );
    expect(
      (await api(h.server, h.carol, "PUT", rule("sender", "@bob:localhost"), { actions: ["notify"] })).status,
    ).toBe(200);
    expect((await api(h.server, h.carol, "GET", rule("content", "cake"))).body).toEqual({
      rule_id: "cake",
      default: false,
      enabled: true,
      pattern: "cake*",
      actions: ["notify"],
    });
    expect(await ids(h.carol, "room")).toEqual(["!r:localhost"]);
    expect((await api(h.server, h.carol, "DELETE", rule("room", "!r:localhost"))).status).toBe(200);
    expect(await ids(h.carol, "room")).toEqual([]);
    expect((await api(h.server, h.carol, "DELETE", rule("room", "!r:localhost"))).status).toBe(404);
  });

  it("cannot delete or replace server-default rules", async () => {
    expect(await api(h.server, h.alice, "DELETE", rule("override", ".m.rule.master"))).toMatchObject({
      status: 404,
      body: { errcode: "M_NOT_FOUND" },
    });
    const put = await api(h.server, h.alice, "PUT", rule("override", ".m.rule.custom"), {
      actions: [],
      conditions: [],
    });
    expect(put).toMatchObject({ status: 400, body: { errcode: "M_UNKNOWN" } });
    expect(await ids(h.alice, "override")).toContain(".m.rule.master");
  });

  it("validates rule bodies and anchors", async () => {
    const put = (id: string, body: unknown, kind = "override", q = "") =>
      api(h.server, h.alice, "PUT", rule(kind, id) + q, body);
    expect((await put("x", { conditions: [] })).body["errcode"]).toBe("M_UNKNOWN");
    expect((await put("x", { actions: "notify", conditions: [] })).body["errcode"]).toBe("M_UNKNOWN");
    expect((await put("x", { actions: ["explode"], conditions: [] })).body["errcode"]).toBe("M_UNKNOWN");
    expect((await put("x", { actions: [] })).body["errcode"]).toBe("M_UNKNOWN");
    expect((await put("x", { actions: [], conditions: [{ key: "type" }] })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect((await put("x", { actions: [], conditions: "all" })).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await put("x", { actions: [] }, "content")).body["errcode"]).toBe("M_UNKNOWN");
    expect((await put("x", { actions: [], conditions: [] }, "override", "?before=missing")).status).toBe(400);
    expect(
      (await put("x", { actions: [], conditions: [] }, "override", "?after=.m.rule.master")).status,
    ).toBe(400);
    expect((await put("a/b", { actions: [], conditions: [] })).status).toBe(400);
    expect((await put("x", "[]")).status).toBe(400);
    expect((await ids(h.alice, "override")).includes("x")).toBe(false);
  });

  it("enables, disables and changes the actions of default and user rules", async () => {
    const master = rule("override", ".m.rule.master");
    expect((await api(h.server, h.alice, "PUT", `${master}/enabled`, { enabled: true })).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", master)).body).toMatchObject({
      enabled: true,
      default: true,
    });
    await api(h.server, h.alice, "PUT", `${master}/enabled`, { enabled: false });
    const msg = rule("underride", ".m.rule.message");
    const actions = ["notify", { set_tweak: "sound", value: "default" }];
    expect((await api(h.server, h.alice, "PUT", `${msg}/actions`, { actions })).status).toBe(200);
    expect((await api(h.server, h.alice, "GET", `${msg}/actions`)).body).toEqual({ actions });
    expect(
      (await api(h.server, h.alice, "PUT", `${master}/enabled`, { enabled: "yes" })).body["errcode"],
    ).toBe("M_INVALID_PARAM");
    expect((await api(h.server, h.alice, "PUT", `${master}/enabled`, {})).body["errcode"]).toBe(
      "M_MISSING_PARAM",
    );
    expect((await api(h.server, h.alice, "PUT", `${msg}/actions`, { actions: [42] })).status).toBe(400);
    expect(
      (await api(h.server, h.alice, "PUT", `${rule("override", "ghost")}/enabled`, { enabled: true })).status,
    ).toBe(404);
    // Another user's defaults are untouched.
    expect((await api(h.server, h.bob, "GET", `${msg}/actions`)).body).toEqual({ actions: ["notify"] });
  });

  it("reports every change as m.push_rules global account data in sync", async () => {
    const s0 = await sync(h, h.carol);
    await api(h.server, h.carol, "PUT", `${rule("override", ".m.rule.master")}/enabled`, { enabled: true });
    const s1 = await sync(h, h.carol, String(s0["next_batch"]));
    const events = dig(s1, "account_data", "events") as Array<{ type: string; content: unknown }>;
    const pushRules = events.find((e) => e.type === "m.push_rules");
    expect(dig(pushRules?.content, "global", "override", "0")).toMatchObject({
      rule_id: ".m.rule.master",
      enabled: true,
    });
    const s2 = await sync(h, h.carol, String(s1["next_batch"]));
    expect(((dig(s2, "account_data", "events") as unknown[] | undefined) ?? []).length).toBe(0);
  });
});
