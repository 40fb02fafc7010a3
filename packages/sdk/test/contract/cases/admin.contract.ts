/**
 * Contract cases of server administration: whois (admin.yaml) and the
 * Synapse admin API, which the Matrix spec does not define.
 */
import type { ContractCase } from "../types";
import * as admin from "../../../src/api/admin";
import { expectThat } from "./contract-runner-url";

const SYNAPSE = "Synapse admin API, not part of the Matrix spec";

export const cases: ContractCase[] = [
  {
    name: "isSynapseAdmin",
    call: (http) => admin.isSynapseAdmin(http, "@peter:rabbit.rocks"),
    expect: { method: "GET", path: "/_synapse/admin/v1/users/%40peter%3Arabbit.rocks/admin" },
    response: { body: { admin: true } },
    check: (r) => expectThat((r as { admin: boolean }).admin, "admin flag not read"),
    noSpec: SYNAPSE,
  },
  {
    name: "whois",
    call: (http) => admin.whois(http, "@peter:rabbit.rocks"),
    expect: { method: "GET", path: "/_matrix/client/v3/admin/whois/%40peter%3Arabbit.rocks" },
    response: {
      body: {
        user_id: "@peter:rabbit.rocks",
        devices: {
          teapot: {
            sessions: [
              { connections: [{ ip: "127.0.0.1", last_seen: 1411996332123, user_agent: "curl/7.31.0-DEV" }] },
            ],
          },
        },
      },
    },
  },
  {
    name: "deactivateUser",
    call: (http) => admin.deactivateUser(http, "@peter:rabbit.rocks", true),
    expect: {
      method: "POST",
      path: "/_synapse/admin/v1/deactivate/%40peter%3Arabbit.rocks",
      body: { erase: true },
    },
    response: { body: { id_server_unbind_result: "success" } },
    noSpec: SYNAPSE,
  },
];
