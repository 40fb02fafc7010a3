/**
 * Contract case of the OAuth 2.0 server metadata (oauth_server_metadata.yaml).
 */
import type { ContractCase } from "../types";
import * as authMetadata from "../../../src/api/auth-metadata";
import { expectThat } from "./contract-runner-url";

export const cases: ContractCase[] = [
  {
    name: "getAuthMetadata",
    call: (http) => authMetadata.getAuthMetadata(http),
    expect: { method: "GET", path: "/_matrix/client/v1/auth_metadata" },
    response: {
      body: {
        issuer: "https://account.example.com/",
        authorization_endpoint: "https://account.example.com/oauth2/auth",
        token_endpoint: "https://account.example.com/oauth2/token",
        registration_endpoint: "https://account.example.com/oauth2/clients/register",
        revocation_endpoint: "https://account.example.com/oauth2/revoke",
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        response_modes_supported: ["query", "fragment"],
        code_challenge_methods_supported: ["S256"],
        account_management_uri: "https://account.example.com/manage",
      },
    },
    check: (r) =>
      expectThat((r as { issuer: string }).issuer === "https://account.example.com/", "issuer not read"),
  },
];
