/**
 * Homeserver discovery: where the well-known is fetched from, each outcome
 * of the spec's algorithm (IGNORE, FAIL_PROMPT, FAIL_ERROR, SUCCESS) with
 * SPEC.md's messages, hostile documents, and one full run through the real
 * HTTP client against a loopback server acting as domain, homeserver and
 * identity server.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matrixError, recordingHttp } from "../../test/api/recording-http";
import type { ScriptedAnswer } from "../../test/api/recording-http";
import { createHttpClient } from "../http/client";
import { ConnectionError } from "../http/errors";
import { discoverHomeserver, parseBaseUrl, wellKnownOrigin } from "./discovery";
import { ApiError } from "./errors";

const VERSIONS = { versions: ["v1.11"] };

function wellKnown(doc: unknown): ScriptedAnswer {
  return { ok: doc };
}

describe("wellKnownOrigin", () => {
  it.each([
    ["@alice:example.org", "https://example.org"],
    ["@alice:example.org:8448", "https://example.org"],
    ["example.org", "https://example.org"],
    ["Matrix.Example.org:443", "https://matrix.example.org"],
    ["[::1]:8448", "https://[::1]"],
    ["http://127.0.0.1:8008/ignored/path", "http://127.0.0.1:8008"],
  ])("reads %s as %s", (target, origin) => {
    expect(wellKnownOrigin(target)).toBe(origin);
  });

  it.each(["", "@alice", "exa mple.org", "example.org/path", "user@example.org", "http://"])(
    "refuses %j",
    (target) => {
      expect(() => wellKnownOrigin(target)).toThrow(ApiError);
    },
  );
});

describe("parseBaseUrl", () => {
  it("accepts http(s) URLs and drops trailing slashes", () => {
    expect(parseBaseUrl("https://matrix.example.org/")).toBe("https://matrix.example.org");
    expect(parseBaseUrl("http://127.0.0.1:8008/base//")).toBe("http://127.0.0.1:8008/base");
  });

  it.each([
    undefined,
    42,
    "",
    "matrix.example.org",
    "ftp://example.org",
    "javascript:alert(1)",
    "https://a/?q=1",
  ])("refuses %j", (value) => {
    expect(parseBaseUrl(value)).toBeNull();
  });
});

describe("discoverHomeserver", () => {
  it("fetches the well-known from the user's domain without auth, then checks the homeserver", async () => {
    const http = recordingHttp(wellKnown({ "m.homeserver": { base_url: "https://matrix.example.org/" } }), {
      ok: VERSIONS,
    });
    const result = await discoverHomeserver(http, "@alice:example.org");
    expect(result.state).toBe("SUCCESS");
    expect(result.homeserver).toMatchObject({
      state: "SUCCESS",
      baseUrl: "https://matrix.example.org",
      error: null,
    });
    expect(result.homeserver.versions).toEqual(VERSIONS);
    expect(result.identityServer).toEqual({ state: "PROMPT", baseUrl: null, error: null });
    expect(http.calls.map((c) => [c.baseUrl, c.prefix, c.path, c.authenticated])).toEqual([
      ["https://example.org", "", "/.well-known/matrix/client", false],
      ["https://matrix.example.org", "", "/_matrix/client/versions", false],
    ]);
  });

  it("IGNOREs a missing well-known with 'No .well-known JSON file found'", async () => {
    const http = recordingHttp({ error: matrixError(404, "M_NOT_FOUND") });
    const result = await discoverHomeserver(http, "example.org");
    expect(result.state).toBe("IGNORE");
    expect(result.homeserver).toMatchObject({ state: "IGNORE", error: "No .well-known JSON file found" });
    expect(result.wellKnown).toBeNull();
  });

  it.each([
    ["a server error", { error: matrixError(500, "M_UNKNOWN") }],
    ["a network failure", { error: new ConnectionError("network", "down") }],
    ["a JSON array", wellKnown([1, 2])],
    ["a string", wellKnown("<html>")],
    ["null", wellKnown(null)],
    ["no m.homeserver", wellKnown({ "m.identity_server": { base_url: "https://id.example.org" } })],
    ["no base_url", wellKnown({ "m.homeserver": {} })],
    ["a non-string base_url", wellKnown({ "m.homeserver": { base_url: ["https://x"] } })],
    [
      "an inherited m.homeserver",
      wellKnown(JSON.parse('{"__proto__": {"m.homeserver": {"base_url": "https://x"}}}')),
    ],
  ] as Array<[string, ScriptedAnswer]>)("FAIL_PROMPTs on %s", async (_what, answer) => {
    const http = recordingHttp(answer);
    const result = await discoverHomeserver(http, "example.org");
    expect(result.state).toBe("FAIL_PROMPT");
    expect(result.homeserver).toMatchObject({
      state: "FAIL_PROMPT",
      baseUrl: null,
      error: "Invalid homeserver discovery response",
    });
    expect(http.calls).toHaveLength(1);
  });

  it("FAIL_ERRORs on a base_url that is not an http(s) URL, without checking it", async () => {
    const http = recordingHttp(wellKnown({ "m.homeserver": { base_url: "matrix.example.org" } }));
    const result = await discoverHomeserver(http, "example.org");
    expect(result.homeserver).toMatchObject({
      state: "FAIL_ERROR",
      error: "Invalid homeserver discovery response",
      reason: "INVALID_BASE_URL",
    });
    expect(http.calls).toHaveLength(1);
  });

  it.each([
    ["an error", { error: matrixError(404, "M_UNRECOGNIZED") }],
    ["a document without versions", { ok: { unstable_features: {} } }],
    ["versions that are not strings", { ok: { versions: [1] } }],
  ] as Array<[string, ScriptedAnswer]>)(
    "FAIL_ERRORs when the homeserver check gives %s",
    async (_what, answer) => {
      const http = recordingHttp(
        wellKnown({ "m.homeserver": { base_url: "https://hs.example.org" } }),
        answer,
      );
      const result = await discoverHomeserver(http, "example.org");
      expect(result.state).toBe("FAIL_ERROR");
      expect(result.homeserver).toMatchObject({ state: "FAIL_ERROR", reason: "SERVER_CHECK_FAILED" });
      expect(result.homeserver.error).toBe("Invalid homeserver discovery response");
    },
  );

  it("checks an advertised identity server at /_matrix/identity/v2", async () => {
    const http = recordingHttp(
      wellKnown({
        "m.homeserver": { base_url: "https://hs.example.org" },
        "m.identity_server": { base_url: "https://id.example.org/" },
        "org.example.custom": { kept: true },
      }),
      { ok: VERSIONS },
      { ok: {} },
    );
    const result = await discoverHomeserver(http, "example.org");
    expect(result.state).toBe("SUCCESS");
    expect(result.identityServer).toEqual({
      state: "SUCCESS",
      baseUrl: "https://id.example.org",
      error: null,
    });
    expect(result.wellKnown?.["org.example.custom"]).toEqual({ kept: true });
    expect(http.calls[2]).toMatchObject({
      baseUrl: "https://id.example.org",
      prefix: "/_matrix/identity/v2",
      path: "",
    });
    expect(http.calls[2]?.authenticated).toBe(false);
  });

  it("FAIL_PROMPTs on an identity server without base_url", async () => {
    const http = recordingHttp(
      wellKnown({ "m.homeserver": { base_url: "https://hs.example.org" }, "m.identity_server": {} }),
      { ok: VERSIONS },
    );
    const result = await discoverHomeserver(http, "example.org");
    expect(result.state).toBe("FAIL_PROMPT");
    expect(result.homeserver.state).toBe("SUCCESS");
    expect(result.identityServer).toMatchObject({
      state: "FAIL_PROMPT",
      error: "Unsupported identity server: bad response",
    });
  });

  it.each([
    ["its check fails", [{ error: matrixError(404, "M_UNRECOGNIZED") }]],
    ["it answers a non-object", [{ ok: "ok" }]],
  ] as Array<[string, ScriptedAnswer[]]>)(
    "FAIL_ERRORs on an identity server when %s",
    async (_what, answers) => {
      const http = recordingHttp(
        wellKnown({
          "m.homeserver": { base_url: "https://hs.example.org" },
          "m.identity_server": { base_url: "https://id.example.org" },
        }),
        { ok: VERSIONS },
        ...answers,
      );
      const result = await discoverHomeserver(http, "example.org");
      expect(result.state).toBe("FAIL_ERROR");
      expect(result.identityServer).toMatchObject({
        state: "FAIL_ERROR",
        error: "Unsupported identity server: bad response",
        reason: "SERVER_CHECK_FAILED",
      });
    },
  );

  it("throws for a target that is no server name", async () => {
    const http = recordingHttp();
    await expect(discoverHomeserver(http, "@nobody")).rejects.toBeInstanceOf(ApiError);
    expect(http.calls).toHaveLength(0);
  });
});

describe("discovery over HTTP", () => {
  let server: Server;
  let origin: string;
  let wellKnownBody = "";
  const seen: Array<{ path: string; auth: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? "";
      seen.push({ path, auth: req.headers.authorization });
      const json = (status: number, body: string): void => {
        res.writeHead(status, { "content-type": "application/json" }).end(body);
      };
      if (path === "/.well-known/matrix/client") {
        if (wellKnownBody === "") json(404, '{"errcode":"M_NOT_FOUND","error":"Not found"}');
        else json(200, wellKnownBody);
      } else if (path === "/hs/_matrix/client/versions") json(200, '{"versions":["v1.12"]}');
      else if (path === "/is/_matrix/identity/v2") json(200, "{}");
      else json(404, '{"errcode":"M_UNRECOGNIZED","error":"Unrecognized request"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("discovers homeserver and identity server through the real client, sending no token", async () => {
    seen.length = 0;
    wellKnownBody = JSON.stringify({
      "m.homeserver": { base_url: `${origin}/hs/` },
      "m.identity_server": { base_url: `${origin}/is` },
    });
    const http = createHttpClient({ baseUrl: "http://127.0.0.1:9", accessToken: "secret", retry: false });
    const result = await discoverHomeserver(http, origin);
    expect(result.state).toBe("SUCCESS");
    expect(result.homeserver.baseUrl).toBe(`${origin}/hs`);
    expect(result.identityServer.baseUrl).toBe(`${origin}/is`);
    expect(seen.map((s) => s.path)).toEqual([
      "/.well-known/matrix/client",
      "/hs/_matrix/client/versions",
      "/is/_matrix/identity/v2",
    ]);
    expect(seen.every((s) => s.auth === undefined)).toBe(true);
  });

  it("IGNOREs a 404 from a real server", async () => {
    wellKnownBody = "";
    const http = createHttpClient({ baseUrl: origin, retry: false });
    const result = await discoverHomeserver(http, origin);
    expect(result.homeserver).toMatchObject({ state: "IGNORE", error: "No .well-known JSON file found" });
  });

  it("FAIL_PROMPTs on a body that is not JSON", async () => {
    wellKnownBody = "<html>not json</html>";
    const http = createHttpClient({ baseUrl: origin, retry: false });
    const result = await discoverHomeserver(http, origin);
    expect(result.homeserver).toMatchObject({
      state: "FAIL_PROMPT",
      error: "Invalid homeserver discovery response",
    });
  });
});
