/**
 * Contract cases of GET /voip/turnServer.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/voip";

export const cases: ContractCase[] = [
  {
    name: "getTurnServer",
    call: (http) => api.getTurnServer(http),
    expect: { method: "GET", path: "/_matrix/client/v3/voip/turnServer" },
    response: {
      body: {
        username: "1443779631:@user:example.com",
        password: "JlKfBy1QwLrO20385QyAtEyIv0=",
        uris: [
          "turn:turn.example.com:3478?transport=udp",
          "turn:10.20.30.40:3478?transport=tcp",
          "turns:10.20.30.40:443?transport=tcp",
        ],
        ttl: 86400,
      },
    },
  },
];
