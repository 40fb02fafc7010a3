/**
 * Hostile and malformed input across the accounts endpoints: wrong types,
 * `__proto__` ids, huge strings and bodies. Every answer must be a clear
 * Matrix error (or a harmless success), never a crash or a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, login, register, validateAgainstSpec } from "./helpers";
import type { Session } from "./helpers";

const V3 = "/_matrix/client/v3";
let server: TestServerHandle;
let specErrors: () => string[];
let amy: Session;

beforeAll(async () => {
  server = await startTestServer({ seed: 12, registrationFlows: [["m.login.password"], ["m.login.dummy"]] });
  specErrors = validateAgainstSpec(server);
  amy = await register(server, "amy", "pw-amy");
});
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

describe("hostile input", () => {
  it("answers typed errors for wrong shapes on every family", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/login", { type: "m.login.password", identifier: "x", password: "p" }, "M_MISSING_PARAM"],
      ["POST", "/login", { type: 1 }, "M_INVALID_PARAM"],
      ["POST", "/register", { username: ["a"] }, "M_INVALID_PARAM"],
      ["POST", "/refresh", { refresh_token: {} }, "M_INVALID_PARAM"],
      ["PUT", `/profile/${amy.userId}/displayname`, [1, 2], "M_BAD_JSON"],
      ["POST", "/user_directory/search", { search_term: "a", limit: -1 }, "M_INVALID_PARAM"],
      ["PUT", "/sendToDevice/m.x/t1", { messages: [] }, "M_INVALID_PARAM"],
      ["PUT", "/sendToDevice/m.x/t2", { messages: { [amy.userId]: 5 } }, "M_BAD_JSON"],
      ["POST", "/keys/query", { device_keys: { [amy.userId]: "all" } }, "M_INVALID_PARAM"],
      ["POST", "/keys/claim", { one_time_keys: { [amy.userId]: { X: 5 } } }, "M_INVALID_PARAM"],
      ["POST", "/keys/upload", { one_time_keys: { nocolon: "k" } }, "M_INVALID_PARAM"],
      ["POST", "/keys/upload", { device_keys: "x" }, "M_INVALID_PARAM"],
      ["POST", "/keys/signatures/upload", { [amy.userId]: 7 }, "M_INVALID_PARAM"],
      [
        "POST",
        "/keys/device_signing/upload",
        { master_key: { user_id: "@other:localhost", keys: {}, usage: [] } },
        "M_INVALID_PARAM",
      ],
      ["POST", "/room_keys/version", { algorithm: "a" }, "M_MISSING_PARAM"],
      ["POST", "/account/3pid/add", { client_secret: "ok", sid: 5 }, "M_INVALID_PARAM"],
      [
        "POST",
        "/account/3pid/email/requestToken",
        { client_secret: "ok", email: "not-an-email", send_attempt: 1 },
        "M_INVALID_PARAM",
      ],
      [
        "POST",
        "/account/3pid/email/requestToken",
        { client_secret: "ok", email: "a@b.c", send_attempt: "1" },
        "M_INVALID_PARAM",
      ],
      [
        "POST",
        "/account/3pid/msisdn/requestToken",
        { client_secret: "ok", country: "ZZ", phone_number: "123", send_attempt: 1 },
        "M_INVALID_PARAM",
      ],
    ];
    for (const [method, path, body, errcode] of cases) {
      const res = await call(server, method, V3 + path, body, amy.accessToken);
      expect(res.body["errcode"], `${method} ${path}`).toBe(errcode);
    }
  });

  it("treats __proto__ and friends as plain ids", async () => {
    const proto = '{"device_keys": {"__proto__": [], "constructor": []}}';
    const q = await call(server, "POST", `${V3}/keys/query`, proto, amy.accessToken);
    expect(q.status).toBe(200);
    expect(JSON.stringify(q.body["device_keys"])).toBe('{"__proto__":{},"constructor":{}}');
    const claim = await call(
      server,
      "POST",
      `${V3}/keys/claim`,
      '{"one_time_keys": {"__proto__": {"__proto__": "signed_curve25519"}}}',
      amy.accessToken,
    );
    expect(claim.status).toBe(200);
    const v = await call(
      server,
      "POST",
      `${V3}/room_keys/version`,
      { algorithm: "m.megolm_backup.v1.curve25519-aes-sha2", auth_data: {} },
      amy.accessToken,
    );
    const version = v.body["version"] as string;
    const data = { first_message_index: 0, forwarded_count: 0, is_verified: false, session_data: {} };
    expect(
      (
        await call(
          server,
          "PUT",
          `${V3}/room_keys/keys/__proto__/__proto__?version=${version}`,
          data,
          amy.accessToken,
        )
      ).status,
    ).toBe(200);
    const back = await call(
      server,
      "GET",
      `${V3}/room_keys/keys?version=${version}`,
      undefined,
      amy.accessToken,
    );
    expect(JSON.stringify(back.body)).toBe(
      `{"rooms":{"__proto__":{"sessions":{"__proto__":${JSON.stringify(data)}}}}}`,
    );
    expect((await call(server, "GET", `${V3}/profile/__proto__`)).status).toBe(404);
    expect(
      (await call(server, "GET", `${V3}/admin/whois/__proto__`, undefined, amy.accessToken)).status,
    ).toBe(403);
    expect((await login(server, "__proto__", "x")).status).toBe(403);
    expect((await call(server, "GET", `${V3}/register/available?username=constructor`)).body).toEqual({
      available: true,
    });
  });

  it("bounds huge strings and bodies", async () => {
    const name = await call(
      server,
      "PUT",
      `${V3}/profile/${amy.userId}/displayname`,
      { displayname: "n".repeat(100_000) },
      amy.accessToken,
    );
    expect(name.body["errcode"]).toBe("M_INVALID_PARAM");
    const big = await call(
      server,
      "POST",
      `${V3}/user_directory/search`,
      { search_term: "x".repeat(20 * 1024 * 1024) },
      amy.accessToken,
    );
    expect(big.status).toBe(413);
    const pw = await call(server, "POST", `${V3}/login`, {
      type: "m.login.password",
      user: "amy",
      password: "p".repeat(10_000),
    });
    expect(pw.body["errcode"]).toBe("M_INVALID_PARAM");
  });

  it("registers through an m.login.password stage that repeats the chosen password", async () => {
    const first = await call(server, "POST", `${V3}/register`, { username: "ben", password: "pw-ben" });
    expect(first.body["flows"]).toEqual([{ stages: ["m.login.password"] }, { stages: ["m.login.dummy"] }]);
    const session = first.body["session"];
    const wrong = await call(server, "POST", `${V3}/register`, {
      username: "ben",
      password: "pw-ben",
      auth: { type: "m.login.password", password: "other", session },
    });
    expect(wrong).toMatchObject({ status: 401, body: { errcode: "M_FORBIDDEN" } });
    const ok = await call(server, "POST", `${V3}/register`, {
      username: "ben",
      password: "pw-ben",
      auth: { type: "m.login.password", password: "pw-ben", session },
    });
    expect(ok.status).toBe(200);
    const unknownStage = await call(server, "POST", `${V3}/register`, {
      username: "bo",
      auth: { type: "m.login.sso" },
    });
    expect(unknownStage).toMatchObject({ status: 401, body: { errcode: "M_UNRECOGNIZED" } });
  });
});
