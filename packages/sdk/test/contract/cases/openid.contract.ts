/**
 * Contract cases of POST /user/{userId}/openid/request_token.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/openid";

export const cases: ContractCase[] = [
  {
    name: "requestOpenIdToken",
    call: (http) => api.requestOpenIdToken(http, "@alice:example.com"),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/user/${encodeURIComponent("@alice:example.com")}/openid/request_token`,
      body: {},
    },
    response: {
      body: {
        access_token: "SomeT0kenHere",
        token_type: "Bearer",
        matrix_server_name: "example.com",
        expires_in: 3600,
      },
    },
  },
];
