/**
 * Contract cases of the login family. The SSO redirect URL is a pure
 * function; its case follows the URL as a browser would (without following
 * the redirect), so the server checks the path and query it builds.
 */
import type { ContractCase } from "../types";
import { runnerBaseUrl } from "./contract-runner-url";
import * as api from "../../../src/api/login";

export const cases: ContractCase[] = [
  {
    name: "ssoRedirectUrl",
    call: async (http) =>
      (await fetch(api.ssoRedirectUrl(runnerBaseUrl(http), "https://app.example/cb"), { redirect: "manual" }))
        .status,
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/login/sso/redirect",
      query: { redirectUrl: "https://app.example/cb" },
    },
    response: { status: 302 },
    check: (status) => {
      if (status !== 302) throw new Error(`expected the server's 302, got ${String(status)}`);
    },
  },
  {
    name: "getLoginFlows",
    call: (http) => api.getLoginFlows(http),
    expect: { method: "GET", path: "/_matrix/client/v3/login" },
    response: {
      body: {
        flows: [
          { type: "m.login.password" },
          { type: "m.login.token", get_login_token: true },
          {
            type: "m.login.sso",
            identity_providers: [{ id: "oidc-github", name: "GitHub", brand: "github" }],
          },
        ],
      },
    },
  },
  {
    name: "login",
    call: (http) =>
      api.login(http, {
        type: "m.login.password",
        identifier: { type: "m.id.user", user: "cheeky_monkey" },
        password: "ilovebananas",
        initial_device_display_name: "Jungle Phone",
        refresh_token: true,
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/login",
      body: {
        type: "m.login.password",
        identifier: { type: "m.id.user", user: "cheeky_monkey" },
        password: "ilovebananas",
        initial_device_display_name: "Jungle Phone",
        refresh_token: true,
      },
    },
    response: {
      body: {
        user_id: "@cheeky_monkey:matrix.org",
        access_token: "abc123",
        device_id: "GHTYAJCE",
        refresh_token: "def456",
        expires_in_ms: 60000,
        well_known: { "m.homeserver": { base_url: "https://example.org" } },
      },
    },
  },
  {
    name: "login",
    call: (http) =>
      api.login(http, {
        type: "m.login.password",
        identifier: { type: "m.id.thirdparty", medium: "email", address: "alice@example.org" },
        password: "ilovebananas",
        device_id: "GHTYAJCE",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/login",
      body: {
        type: "m.login.password",
        identifier: { type: "m.id.thirdparty", medium: "email", address: "alice@example.org" },
        password: "ilovebananas",
        device_id: "GHTYAJCE",
      },
    },
    response: { body: { user_id: "@alice:example.org", access_token: "abc123", device_id: "GHTYAJCE" } },
  },
  {
    name: "login",
    call: (http) => api.login(http, { type: "m.login.token", token: "loginTokenFromSso" }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/login",
      body: { type: "m.login.token", token: "loginTokenFromSso" },
    },
    response: { body: { user_id: "@alice:example.org", access_token: "abc123", device_id: "NEWDEVICE" } },
  },
  {
    name: "getLoginToken",
    call: (http) =>
      api.getLoginToken(http, { type: "m.login.password", session: "xxxxx", password: "hunter2" }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v1/login/get_token",
      body: { auth: { type: "m.login.password", session: "xxxxx", password: "hunter2" } },
    },
    response: { body: { login_token: "<opaque string>", expires_in_ms: 120000 } },
  },
  {
    name: "refresh",
    call: (http) => api.refresh(http, "some_token"),
    expect: { method: "POST", path: "/_matrix/client/v3/refresh", body: { refresh_token: "some_token" } },
    response: {
      body: { access_token: "a_new_token", expires_in_ms: 60000, refresh_token: "another_new_token" },
    },
  },
  {
    name: "logout",
    call: (http) => api.logout(http),
    expect: { method: "POST", path: "/_matrix/client/v3/logout" },
    response: { body: {} },
  },
  {
    name: "logoutAll",
    call: (http) => api.logoutAll(http),
    expect: { method: "POST", path: "/_matrix/client/v3/logout/all" },
    response: { body: {} },
  },
];
