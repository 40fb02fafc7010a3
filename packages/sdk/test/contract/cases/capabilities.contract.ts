/**
 * Contract cases of GET /capabilities.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/capabilities";

export const cases: ContractCase[] = [
  {
    name: "getCapabilities",
    call: (http) => api.getCapabilities(http),
    expect: { method: "GET", path: "/_matrix/client/v3/capabilities" },
    response: {
      body: {
        capabilities: {
          "m.change_password": { enabled: false },
          "m.room_versions": { default: "1", available: { "1": "stable", "2": "stable", "3": "unstable" } },
          "m.get_login_token": { enabled: true },
          "m.profile_fields": { enabled: true, disallowed: ["displayname"] },
          "com.example.custom.ratelimit": { max_requests_per_hour: 600 },
        },
      },
    },
  },
];
