/**
 * Narrowing the interactive-auth 401 answer: well-formed parts are kept,
 * malformed ones dropped, nothing untrusted crashes or reaches a prototype.
 */
import { describe, expect, it } from "vitest";
import { ConnectionError, MatrixError } from "../http/errors";
import { authResponseOf, parseAuthResponse } from "./uia";

const sample = {
  flows: [{ stages: ["m.login.password"] }, { stages: ["m.login.email.identity", "m.login.recaptcha"] }],
  params: { "m.login.recaptcha": { public_key: "6Le31_kSAAAAAK-54VKccKamtr-MFA_3WS1d_fGV" } },
  session: "xxxxxx",
  completed: ["m.login.email.identity"],
};

describe("parseAuthResponse", () => {
  it("keeps a well-formed answer", () => {
    expect(parseAuthResponse(sample)).toEqual(sample);
  });

  it("keeps errcode and error of a failed stage", () => {
    const parsed = parseAuthResponse({ ...sample, errcode: "M_FORBIDDEN", error: "Invalid password" });
    expect(parsed?.errcode).toBe("M_FORBIDDEN");
    expect(parsed?.error).toBe("Invalid password");
  });

  it.each([null, undefined, 1, "x", [], {}, { flows: "m.login.password" }, { flows: null }])(
    "gives null for %j",
    (data) => {
      expect(parseAuthResponse(data)).toBeNull();
    },
  );

  it("drops malformed flows, params, session and completed", () => {
    const parsed = parseAuthResponse({
      flows: [{ stages: ["a"] }, { stages: ["b", 2] }, null, "c", { stages: "d" }, {}],
      params: { good: { k: 1 }, bad: "x", worse: null },
      session: 42,
      completed: ["a", null],
    });
    expect(parsed?.flows).toEqual([{ stages: ["a"] }]);
    expect(Object.keys(parsed?.params ?? {})).toEqual(["good"]);
    expect(parsed).not.toHaveProperty("session");
    expect(parsed).not.toHaveProperty("completed");
  });

  it("keeps a stage named __proto__ as data", () => {
    const parsed = parseAuthResponse(JSON.parse('{"flows":[],"params":{"__proto__":{"polluted":true}}}'));
    const params = parsed?.params ?? {};
    expect(Object.keys(params)).toEqual(["__proto__"]);
    expect(params["__proto__"]).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("authResponseOf", () => {
  it("reads a 401 MatrixError's data", () => {
    const err = new MatrixError({
      errcode: "M_UNKNOWN",
      error: "auth needed",
      httpStatus: 401,
      data: sample,
    });
    expect(authResponseOf(err)?.session).toBe("xxxxxx");
  });

  it("gives null for anything else", () => {
    expect(
      authResponseOf(new MatrixError({ errcode: "M_FORBIDDEN", error: "no", httpStatus: 403, data: sample })),
    ).toBeNull();
    expect(
      authResponseOf(new MatrixError({ errcode: "M_UNKNOWN_TOKEN", error: "no", httpStatus: 401, data: {} })),
    ).toBeNull();
    expect(authResponseOf(new ConnectionError("network", "down"))).toBeNull();
    expect(authResponseOf(new Error("x"))).toBeNull();
    expect(authResponseOf(undefined)).toBeNull();
  });
});
