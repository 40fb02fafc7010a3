/**
 * Login: the SSO redirect URL, and the stable-to-older prefix fallbacks of
 * /refresh and /login/get_token, run through the real HTTP client over a
 * fake fetch so the fallback chain itself is exercised.
 */
import { getSpecValidator } from "@lattice/testserver/spec";
import { describe, expect, it } from "vitest";
import { createHttpClient } from "../http/client";
import type { FetchFn } from "../http/client";
import { getLoginToken, refresh, ssoRedirectUrl } from "./login";

describe("ssoRedirectUrl", () => {
  it("builds the redirect URL with an encoded redirectUrl", () => {
    expect(ssoRedirectUrl("https://matrix.example.org/", "https://app.example.org/?a=1&b=two words")).toBe(
      "https://matrix.example.org/_matrix/client/v3/login/sso/redirect?redirectUrl=" +
        encodeURIComponent("https://app.example.org/?a=1&b=two words"),
    );
  });

  it("adds an encoded identity provider id and the action", () => {
    const url = new URL(
      ssoRedirectUrl("https://matrix.example.org", "https://app.example.org/", {
        idpId: "oidc/git hub",
        action: "register",
      }),
    );
    expect(url.pathname).toBe("/_matrix/client/v3/login/sso/redirect/oidc%2Fgit%20hub");
    expect(url.searchParams.get("redirectUrl")).toBe("https://app.example.org/");
    expect(url.searchParams.get("action")).toBe("register");
  });

  it.each([{}, { idpId: "oidc-github" }, { idpId: "saml", action: "login" as const }])(
    "builds a request the spec accepts (%j)",
    (options) => {
      const url = new URL(
        ssoRedirectUrl("https://hs.example.org", "https://app.example.org/#/login", options),
      );
      const result = getSpecValidator().validateRequest({
        method: "GET",
        path: url.pathname,
        query: url.searchParams,
      });
      expect(result.operation?.operationId).toBe(
        options.idpId === undefined ? "redirectToSSO" : "redirectToIdP",
      );
      expect(result.errors).toEqual([]);
    },
  );
});

/** A fake fetch answering unrecognised for every path not in `known`, recording the paths asked. */
function fakeServer(known: Record<string, unknown>, unrecognised: { status: number; errcode: string }) {
  const seen: Array<{ method: string; path: string; auth: string | null; body: unknown }> = [];
  const fetch: FetchFn = (input, init) => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    seen.push({
      method: init.method ?? "GET",
      path: url.pathname,
      auth: headers.get("authorization"),
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const answer = known[url.pathname];
    const [status, body] =
      answer === undefined
        ? [unrecognised.status, { errcode: unrecognised.errcode, error: "Unrecognized request" }]
        : [200, answer];
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }),
    );
  };
  return {
    seen,
    http: createHttpClient({
      baseUrl: "https://hs.example.org",
      accessToken: "old_token",
      fetch,
      retry: false,
    }),
  };
}

describe("refresh fallback", () => {
  it.each([
    [404, "M_UNRECOGNIZED"],
    [405, "M_UNRECOGNIZED"],
    [400, "M_UNRECOGNIZED"],
  ])("falls back from v3 to v1 on %i %s", async (status, errcode) => {
    const answer = { access_token: "new_token", expires_in_ms: 60000 };
    const { seen, http } = fakeServer({ "/_matrix/client/v1/refresh": answer }, { status, errcode });
    await expect(refresh(http, "rt")).resolves.toEqual(answer);
    expect(seen.map((s) => s.path)).toEqual(["/_matrix/client/v3/refresh", "/_matrix/client/v1/refresh"]);
    expect(seen.every((s) => s.auth === null && s.method === "POST")).toBe(true);
    expect(seen[1]?.body).toEqual({ refresh_token: "rt" });
  });

  it("reaches r0 on the oldest servers", async () => {
    const answer = { access_token: "new_token" };
    const { seen, http } = fakeServer(
      { "/_matrix/client/r0/refresh": answer },
      { status: 404, errcode: "M_UNRECOGNIZED" },
    );
    await expect(refresh(http, "rt")).resolves.toEqual(answer);
    expect(seen.map((s) => s.path)).toEqual([
      "/_matrix/client/v3/refresh",
      "/_matrix/client/v1/refresh",
      "/_matrix/client/r0/refresh",
    ]);
  });

  it("does not fall back on an unknown refresh token", async () => {
    const { seen, http } = fakeServer({}, { status: 401, errcode: "M_UNKNOWN_TOKEN" });
    await expect(refresh(http, "rt")).rejects.toMatchObject({ errcode: "M_UNKNOWN_TOKEN", httpStatus: 401 });
    expect(seen).toHaveLength(1);
  });
});

describe("get_token fallback", () => {
  it("uses v1 when the server has it", async () => {
    const answer = { login_token: "lt", expires_in_ms: 120000 };
    const { seen, http } = fakeServer(
      { "/_matrix/client/v1/login/get_token": answer },
      { status: 404, errcode: "M_UNRECOGNIZED" },
    );
    await expect(getLoginToken(http)).resolves.toEqual(answer);
    expect(seen.map((s) => s.path)).toEqual(["/_matrix/client/v1/login/get_token"]);
    expect(seen[0]?.auth).toBe("Bearer old_token");
    expect(seen[0]?.body).toEqual({});
  });

  it("falls back to MSC3882's unstable prefix", async () => {
    const answer = { login_token: "lt", expires_in_ms: 120000 };
    const { seen, http } = fakeServer(
      { "/_matrix/client/unstable/org.matrix.msc3882/login/get_token": answer },
      { status: 400, errcode: "M_UNRECOGNIZED" },
    );
    await expect(getLoginToken(http, { type: "m.login.password", session: "s" })).resolves.toEqual(answer);
    expect(seen.map((s) => s.path)).toEqual([
      "/_matrix/client/v1/login/get_token",
      "/_matrix/client/unstable/org.matrix.msc3882/login/get_token",
    ]);
    expect(seen[1]?.body).toEqual({ auth: { type: "m.login.password", session: "s" } });
  });
});
