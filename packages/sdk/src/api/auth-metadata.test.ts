/**
 * Auth metadata: the MSC2965 unstable fallback, run through the real HTTP
 * client against a loopback server that only knows the unstable path, for
 * each of the three unrecognised-endpoint answers; and no token is sent.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../http/client";
import { getAuthMetadata } from "./auth-metadata";

const METADATA = {
  issuer: "https://auth.example.org/",
  authorization_endpoint: "https://auth.example.org/authorize",
  token_endpoint: "https://auth.example.org/token",
  revocation_endpoint: "https://auth.example.org/revoke",
  registration_endpoint: "https://auth.example.org/register",
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  response_modes_supported: ["query", "fragment"],
  code_challenge_methods_supported: ["S256"],
};

describe("getAuthMetadata over HTTP", () => {
  let server: Server;
  let baseUrl: string;
  let unrecognised = { status: 404, body: "" };
  const seen: Array<{ path: string; auth: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? "";
      seen.push({ path, auth: req.headers.authorization });
      if (path === "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(METADATA));
      } else {
        res.writeHead(unrecognised.status, { "content-type": "application/json" }).end(unrecognised.body);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each([
    { status: 404, body: '{"errcode":"M_UNRECOGNIZED","error":"Unrecognized request"}' },
    { status: 405, body: "" },
    { status: 400, body: '{"errcode":"M_UNRECOGNIZED","error":"Unrecognized request"}' },
  ])("falls back to the unstable path on $status", async (answer) => {
    unrecognised = answer;
    seen.length = 0;
    const http = createHttpClient({ baseUrl, accessToken: "hs-token", retry: false });
    expect(await getAuthMetadata(http)).toEqual(METADATA);
    expect(seen).toEqual([
      { path: "/_matrix/client/v1/auth_metadata", auth: undefined },
      { path: "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata", auth: undefined },
    ]);
  });
});
