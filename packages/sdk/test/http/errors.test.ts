/**
 * Error behaviour of the HTTP client against a real loopback server:
 * rate-limit retries, unknown-token errors, unrecognised-endpoint fallback,
 * time-outs, network failures, 5xx, unreadable bodies and aborts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionError,
  MatrixError,
  ResponseFormatError,
  createHttpClient,
  isAbortError,
} from "../../src/http";
import type { HttpClientOptions } from "../../src/http";
import { json, startLoopback } from "./loopback";
import type { Loopback } from "./loopback";

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(async () => {
  await server.close();
});

/** A client whose waits are recorded instead of slept (fake time). */
function client(extra: Partial<HttpClientOptions> = {}): {
  http: ReturnType<typeof createHttpClient>;
  delays: number[];
} {
  const delays: number[] = [];
  const http = createHttpClient({
    baseUrl: server.baseUrl,
    accessToken: "tok",
    random: () => 0.5,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    ...extra,
  });
  return { http, delays };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the request to fail");
}

describe("rate limiting", () => {
  it("waits retry_after_ms from the body, then succeeds", async () => {
    server.handle((_req, res, i) =>
      i === 0
        ? json(res, 429, { errcode: "M_LIMIT_EXCEEDED", error: "Too many requests", retry_after_ms: 1234 })
        : json(res, 200, { ok: true }),
    );
    const { http, delays } = client();
    await expect(http.request({ method: "GET", path: "/account/whoami" })).resolves.toEqual({ ok: true });
    expect(delays).toEqual([1234]);
    expect(server.requests).toHaveLength(2);
  });

  it("honours Retry-After in seconds and as an HTTP date", async () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    server.handle((_req, res, i) => {
      if (i === 0) json(res, 429, { errcode: "M_LIMIT_EXCEEDED", error: "slow" }, { "Retry-After": "3" });
      else if (i === 1) {
        json(
          res,
          429,
          { errcode: "M_LIMIT_EXCEEDED", error: "slow" },
          { "Retry-After": new Date(now + 7000).toUTCString() },
        );
      } else json(res, 200, {});
    });
    const { http, delays } = client({ now: () => now });
    await http.request({ method: "GET", path: "/x" });
    expect(delays).toEqual([3000, 7000]);
  });

  it("surfaces the error when the server asks for a longer wait than the policy allows", async () => {
    server.handle((_req, res) =>
      json(res, 429, { errcode: "M_LIMIT_EXCEEDED", error: "slow", retry_after_ms: 999_999 }),
    );
    const { http, delays } = client({ retry: { maxRetryAfterMs: 10_000 } });
    const err = await caught(http.request({ method: "GET", path: "/x" }));
    expect(err).toBeInstanceOf(MatrixError);
    expect((err as MatrixError).retryAfterMs).toBe(999_999);
    expect(delays).toEqual([]);
  });

  it("stops after maxAttempts", async () => {
    server.handle((_req, res) =>
      json(res, 429, { errcode: "M_LIMIT_EXCEEDED", error: "slow", retry_after_ms: 5 }),
    );
    const { http, delays } = client({ retry: { maxAttempts: 3 } });
    const err = await caught(http.request({ method: "GET", path: "/x" }));
    expect((err as MatrixError).errcode).toBe("M_LIMIT_EXCEEDED");
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([5, 5]);
  });
});

describe("typed errors", () => {
  it("keeps soft_logout on M_UNKNOWN_TOKEN and does not retry it", async () => {
    server.handle((_req, res) =>
      json(res, 401, { errcode: "M_UNKNOWN_TOKEN", error: "Token expired", soft_logout: true }),
    );
    const { http } = client();
    const err = await caught(http.request({ method: "GET", path: "/sync" }));
    expect(err).toBeInstanceOf(MatrixError);
    const m = err as MatrixError;
    expect([m.errcode, m.error, m.httpStatus, m.code]).toEqual([
      "M_UNKNOWN_TOKEN",
      "Token expired",
      401,
      "M_UNKNOWN_TOKEN",
    ]);
    expect(m.softLogout).toBe(true);
    expect(m.data).toEqual({ errcode: "M_UNKNOWN_TOKEN", error: "Token expired", soft_logout: true });
    expect(server.requests).toHaveLength(1);
  });

  it("softLogout is false without the flag", async () => {
    server.handle((_req, res) => json(res, 401, { errcode: "M_UNKNOWN_TOKEN", error: "gone" }));
    const err = await caught(client().http.request({ method: "GET", path: "/sync" }));
    expect((err as MatrixError).softLogout).toBe(false);
  });

  it("gives M_UNKNOWN with the status for a non-JSON error body", async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    const { http } = client({ retry: false });
    const err = await caught(http.request({ method: "GET", path: "/x" }));
    expect(err).toBeInstanceOf(MatrixError);
    expect((err as MatrixError).errcode).toBe("M_UNKNOWN");
    expect((err as MatrixError).httpStatus).toBe(502);
    expect((err as MatrixError).message).toContain("502");
  });

  it("gives M_UNKNOWN with the status for an empty error body", async () => {
    server.handle((_req, res) => {
      res.writeHead(403);
      res.end();
    });
    const err = await caught(client().http.request({ method: "GET", path: "/x" }));
    expect((err as MatrixError).errcode).toBe("M_UNKNOWN");
    expect((err as MatrixError).message).toMatch(/Empty error response \(HTTP 403\)/);
  });

  it("survives hostile JSON error bodies", async () => {
    server.handle((_req, res) => {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end('{"__proto__": {"polluted": 1}, "errcode": 7, "error": null}');
    });
    const err = await caught(client().http.request({ method: "GET", path: "/x" }));
    expect((err as MatrixError).errcode).toBe("M_UNKNOWN");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("gives a ResponseFormatError for a non-JSON or empty 2xx body", async () => {
    server.handle((_req, res, i) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(i === 0 ? "not json" : "");
    });
    const { http } = client();
    const first = await caught(http.request({ method: "GET", path: "/x" }));
    expect(first).toBeInstanceOf(ResponseFormatError);
    expect((first as ResponseFormatError).message).toBe("Response body is not valid JSON (HTTP 200)");
    const second = await caught(http.request({ method: "GET", path: "/x" }));
    expect((second as ResponseFormatError).message).toBe(
      "Empty response body where JSON was expected (HTTP 200)",
    );
  });

  it("retries 5xx with bounded backoff, then surfaces the error", async () => {
    server.handle((_req, res) => json(res, 503, { errcode: "M_UNKNOWN", error: "down" }));
    const { http, delays } = client({ retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 300 } });
    const err = await caught(http.request({ method: "GET", path: "/x" }));
    expect((err as MatrixError).httpStatus).toBe(503);
    expect(server.requests).toHaveLength(4);
    // random() = 0.5 gives three quarters of each cap: caps 100, 200, 300 (bounded).
    expect(delays).toEqual([75, 150, 225]);
  });

  it("does not retry when the request opts out", async () => {
    server.handle((_req, res) => json(res, 500, { errcode: "M_UNKNOWN", error: "down" }));
    await caught(client().http.request({ method: "GET", path: "/x", retry: false }));
    expect(server.requests).toHaveLength(1);
  });
});

