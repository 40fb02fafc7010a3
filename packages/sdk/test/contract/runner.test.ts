/**
 * The contract runner must be able to fail: synthetic cases with a wrong
 * path, query or body, a request the spec rejects, a canned response the
 * spec rejects, and extra requests each produce a readable problem, while a
 * correct case (including a bodiless 302, as the SSO redirect gives) passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSpecValidator } from "@lattice/testserver/spec";
import type { HttpApi } from "../../src/http";
import { runCase } from "./run";
import { startContractServer } from "./server";
import type { ContractServer } from "./server";
import type { ContractCase } from "./types";

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer(getSpecValidator());
});
afterAll(async () => {
  await server.close();
});

const kick = (http: HttpApi, body: unknown): Promise<unknown> =>
  http.request({ method: "POST", path: "/rooms/!r%3Ahs/kick", body });

const good: ContractCase = {
  name: "kick",
  call: (http) => kick(http, { user_id: "@u:hs", reason: "spam" }),
  expect: {
    method: "POST",
    path: "/_matrix/client/v3/rooms/!r%3Ahs/kick",
    body: { user_id: "@u:hs", reason: "spam" },
  },
  response: { body: {} },
};

describe("contract runner", () => {
  it("passes a correct case", async () => {
    expect(await runCase(server, good)).toEqual([]);
  });

  it("reports a different path, query and body", async () => {
    const problems = await runCase(server, {
      ...good,
      call: (http) =>
        http.request({
          method: "POST",
          path: "/rooms/!r%3Ahs/ban",
          query: { extra: "1" },
          body: { user_id: "@v:hs" },
        }),
    });
    expect(problems).toContain(
      "path: expected /_matrix/client/v3/rooms/!r%3Ahs/kick, got /_matrix/client/v3/rooms/!r%3Ahs/ban",
    );
    expect(problems).toContain('query extra: not expected, got ["1"]');
    expect(problems.some((p) => p.startsWith('body: expected {"user_id":"@u:hs","reason":"spam"}'))).toBe(
      true,
    );
  });

  it("reports a request the spec rejects even when it matches expect", async () => {
    const problems = await runCase(server, {
      ...good,
      call: (http) => kick(http, { reason: "no user" }),
      expect: { ...good.expect, body: { reason: "no user" } },
    });
    expect(problems).toEqual(["spec (request): request body must have required property 'user_id'"]);
  });

  it("reports a canned response the spec rejects", async () => {
    const problems = await runCase(server, {
      name: "whoami",
      call: (http) => http.request({ method: "GET", path: "/account/whoami" }),
      expect: { method: "GET", path: "/_matrix/client/v3/account/whoami" },
      response: { body: { device_id: "D" } },
    });
    expect(problems).toEqual([
      "spec (canned response): response 200 body must have required property 'user_id'",
    ]);
  });

  it("reports a missing access token where the operation requires one", async () => {
    const problems = await runCase(server, {
      name: "whoami",
      call: (http) => http.request({ method: "GET", path: "/account/whoami", authenticated: false }),
      expect: { method: "GET", path: "/_matrix/client/v3/account/whoami" },
      response: { body: { user_id: "@a:hs" } },
    });
    expect(problems).toEqual(["spec (request): no access token, but the operation requires one"]);
  });

  it("reports a failed check and extra requests", async () => {
    const failed = await runCase(server, {
      ...good,
      check: () => {
        throw new Error("result not read");
      },
    });
    expect(failed).toEqual(["check failed: Error: result not read"]);
    const twice = await runCase(server, {
      ...good,
      call: async (http) => {
        await kick(http, good.expect.body);
        return kick(http, good.expect.body);
      },
    });
    expect(twice.some((p) => p.startsWith("expected one request, got 2"))).toBe(true);
  });

  it("validates a bodiless redirect such as the SSO redirect", async () => {
    const problems = await runCase(server, {
      name: "ssoRedirect (http-level example)",
      call: async (http) => {
        const { baseUrl } = http as HttpApi & { baseUrl: string };
        const url = `${baseUrl}/_matrix/client/v3/login/sso/redirect?redirectUrl=${encodeURIComponent("https://app.example/cb")}`;
        const res = await fetch(url, { redirect: "manual" });
        return res.status;
      },
      expect: {
        method: "GET",
        path: "/_matrix/client/v3/login/sso/redirect",
        query: { redirectUrl: "https://app.example/cb" },
      },
      response: { status: 302 },
      check: (status) => {
        if (status !== 302) throw new Error(`status ${String(status)}`);
      },
    });
    expect(problems).toEqual([]);
  });
});
