/**
 * Contract cases of the registration family.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/register";

export const cases: ContractCase[] = [
  {
    name: "checkUsernameAvailable",
    call: (http) => api.checkUsernameAvailable(http, "my_cool_localpart"),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/register/available",
      query: { username: "my_cool_localpart" },
    },
    response: { body: { available: true } },
  },
  {
    name: "register",
    call: (http) =>
      api.register(http, {
        auth: { type: "m.login.dummy", session: "xxxxx" },
        username: "cheeky_monkey",
        password: "ilovebananas",
        device_id: "GHTYAJCE",
        initial_device_display_name: "Jungle Phone",
        refresh_token: true,
      }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/register",
      body: {
        auth: { type: "m.login.dummy", session: "xxxxx" },
        username: "cheeky_monkey",
        password: "ilovebananas",
        device_id: "GHTYAJCE",
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
      },
    },
  },
  {
    name: "register",
    call: (http) => api.register(http, { initial_device_display_name: "Guest browser" }, { kind: "guest" }),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/register",
      query: { kind: "guest" },
      body: { initial_device_display_name: "Guest browser" },
    },
    response: { body: { user_id: "@1234:matrix.org", access_token: "guest_token", device_id: "GUESTDEV" } },
  },
];