describe("unrecognised endpoints", () => {
  const fallback = [{ prefix: "/_matrix/client/unstable", path: "/org.matrix.msc0000/thing" }];

  it.each([
    [400, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }],
    [404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }],
    [405, { errcode: "M_UNRECOGNIZED", error: "Method not allowed" }],
  ])("falls back to the next prefix on %i", async (status, body) => {
    server.handle((req, res) =>
      req.url.startsWith("/_matrix/client/v1/")
        ? json(res, status, body)
        : json(res, 200, { found: req.url }),
    );
    const result = await client().http.request({
      method: "GET",
      prefix: "/_matrix/client/v1",
      path: "/thing",
      fallback,
    });
    expect(result).toEqual({ found: "/_matrix/client/unstable/org.matrix.msc0000/thing" });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/_matrix/client/v1/thing",
      "/_matrix/client/unstable/org.matrix.msc0000/thing",
    ]);
  });

  it("does not treat a plain 400 M_BAD_JSON as unrecognised", async () => {
    server.handle((_req, res) => json(res, 400, { errcode: "M_BAD_JSON", error: "bad" }));
    const err = await caught(client().http.request({ method: "POST", path: "/thing", body: {}, fallback }));
    expect((err as MatrixError).errcode).toBe("M_BAD_JSON");
    expect(server.requests).toHaveLength(1);
  });

  it("surfaces the last error when every prefix is unrecognised", async () => {
    server.handle((req, res) => json(res, 404, { errcode: "M_UNRECOGNIZED", error: req.url }));
    const err = await caught(client().http.request({ method: "GET", path: "/thing", fallback }));
    expect((err as MatrixError).error).toBe("/_matrix/client/unstable/org.matrix.msc0000/thing");
  });
});

describe("connection failures", () => {
  it("times out and does not retry the time-out", async () => {
    server.handle(() => undefined); // never answers
    const { http, delays } = client();
    const err = await caught(http.request({ method: "GET", path: "/slow", timeoutMs: 100 }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).kind).toBe("timeout");
    expect((err as ConnectionError).code).toBe("TIMEOUT");
    expect(delays).toEqual([]);
  });

  it("treats an infinite time-out as none", async () => {
    server.handle((_req, res) => {
      setTimeout(() => json(res, 200, { late: true }), 50).unref();
    });
    const result = await client().http.request({ method: "GET", path: "/slow", timeoutMs: Infinity });
    expect(result).toEqual({ late: true });
  });

  it("retries a destroyed socket a bounded number of times", async () => {
    server.handle((_req, res) => res.socket?.destroy());
    const { http, delays } = client({ retry: { maxAttempts: 3 } });
    const err = await caught(http.request({ method: "GET", path: "/x" }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).kind).toBe("network");
    expect((err as ConnectionError).cause).toBeDefined();
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it("recovers when the network comes back", async () => {
    server.handle((_req, res, i) => (i < 2 ? res.socket?.destroy() : json(res, 200, { back: true })));
    await expect(client().http.request({ method: "GET", path: "/x" })).resolves.toEqual({ back: true });
  });

  it("surfaces a caller abort as an aborted ConnectionError carrying the reason, without retrying", async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    const { http, delays } = client();
    const pending = caught(http.request({ method: "GET", path: "/slow", signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("user left")), 50).unref();
    const err = await pending;
    expect(isAbortError(err)).toBe(true);
    expect(((err as ConnectionError).cause as Error).message).toBe("user left");
    expect(delays).toEqual([]);
  });

  it("rejects at once when the signal is already aborted", async () => {
    server.handle((_req, res) => json(res, 200, {}));
    const err = await caught(
      client().http.request({ method: "GET", path: "/x", signal: AbortSignal.abort() }),
    );
    expect(isAbortError(err)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it("aborting during the backoff wait stops the retries", async () => {
    server.handle((_req, res) => json(res, 503, { errcode: "M_UNKNOWN", error: "down" }));
    const controller = new AbortController();
    const http = createHttpClient({
      baseUrl: server.baseUrl,
      random: () => 0,
      retry: { baseDelayMs: 60_000 },
    });
    const pending = caught(http.request({ method: "GET", path: "/x", signal: controller.signal }));
    setTimeout(() => controller.abort(), 100).unref();
    expect(isAbortError(await pending)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
