/**
 * Contract cases of the account family: 3pids, password, deactivation,
 * whoami and the six requestToken calls.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/account";

const auth = { type: "m.login.password", session: "xxxxx", password: "hunter2" };
const email = { client_secret: "monkeys_are_GREAT", email: "alice@example.org", send_attempt: 1 };
const emailWithLink = { ...email, next_link: "https://example.org/congratulations.html" };
const msisdn = {
  client_secret: "monkeys_are_GREAT",
  country: "GB",
  phone_number: "07700900001",
  send_attempt: 1,
};
const tokenAnswer = { body: { sid: "123abc", submit_url: "https://example.org/path/to/submitToken" } };

export const cases: ContractCase[] = [
  {
    name: "getThreepids",
    call: (http) => api.getThreepids(http),
    expect: { method: "GET", path: "/_matrix/client/v3/account/3pid" },
    response: {
      body: {
        threepids: [
          {
            medium: "email",
            address: "monkey@banana.island",
            validated_at: 1535176800000,
            added_at: 1535336848756,
          },
        ],
      },
    },
  },
  {
    name: "addThreepid",
    call: (http) => api.addThreepid(http, { client_secret: "d0nt-T3ll", sid: "abc123987", auth }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/3pid/add",
      body: { client_secret: "d0nt-T3ll", sid: "abc123987", auth },
    },
    response: { body: {} },
  },
  {
    name: "bindThreepid",
    call: (http) =>
      api.bindThreepid(http, {
        client_secret: "d0nt-T3ll",
        sid: "abc123987",
        id_server: "example.org",
        id_access_token: "abc123_OpaqueString",
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/3pid/bind",
      body: {
        client_secret: "d0nt-T3ll",
        sid: "abc123987",
        id_server: "example.org",
        id_access_token: "abc123_OpaqueString",
      },
    },
    response: { body: {} },
  },
  {
    name: "unbindThreepid",
    call: (http) =>
      api.unbindThreepid(http, { medium: "email", address: "example@example.org", id_server: "example.org" }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/3pid/unbind",
      body: { medium: "email", address: "example@example.org", id_server: "example.org" },
    },
    response: { body: { id_server_unbind_result: "success" } },
  },
  {
    name: "deleteThreepid",
    call: (http) => api.deleteThreepid(http, { medium: "msisdn", address: "447700900001" }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/3pid/delete",
      body: { medium: "msisdn", address: "447700900001" },
    },
    response: { body: { id_server_unbind_result: "no-support" } },
  },
  {
    name: "changePassword",
    call: (http) => api.changePassword(http, { new_password: "ihatebananas", logout_devices: true, auth }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/password",
      body: { new_password: "ihatebananas", logout_devices: true, auth },
    },
    response: { body: {} },
  },
  {
    name: "deactivateAccount",
    call: (http) => api.deactivateAccount(http, { auth, erase: true }),
    expect: { method: "POST", path: "/_matrix/client/v3/account/deactivate", body: { auth, erase: true } },
    response: { body: { id_server_unbind_result: "success" } },
  },
  {
    name: "whoami",
    call: (http) => api.whoami(http),
    expect: { method: "GET", path: "/_matrix/client/v3/account/whoami" },
    response: { body: { user_id: "@joe:example.org", device_id: "ABCDEFG", is_guest: false } },
  },
  {
    name: "requestRegisterEmailToken",
    call: (http) => api.requestRegisterEmailToken(http, emailWithLink),
    expect: { method: "POST", path: "/_matrix/client/v3/register/email/requestToken", body: emailWithLink },
    response: tokenAnswer,
  },
  {
    name: "requestRegisterMsisdnToken",
    call: (http) => api.requestRegisterMsisdnToken(http, msisdn),
    expect: { method: "POST", path: "/_matrix/client/v3/register/msisdn/requestToken", body: msisdn },
    response: tokenAnswer,
  },
  {
    name: "requestAdd3pidEmailToken",
    call: (http) => api.requestAdd3pidEmailToken(http, email),
    expect: { method: "POST", path: "/_matrix/client/v3/account/3pid/email/requestToken", body: email },
    response: tokenAnswer,
  },
  {
    name: "requestAdd3pidMsisdnToken",
    call: (http) => api.requestAdd3pidMsisdnToken(http, msisdn),
    expect: { method: "POST", path: "/_matrix/client/v3/account/3pid/msisdn/requestToken", body: msisdn },
    response: tokenAnswer,
  },
  {
    name: "requestPasswordEmailToken",
    call: (http) => api.requestPasswordEmailToken(http, emailWithLink),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/account/password/email/requestToken",
      body: emailWithLink,
    },
    response: { body: { sid: "123abc" } },
  },
  {
    name: "requestPasswordMsisdnToken",
    call: (http) => api.requestPasswordMsisdnToken(http, msisdn),
    expect: { method: "POST", path: "/_matrix/client/v3/account/password/msisdn/requestToken", body: msisdn },
    response: tokenAnswer,
  },
];
