/**
 * What the HTTP client puts on the wire and what it hands back: URLs and
 * prefixes, query encoding, bearer tokens, JSON and raw bodies, upload
 * progress, byte responses; plus transaction ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prefix, createHttpClient, createTxnIdGenerator, encodePath, encodeQuery } from "../../src/http";
import type { BytesResponse, UploadProgress } from "../../src/http";
import { json, startLoopback } from "./loopback";
import type { Loopback } from "./loopback";

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(async () => {
  await server.close();
});

const echo = (): void => server.handle((_req, res) => json(res, 200, {}));

describe("URLs and query", () => {
  it("joins base URL, default prefix v3 and path", async () => {
    echo();
    const http = createHttpClient({ baseUrl: `${server.baseUrl}/` });
    await http.request({ method: "GET", path: encodePath`/rooms/${"!a:b/c"}/state` });
    expect(server.requests[0]?.url).toBe("/_matrix/client/v3/rooms/!a%3Ab%2Fc/state");
  });

  it("uses the given prefix, none for /versions, and a per-request base URL", async () => {
    echo();
    const other = await startLoopback();
    other.handle((_req, res) => json(res, 200, { other: true }));
    try {
      const http = createHttpClient({ baseUrl: server.baseUrl });
      await http.request({ method: "GET", prefix: Prefix.None, path: "/_matrix/client/versions" });
      await http.request({ method: "GET", prefix: Prefix.IdentityV2, path: "/hash_details" });
      const result = await http.request({
        method: "GET",
        prefix: Prefix.None,
        path: "/x",
        baseUrl: other.baseUrl,
      });
      expect(result).toEqual({ other: true });
      expect(server.requests.map((r) => r.url)).toEqual([
        "/_matrix/client/versions",
        "/_matrix/identity/v2/hash_details",
      ]);
      expect(other.requests.map((r) => r.url)).toEqual(["/x"]);
    } finally {
      await other.close();
    }
  });

  it("encodes arrays as repeated keys, drops null/undefined, writes booleans", async () => {
    echo();
    const http = createHttpClient({ baseUrl: server.baseUrl });
    await http.request({
      method: "GET",
      path: "/x",
      query: { via: ["a.org", "b.org"], full_state: false, limit: 10, from: undefined, to: null, q: "a b&c" },
    });
    const url = new URL(server.requests[0]?.url ?? "", server.baseUrl);
    expect(url.searchParams.getAll("via")).toEqual(["a.org", "b.org"]);
    expect(url.searchParams.get("full_state")).toBe("false");
    expect(url.searchParams.get("limit")).toBe("10");
    expect(url.searchParams.get("q")).toBe("a b&c");
    expect(url.searchParams.has("from")).toBe(false);
    expect(url.searchParams.has("to")).toBe(false);
  });

  it("encodeQuery gives an empty string for nothing to send", () => {
    expect(encodeQuery(undefined)).toBe("");
    expect(encodeQuery({ a: undefined })).toBe("");
    expect(encodeQuery({ set: true })).toBe("set=true");
  });
});

describe("tokens", () => {
  it("sends the bearer token, honours authenticated:false, overrides and swaps", async () => {
    echo();
    const http = createHttpClient({ baseUrl: server.baseUrl, accessToken: "first" });
    await http.request({ method: "GET", path: "/a" });
    await http.request({ method: "GET", path: "/b", authenticated: false });
    await http.request({ method: "GET", path: "/c", accessToken: "identity-token" });
    http.setAccessToken("second");
    await http.request({ method: "GET", path: "/d" });
    expect(http.getAccessToken()).toBe("second");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer first",
      undefined,
      "Bearer identity-token",
      "Bearer second",
    ]);
  });

  it("reads a token getter on every request", async () => {
    echo();
    let current = "one";
    const http = createHttpClient({ baseUrl: server.baseUrl, accessToken: () => current });
    await http.request({ method: "GET", path: "/a" });
    current = "two";
    await http.request({ method: "GET", path: "/a" });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer one", "Bearer two"]);
  });
});

describe("bodies", () => {
  it("sends JSON bodies with the JSON content type and parses JSON answers", async () => {
    server.handle((req, res) => json(res, 200, { got: JSON.parse(req.body.toString("utf8")) as unknown }));
    const http = createHttpClient({ baseUrl: server.baseUrl });
    const result = await http.request({
      method: "PUT",
      path: "/x",
      body: { msgtype: "m.text", body: "hi ✓" },
    });
    expect(result).toEqual({ got: { msgtype: "m.text", body: "hi ✓" } });
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });

  it("sends raw bodies with their content type", async () => {
    echo();
    const http = createHttpClient({ baseUrl: server.baseUrl });
    const data = new Uint8Array([1, 2, 3, 250]);
    await http.request({
      method: "POST",
      prefix: Prefix.MediaV3,
      path: "/upload",
      rawBody: data,
      contentType: "image/png",
    });
    expect(server.requests[0]?.headers["content-type"]).toBe("image/png");
    expect([...(server.requests[0]?.body ?? [])]).toEqual([1, 2, 3, 250]);
  });

  it("returns bytes with content type and disposition for responseType bytes", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "Content-Type": "image/png", "Content-Disposition": 'inline; filename="a.png"' });
      res.end(Buffer.from([9, 8, 7]));
    });
    const http = createHttpClient({ baseUrl: server.baseUrl });
    const result = await http.request<BytesResponse>({ method: "GET", path: "/m", responseType: "bytes" });
    expect([...result.data]).toEqual([9, 8, 7]);
    expect(result.contentType).toBe("image/png");
    expect(result.contentDisposition).toBe('inline; filename="a.png"');
  });
});

describe("upload progress", () => {
  const size = 300 * 1024 + 17;
  const data = new Uint8Array(size).map((_v, i) => i % 251);

  it("reports chunked progress while streaming (Node) and the server gets every byte", async () => {
    echo();
    const progress: UploadProgress[] = [];
    const http = createHttpClient({ baseUrl: server.baseUrl });
    await http.request({
      method: "POST",
      path: "/upload",
      rawBody: data,
      onUploadProgress: (p) => progress.push(p),
    });
    expect(Buffer.compare(server.requests[0]?.body ?? Buffer.alloc(0), Buffer.from(data))).toBe(0);
    expect(progress[0]).toEqual({ loaded: 0, total: size });
    expect(progress.at(-1)).toEqual({ loaded: size, total: size });
    expect(progress.length).toBeGreaterThan(3);
    const loaded = progress.map((p) => p.loaded);
    expect([...loaded].sort((a, b) => a - b)).toEqual(loaded);
  });

  it("streams Blob bodies too", async () => {
    echo();
    const progress: UploadProgress[] = [];
    const http = createHttpClient({ baseUrl: server.baseUrl });
    await http.request({
      method: "POST",
      path: "/upload",
      rawBody: new Blob([data]),
      onUploadProgress: (p) => progress.push(p),
    });
    expect(server.requests[0]?.body.byteLength).toBe(size);
    expect(progress.at(-1)).toEqual({ loaded: size, total: size });
  });

  it("reports 0 then total where streaming is not used (browsers)", async () => {
    echo();
    const progress: UploadProgress[] = [];
    const http = createHttpClient({ baseUrl: server.baseUrl, streamUploads: false });
    await http.request({
      method: "POST",
      path: "/upload",
      rawBody: data.buffer,
      onUploadProgress: (p) => progress.push(p),
    });
    expect(progress).toEqual([
      { loaded: 0, total: size },
      { loaded: size, total: size },
    ]);
    expect(server.requests[0]?.body.byteLength).toBe(size);
  });
});

describe("transaction ids", () => {
  it("are 'm' + timestamp + counter, unique within one millisecond", () => {
    let t = 1700000000000;
    const next = createTxnIdGenerator(() => t);
    const a = next();
    const b = next();
    t += 5;
    const c = next();
    expect([a, b, c]).toEqual(["m1700000000000.0", "m1700000000000.1", "m1700000000005.2"]);
    expect(new Set([a, b, c]).size).toBe(3);
  });
});
