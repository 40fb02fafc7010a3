/**
 * Contract cases of the single requests discovery makes: the well-known
 * document (wellknown.yaml), the homeserver check (versions.yaml) and the
 * identity server check (identity v2_ping.yaml). The runner's loopback URL
 * stands in for the discovered servers.
 */
import type { ContractCase } from "../types";
import { expectThat, runnerBaseUrl } from "./contract-runner-url";
import * as discovery from "../../../src/api/discovery";

export const cases: ContractCase[] = [
  {
    name: "getWellKnown",
    call: (http) => discovery.getWellKnown(http, runnerBaseUrl(http)),
    expect: { method: "GET", path: "/.well-known/matrix/client" },
    response: {
      body: {
        "m.homeserver": { base_url: "https://matrix.example.com" },
        "m.identity_server": { base_url: "https://identity.example.com" },
        "org.example.custom.property": { app_url: "https://custom.app.example.org" },
      },
    },
  },
  {
    name: "checkHomeserver",
    call: (http) => discovery.checkHomeserver(http, runnerBaseUrl(http)),
    expect: { method: "GET", path: "/_matrix/client/versions" },
    response: { body: { versions: ["r0.6.1", "v1.11"], unstable_features: {} } },
    check: (r) => expectThat((r as { versions: string[] }).versions.includes("v1.11"), "versions not read"),
  },
  {
    name: "checkIdentityServer",
    call: (http) => discovery.checkIdentityServer(http, runnerBaseUrl(http)),
    expect: { method: "GET", path: "/_matrix/identity/v2" },
    response: { body: {} },
  },
];
