/**
 * The OpenAPI validator against the real definitions (the committed bundle,
 * which every clone has): operation lookup (prefixes, parameters,
 * literal-over-parameter, empty state keys), valid and invalid requests and
 * responses for a few operations, and event schemas.
 */
import { describe, expect, it } from "vitest";
import { EventValidator, getSpecValidator } from "./index";

const spec = getSpecValidator();

describe("operation index", () => {
  it("loads client-server and identity operations with their prefixes", () => {
    const templates = new Set(spec.operations.map((o) => `${o.method} ${o.template}`));
    expect(templates.has("PUT /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}")).toBe(true);
    expect(templates.has("GET /_matrix/client/v1/rooms/{roomId}/hierarchy")).toBe(true);
    expect(templates.has("POST /_matrix/identity/v2/lookup")).toBe(true);
    expect(templates.has("GET /_matrix/client/versions")).toBe(true);
    expect(templates.has("GET /_matrix/media/v3/config")).toBe(true);
    expect(spec.operations.length).toBeGreaterThan(150);
  });

  it("matches concrete paths, decoding parameters", () => {
    const m = spec.find("PUT", "/_matrix/client/v3/rooms/!r%3Ahs/send/m.room.message/m1.2");
    expect(m?.operation.operationId).toBe("sendMessage");
    expect({ ...m?.params }).toEqual({ roomId: "!r:hs", eventType: "m.room.message", txnId: "m1.2" });
  });

  it("prefers literal segments over parameters", () => {
    expect(spec.find("GET", "/_matrix/client/v3/rooms/!r%3Ahs/joined_members")?.operation.template).toBe(
      "/_matrix/client/v3/rooms/{roomId}/joined_members",
    );
    expect(
      spec.find("PUT", "/_matrix/client/v3/pushrules/global/override/rule1/enabled")?.operation.template,
    ).toBe("/_matrix/client/v3/pushrules/global/{kind}/{ruleId}/enabled");
  });

  it("matches an empty state key, with or without the trailing slash", () => {
    for (const path of [
      "/_matrix/client/v3/rooms/!r/state/m.room.name/",
      "/_matrix/client/v3/rooms/!r/state/m.room.name",
    ]) {
      const m = spec.find("PUT", path);
      expect(m?.operation.template).toBe("/_matrix/client/v3/rooms/{roomId}/state/{eventType}/{stateKey}");
      expect(m?.params["stateKey"]).toBe("");
    }
  });

  it("finds nothing for unknown paths or methods", () => {
    expect(spec.find("GET", "/_matrix/client/v3/nope")).toBeUndefined();
    expect(spec.find("PATCH", "/_matrix/client/v3/account/whoami")).toBeUndefined();
    expect(spec.validateRequest({ method: "GET", path: "/_matrix/client/v3/nope" }).errors).toEqual([
      "No operation in the Matrix spec for GET /_matrix/client/v3/nope",
    ]);
  });
});

describe("requests", () => {
  it("accepts a valid send and rejects a body that is not an object", () => {
    const path = "/_matrix/client/v3/rooms/!r%3Ahs/send/m.room.message/m1.2";
    expect(
      spec.validateRequest({ method: "PUT", path, body: { msgtype: "m.text", body: "hi" } }).errors,
    ).toEqual([]);
    expect(spec.validateRequest({ method: "PUT", path, body: "hi" }).errors.length).toBeGreaterThan(0);
  });

  it("coerces and checks query parameters", () => {
    const path = "/_matrix/client/v3/sync";
    const ok = spec.validateRequest({
      method: "GET",
      path,
      query: new URLSearchParams("timeout=30000&full_state=true"),
    });
    expect(ok.errors).toEqual([]);
    const bad = spec.validateRequest({
      method: "GET",
      path,
      query: {
        timeout: "soon",
        set_presence: "away",
        bogus: "1",
        "org.matrix.msc4222.use_state_after": "true",
      },
    });
    expect(bad.errors).toContain("query parameter timeout must be integer");
    expect(
      bad.errors.some((e) =>
        e.startsWith("query parameter set_presence must be equal to one of the allowed values"),
      ),
    ).toBe(true);
    expect(bad.errors).toContain("query parameter bogus is not defined for sync");
    expect(bad.errors.join()).not.toContain("msc4222");
  });

  it("repeats array query parameters", () => {
    const path = "/_matrix/client/v3/join/%23a%3Ahs";
    expect(
      spec.validateRequest({ method: "POST", path, query: { via: ["a.org", "b.org"] }, body: {} }).errors,
    ).toEqual([]);
  });

  it("reports a missing required field of a request body", () => {
    const path = "/_matrix/client/v3/rooms/!r%3Ahs/kick";
    expect(
      spec.validateRequest({ method: "POST", path, body: { user_id: "@u:hs", reason: "x" } }).errors,
    ).toEqual([]);
    expect(spec.validateRequest({ method: "POST", path, body: { reason: "x" } }).errors).toEqual([
      "request body must have required property 'user_id'",
    ]);
  });

  it("accepts raw upload bodies and rejects JSON where the upload wants bytes", () => {
    const path = "/_matrix/media/v3/upload";
    expect(spec.validateRequest({ method: "POST", path, contentType: "image/png" }).errors).toEqual([]);
    expect(spec.validateRequest({ method: "POST", path, body: { a: 1 } }).errors.length).toBe(1);
  });
});

