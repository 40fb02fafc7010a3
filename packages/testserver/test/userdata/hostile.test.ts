/**
 * Hostile input against every userdata route: wrong JSON types, prototype
 * keys, deep nesting and huge strings must get a 4xx (or a 200 where the
 * input is legal data), never a 500 or a hung request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createRoom, enc, send, startHarness, text, V3 } from "./harness";
import type { Harness } from "./harness";

let h: Harness;
let routes: Array<[string, string]>;

beforeAll(async () => {
  h = await startHarness();
  const roomId = await createRoom(h, h.alice, [h.bob]);
  const eventId = await send(h, h.bob, roomId, text("target"));
  const u = enc(h.alice.userId);
  const r = enc(roomId);
  const e = enc(eventId);
  routes = [
    ["PUT", `${V3}/user/${u}/account_data/x.y`],
    ["PUT", `${V3}/user/${u}/rooms/${r}/account_data/x.y`],
    ["PUT", `${V3}/user/${u}/rooms/${r}/tags/u.t`],
    ["DELETE", `/_matrix/client/unstable/org.matrix.msc3391/user/${u}/account_data/x.y`],
    ["POST", `${V3}/rooms/${r}/receipt/m.read/${e}`],
    ["POST", `${V3}/rooms/${r}/read_markers`],
    ["PUT", `${V3}/rooms/${r}/typing/${u}`],
    ["PUT", `${V3}/presence/${u}/status`],
    ["PUT", `${V3}/pushrules/global/override/hostile`],
    ["PUT", `${V3}/pushrules/global/content/hostile`],
    ["PUT", `${V3}/pushrules/global/override/.m.rule.master/enabled`],
    ["PUT", `${V3}/pushrules/global/underride/.m.rule.message/actions`],
    ["POST", `${V3}/pushers/set`],
    ["POST", `${V3}/user/${u}/filter`],
    ["POST", `/_matrix/client/unstable/org.matrix.msc4140/delayed_events/syd_x`],
  ];
});
afterAll(() => h.server.stop());

function nested(depth: number): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = { a: [v] };
  return v;
}

const BODIES: unknown[] = [
  "null",
  "[]",
  '"text"',
  "42",
  "true",
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
  { typing: "x", presence: 7, actions: { a: 1 }, conditions: [null], pattern: 3, thread_id: [], kind: {} },
  {
    actions: ["notify"],
    conditions: [{ kind: "event_match", key: "a".repeat(100_000), pattern: "*".repeat(10_000) }],
  },
  { "m.read": "$" + "x".repeat(200_000), "m.fully_read": null, status_msg: "y".repeat(200_000) },
  nested(2000),
];

describe("hostile bodies", () => {
  it("never crash a userdata route", async () => {
    for (const [method, path] of routes) {
      for (const body of BODIES) {
        const res = await api(h.server, h.alice, method, path, body);
        expect(res.status, `${method} ${path} with ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("keep working afterwards", async () => {
    const res = await api(h.server, h.alice, "GET", `${V3}/pushrules/`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body["global"] as object).sort()).toEqual([
      "content",
      "override",
      "room",
      "sender",
      "underride",
    ]);
  });
});
