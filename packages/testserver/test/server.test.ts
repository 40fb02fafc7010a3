/**
 * The HTTP front of the test homeserver: routing errors, body errors, auth
 * errors and fault injection.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../src";
import type { TestServerHandle } from "../src";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: 1 });
});
afterEach(() => server.faults.reset());
afterAll(() => server.stop());

async function json(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(server.url + path, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("test homeserver front", () => {
  it("serves the versions document without auth", async () => {
    const { status, body } = await json("/_matrix/client/versions");
    expect(status).toBe(200);
    expect(body["versions"]).toContain("v1.11");
    expect(typeof body["unstable_features"]).toBe("object");
  });

  it("answers an unknown endpoint 404 M_UNRECOGNIZED and a wrong method 405", async () => {
    expect(await json("/_matrix/client/v3/nope")).toMatchObject({
      status: 404,
      body: { errcode: "M_UNRECOGNIZED" },
    });
    expect(await json("/_matrix/client/versions", { method: "DELETE" })).toMatchObject({
      status: 405,
      body: { errcode: "M_UNRECOGNIZED" },
    });
  });

  it("injects delays, failures, rate limits and garbage for matching paths only", async () => {
    server.faults.add({ path: "/versions", rateLimitMs: 1500, times: 1 });
    const limited = await fetch(server.url + "/_matrix/client/versions");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toMatchObject({ errcode: "M_LIMIT_EXCEEDED", retry_after_ms: 1500 });
    expect((await json("/_matrix/client/versions")).status).toBe(200);

    server.faults.add({ path: /versions$/, status: 502, times: 1 });
    expect((await json("/_matrix/client/versions")).status).toBe(502);

    server.faults.add({ path: "/versions", garbage: true, times: 1 });
    const garbage = await fetch(server.url + "/_matrix/client/versions");
    await expect(garbage.json()).rejects.toThrow();

    server.faults.add({ path: "/versions", delayMs: 150, times: 1 });
    const started = Date.now();
    expect((await json("/_matrix/client/versions")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("drops connections when told to, and when offline", async () => {
    server.faults.add({ path: "/versions", drop: true, times: 1 });
    await expect(fetch(server.url + "/_matrix/client/versions")).rejects.toThrow();
    server.faults.setOffline(true);
    await expect(fetch(server.url + "/_matrix/client/versions")).rejects.toThrow();
    server.faults.setOffline(false);
    expect((await json("/_matrix/client/versions")).status).toBe(200);
  });
});