describe("responses", () => {
  const whoami = { method: "GET", path: "/_matrix/client/v3/account/whoami" };

  it("validates by status code, including documented errors", () => {
    expect(
      spec.validateResponse(whoami, { status: 200, body: { user_id: "@a:hs", device_id: "D" } }).errors,
    ).toEqual([]);
    expect(spec.validateResponse(whoami, { status: 200, body: { device_id: "D" } }).errors).toEqual([
      "response 200 body must have required property 'user_id'",
    ]);
    expect(
      spec.validateResponse(whoami, { status: 401, body: { errcode: "M_UNKNOWN_TOKEN", error: "x" } }).errors,
    ).toEqual([]);
    expect(spec.validateResponse(whoami, { status: 401, body: { error: "x" } }).errors).toEqual([
      "response 401 body must have required property 'errcode'",
    ]);
  });

  it("reports undocumented status codes and formats", () => {
    expect(spec.validateResponse(whoami, { status: 418, body: {} }).errors).toEqual([
      "response status 418 is not documented for getTokenOwner",
    ]);
    expect(spec.validateResponse(whoami, { status: 200, body: { user_id: "not-a-user" } }).errors).toContain(
      'response 200 body/user_id must match format "mx-user-id"',
    );
  });

  it("accepts raw media downloads and rejects JSON there", () => {
    const dl = { method: "GET", path: "/_matrix/client/v1/media/download/hs/abc" };
    expect(spec.validateResponse(dl, { status: 200, contentType: "image/png" }).errors).toEqual([]);
    expect(spec.validateResponse(dl, { status: 200, body: { a: 1 } }).errors.length).toBe(1);
  });
});

describe("events", () => {
  const events = new EventValidator();
  const base = { event_id: "$e", room_id: "!r:hs", sender: "@a:hs", origin_server_ts: 1 };

  it("validates by type and msgtype", () => {
    expect(
      events.validate({ ...base, type: "m.room.message", content: { msgtype: "m.text", body: "hi" } }),
    ).toEqual([]);
    expect(events.validate({ ...base, type: "m.room.message", content: { msgtype: "m.text" } })).toEqual([
      "event m.room.message$m.text/content must have required property 'body'",
    ]);
    expect(
      events.validate({ ...base, type: "m.room.name", state_key: "x", content: { name: "n" } }).join(),
    ).toContain("/state_key");
  });

  it("lets unknown types through and rejects non-objects", () => {
    expect(events.has("m.room.name")).toBe(true);
    expect(events.has("org.example.custom")).toBe(false);
    expect(events.validate({ ...base, type: "org.example.custom", content: {} })).toEqual([]);
    expect(events.validate("nope")).toEqual(["event must be an object"]);
    expect(events.validate({ ...base, type: "../../etc/passwd", content: {} })).toEqual([]);
  });
});

describe("paths defined twice and free-form query objects", () => {
  it("accepts either definition of POST /rooms/{roomId}/invite", () => {
    const path = "/_matrix/client/v3/rooms/!r%3Ahs/invite";
    expect(spec.validateRequest({ method: "POST", path, body: { user_id: "@u:hs" } }).errors).toEqual([]);
    const threepid = { id_server: "id.example", id_access_token: "t", medium: "email", address: "a@b.c" };
    expect(spec.validateRequest({ method: "POST", path, body: threepid }).errors).toEqual([]);
    expect(
      spec.validateRequest({ method: "POST", path, body: { reason: "x" } }).errors.length,
    ).toBeGreaterThan(0);
  });

  it("collects undeclared query parameters into a form-exploded object parameter", () => {
    const path = "/_matrix/client/v3/thirdparty/location/irc";
    expect(
      spec.validateRequest({ method: "GET", path, query: { network: "freenode", channel: "#m" } }).errors,
    ).toEqual([]);
  });

  it("accepts server_name on join, which servers still read", () => {
    const path = "/_matrix/client/v3/join/%23a%3Ahs";
    expect(
      spec.validateRequest({ method: "POST", path, query: { server_name: "hs" }, body: {} }).errors,
    ).toEqual([]);
  });
});

describe("standard errors", () => {
  const sync = { method: "GET", path: "/_matrix/client/v3/sync" };

  it("reports an undocumented error status by default, accepts a standard error body when asked", () => {
    const body = { errcode: "M_LIMIT_EXCEEDED", error: "slow down", retry_after_ms: 100 };
    expect(spec.validateResponse(sync, { status: 429, body }).errors).toEqual([
      "response status 429 is not documented for sync",
    ]);
    expect(spec.validateResponse(sync, { status: 429, body }, { standardErrors: true }).errors).toEqual([]);
    expect(
      spec.validateResponse(sync, { status: 429, body: { error: 1 } }, { standardErrors: true }).errors,
    ).toEqual([
      "response 429 body must have required property 'errcode'",
      "response 429 body/error must be string",
    ]);
  });
});
