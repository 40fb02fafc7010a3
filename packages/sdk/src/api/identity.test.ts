/**
 * Identity server API: the base URL guard, which token is sent (the identity
 * token, never the homeserver's), and the hashed 3PID lookup: sha256 over
 * "address medium pepper" in unpadded URL-safe base64 (checked against the
 * spec's example), the none algorithm, and the spec's errors.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { createHttpClient } from "../http/client";
import { ApiError } from "./errors";
import { acceptTerms, getAccount, registerAccount } from "./identity";
import { base64UrlUnpadded, hashThreepid, lookupThreepids } from "./identity-lookup";

const IS = { baseUrl: "https://id.example.org", accessToken: "is-token" };

describe("identity calls", () => {
  it.each([{}, { baseUrl: "" }, { accessToken: "t" }])(
    "reject with 'No identity server base URL set' for %j, sending nothing",
    async (server) => {
      const http = recordingHttp();
      await expect(getAccount(http, server)).rejects.toThrow(
        new ApiError("INVALID_ARGUMENT", "No identity server base URL set"),
      );
      await expect(getAccount(http, server)).rejects.toBeInstanceOf(ApiError);
      expect(http.calls).toHaveLength(0);
    },
  );

  it("go to the identity server's v2 API with the identity token", async () => {
    const http = recordingHttp();
    await acceptTerms(http, IS, ["https://example.org/terms"]);
    expect(http.calls[0]).toMatchObject({
      method: "POST",
      baseUrl: "https://id.example.org",
      prefix: "/_matrix/identity/v2",
      path: "/terms",
      authenticated: true,
      accessToken: "is-token",
      body: { user_accepts: ["https://example.org/terms"] },
    });
  });

  it("never fall back to the homeserver token", async () => {
    const http = recordingHttp();
    await getAccount(http, { baseUrl: "https://id.example.org" });
    await registerAccount(http, IS, {
      access_token: "openid",
      token_type: "Bearer",
      matrix_server_name: "example.org",
      expires_in: 3600,
    });
    for (const call of http.calls) {
      expect(call.authenticated).toBe(false);
      expect(call.accessToken).toBeUndefined();
    }
  });
});

describe("hashing", () => {
  it("matches the spec's example hash", async () => {
    expect(await hashThreepid({ medium: "email", address: "alice@example.com" }, "matrixrocks")).toBe(
      "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc",
    );
  });

  it("lowercases email addresses before hashing", async () => {
    expect(await hashThreepid({ medium: "email", address: "Alice@Example.COM" }, "matrixrocks")).toBe(
      "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc",
    );
  });

  it("encodes unpadded URL-safe base64", () => {
    expect(base64UrlUnpadded(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe("-__-");
    expect(base64UrlUnpadded(new Uint8Array([0x61]))).toBe("YQ");
  });
});

describe("lookupThreepids", () => {
  const alice = { medium: "email", address: "alice@example.com" };
  const bob = { medium: "msisdn", address: "12345678910" };

  it("prefers sha256 and maps hashed answers back to the 3PIDs", async () => {
    const http = recordingHttp(
      { ok: { lookup_pepper: "matrixrocks", algorithms: ["none", "sha256"] } },
      {
        ok: {
          mappings: {
            "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc": "@alice:example.org",
            "not-asked-for": "@mallory:example.org",
          },
        },
      },
    );
    const result = await lookupThreepids(http, IS, [alice, bob]);
    expect(result).toEqual([{ ...alice, mxid: "@alice:example.org" }]);
    expect(http.calls[0]).toMatchObject({ method: "GET", path: "/hash_details" });
    expect(http.calls[1]).toMatchObject({
      method: "POST",
      path: "/lookup",
      body: {
        algorithm: "sha256",
        pepper: "matrixrocks",
        addresses: [
          "4kenr7N9drpCJ4AfalmlGQVsOn3o2RHjkADUpXJWZUc",
          "S11EvvwnUWBDZtI4MTRKgVuiRx76Z9HnkbyRlWkBqJs",
        ],
      },
    });
  });

  it("sends plain 'address medium' when only none is offered", async () => {
    const http = recordingHttp(
      { ok: { lookup_pepper: "pep", algorithms: ["none"] } },
      { ok: { mappings: { "12345678910 msisdn": "@bob:example.org" } } },
    );
    expect(await lookupThreepids(http, IS, [bob])).toEqual([{ ...bob, mxid: "@bob:example.org" }]);
    expect(http.calls[1]?.body).toEqual({
      algorithm: "none",
      pepper: "pep",
      addresses: ["12345678910 msisdn"],
    });
  });

  it("throws 'unknown hash algorithm' when neither sha256 nor none is offered", async () => {
    const http = recordingHttp({ ok: { lookup_pepper: "pep", algorithms: ["md5"] } });
    await expect(lookupThreepids(http, IS, [alice])).rejects.toThrow(/^unknown hash algorithm$/);
    expect(http.calls).toHaveLength(1);
  });

  it.each([
    null,
    [],
    { algorithms: ["sha256"] },
    { lookup_pepper: "p" },
    { lookup_pepper: 1, algorithms: [] },
  ])("throws 'Unsupported identity server: bad response' for hash details %j", async (details) => {
    const http = recordingHttp({ ok: details });
    await expect(lookupThreepids(http, IS, [alice])).rejects.toThrow(
      /^Unsupported identity server: bad response$/,
    );
  });

  it("treats hostile mappings as data", async () => {
    const http = recordingHttp(
      { ok: { lookup_pepper: "pep", algorithms: ["none"] } },
      { ok: JSON.parse('{"mappings": {"__proto__": "@x:y", "constructor": 5}}') as unknown },
    );
    expect(await lookupThreepids(http, IS, [{ medium: "email", address: "__proto__" }])).toEqual([]);
  });

  it("rejects a lookup answer without mappings", async () => {
    const http = recordingHttp({ ok: { lookup_pepper: "pep", algorithms: ["sha256"] } }, { ok: { nope: 1 } });
    await expect(lookupThreepids(http, IS, [alice])).rejects.toThrow(
      "Unsupported identity server: bad response",
    );
  });

  it("asks nothing for an empty list beyond the hash details", async () => {
    const http = recordingHttp({ ok: { lookup_pepper: "pep", algorithms: ["sha256"] } });
    expect(await lookupThreepids(http, IS, [])).toEqual([]);
    expect(http.calls).toHaveLength(1);
  });
});

describe("identity calls over HTTP", () => {
  let server: Server;
  let baseUrl: string;
  const seen: Array<{ path: string; auth: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? "", auth: req.headers.authorization });
      res.writeHead(200, { "content-type": "application/json" }).end('{"user_id":"@alice:example.org"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("send the identity token, and never the homeserver's", async () => {
    seen.length = 0;
    // The homeserver client points elsewhere: identity calls must not go there.
    const http = createHttpClient({ baseUrl: "http://127.0.0.1:9", accessToken: "hs-secret", retry: false });
    expect(await getAccount(http, { baseUrl, accessToken: "is-token" })).toEqual({
      user_id: "@alice:example.org",
    });
    await getAccount(http, { baseUrl });
    expect(seen).toEqual([
      { path: "/_matrix/identity/v2/account", auth: "Bearer is-token" },
      { path: "/_matrix/identity/v2/account", auth: undefined },
    ]);
  });
});
