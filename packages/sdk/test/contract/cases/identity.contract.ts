/**
 * Contract cases of the identity service API v2 (api/identity/*.yaml). The
 * runner's loopback URL stands in for the identity server.
 */
import type { ContractCase } from "../types";
import type { HttpApi } from "../../../src/http/types";
import { expectThat, runnerBaseUrl } from "./contract-runner-url";
import * as identity from "../../../src/api/identity";

const TOKEN = "abc123_identity_token";
const on = (http: HttpApi): identity.IdentityServer => ({ baseUrl: runnerBaseUrl(http), accessToken: TOKEN });
const openId = {
  access_token: "SomeT0kenHere",
  token_type: "Bearer",
  matrix_server_name: "example.com",
  expires_in: 3600,
};

export const cases: ContractCase[] = [
  {
    name: "registerAccount",
    call: (http) => identity.registerAccount(http, { baseUrl: runnerBaseUrl(http) }, openId),
    expect: { method: "POST", path: "/_matrix/identity/v2/account/register", body: openId },
    response: { body: { token: TOKEN } },
    check: (r) => expectThat((r as { token: string }).token === TOKEN, "token not read"),
  },
  {
    name: "getAccount",
    call: (http) => identity.getAccount(http, on(http)),
    expect: { method: "GET", path: "/_matrix/identity/v2/account" },
    response: { body: { user_id: "@alice:example.org" } },
  },
  {
    name: "requestEmailToken",
    call: (http) =>
      identity.requestEmailToken(http, on(http), {
        client_secret: "monkeys_are_GREAT",
        email: "alice@example.org",
        send_attempt: 1,
        next_link: "https://example.org/congratulations.html",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/validate/email/requestToken",
      body: {
        client_secret: "monkeys_are_GREAT",
        email: "alice@example.org",
        send_attempt: 1,
        next_link: "https://example.org/congratulations.html",
      },
    },
    response: { body: { sid: "123abc" } },
  },
  {
    name: "requestMsisdnToken",
    call: (http) =>
      identity.requestMsisdnToken(http, on(http), {
        client_secret: "monkeys_are_GREAT",
        country: "GB",
        phone_number: "07700900001",
        send_attempt: 1,
      }),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/validate/msisdn/requestToken",
      body: {
        client_secret: "monkeys_are_GREAT",
        country: "GB",
        phone_number: "07700900001",
        send_attempt: 1,
      },
    },
    response: { body: { sid: "123abc" } },
  },
  {
    name: "submitMsisdnToken",
    call: (http) =>
      identity.submitMsisdnToken(http, on(http), {
        sid: "1234",
        client_secret: "monkeys_are_GREAT",
        token: "atoken",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/validate/msisdn/submitToken",
      body: { sid: "1234", client_secret: "monkeys_are_GREAT", token: "atoken" },
    },
    response: { body: { success: true } },
  },
  {
    name: "submitEmailToken",
    call: (http) =>
      identity.submitEmailToken(http, on(http), {
        sid: "1234",
        client_secret: "monkeys_are_GREAT",
        token: "atoken",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/validate/email/submitToken",
      body: { sid: "1234", client_secret: "monkeys_are_GREAT", token: "atoken" },
    },
    response: { body: { success: true } },
    check: (r) => expectThat((r as { success: boolean }).success, "success not read"),
  },
  {
    name: "logoutAccount",
    call: (http) => identity.logoutAccount(http, on(http)),
    expect: { method: "POST", path: "/_matrix/identity/v2/account/logout" },
    response: { body: {} },
  },
  {
    name: "getHashDetails",
    call: (http) => identity.getHashDetails(http, on(http)),
    expect: { method: "GET", path: "/_matrix/identity/v2/hash_details" },
    response: { body: { lookup_pepper: "matrixrocks", algorithms: ["none", "sha256"] } },
  },
  {
    name: "lookup",
    call: (http) =>
      identity.lookup(http, on(http), {
        algorithm: "sha256",
        pepper: "matrixrocks",
        addresses: [
          "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc",
          "nlo35_T5fzSGZzJApqu8lgIudJvmOQtDaHtr-I4rU7I",
        ],
      }),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/lookup",
      body: {
        algorithm: "sha256",
        pepper: "matrixrocks",
        addresses: [
          "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc",
          "nlo35_T5fzSGZzJApqu8lgIudJvmOQtDaHtr-I4rU7I",
        ],
      },
    },
    response: { body: { mappings: { "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc": "@alice:example.org" } } },
  },
  {
    name: "getTerms",
    call: (http) => identity.getTerms(http, on(http)),
    expect: { method: "GET", path: "/_matrix/identity/v2/terms" },
    response: {
      body: {
        policies: {
          terms_of_service: {
            version: "2.0",
            en: { name: "Terms of Service", url: "https://example.org/somewhere/terms-2.0-en.html" },
          },
        },
      },
    },
  },
  {
    name: "acceptTerms",
    call: (http) => identity.acceptTerms(http, on(http), ["https://example.org/somewhere/terms-2.0-en.html"]),
    expect: {
      method: "POST",
      path: "/_matrix/identity/v2/terms",
      body: { user_accepts: ["https://example.org/somewhere/terms-2.0-en.html"] },
    },
    response: { body: {} },
  },
];
