/**
 * The HTTP SyncTransport against the test homeserver: the query it sends
 * (filter, since or cache-buster, timeout, set_presence, the MSC4222 flag
 * read from /versions), the local time-out, no hidden retries, the answers
 * it refuses, and the keep-alive probe's errors.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MatrixError, ResponseFormatError } from "../../../src/http/errors";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import { HttpSyncTransport } from "../../../src/sync/transport";
import { clientFor, quietLogger, recording, register, startServer } from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;

beforeAll(async () => {
  server = await startServer(42);
  alice = await register(server, "alice");
});
afterEach(() => server.faults.reset());
afterAll(async () => {
  await server.stop();
});

const signal = (): AbortSignal => new AbortController().signal;
const request = (since?: string) => ({
  ...(since !== undefined ? { since } : {}),
  timeout: 0,
  requestTimeoutMs: 5_000,
  signal: signal(),
});

describe("HttpSyncTransport", () => {
  it("sends the cache-buster without since, since after, the poll timeout and the local time-out", async () => {
    const http = recording(clientFor(server, alice));
    const transport = new HttpSyncTransport({
      http,
      stateAfter: "none",
      now: () => 1234,
      setPresence: "online",
    });
    const first = await transport.sync(request());
    await transport.sync({
      since: first.next_batch,
      timeout: 50,
      requestTimeoutMs: 80_050,
      signal: signal(),
    });
    const syncs = http.requests.filter((r) => r.path === "/sync");
    expect(syncs[0]?.query).toMatchObject({ _cacheBuster: 1234, timeout: 0, set_presence: "online" });
    expect(syncs[0]?.query).not.toHaveProperty("since");
    expect(syncs[1]?.query).toMatchObject({ since: first.next_batch, timeout: 50 });
    expect(syncs[1]?.query).not.toHaveProperty("_cacheBuster");
    expect(syncs[1]?.timeoutMs).toBe(80_050);
    expect(syncs.every((r) => r.retry === false)).toBe(true);
  });

  it("asks for state_after under the unstable name when /versions advertises MSC4222", async () => {
    const http = recording(clientFor(server, alice));
    const transport = new HttpSyncTransport({ http });
    await transport.sync(request());
    expect(transport.stateAfter).toBe("unstable");
    const sync = http.requests.find((r) => r.path === "/sync");
    expect(sync?.query?.["org.matrix.msc4222.use_state_after"]).toBe(true);
    const none = recording(clientFor(server, alice));
    await new HttpSyncTransport({ http: none, stateAfter: "none" }).sync(request());
    expect(Object.keys(none.requests[0]?.query ?? {}).some((k) => k.includes("state_after"))).toBe(false);
  });

  it("syncs without the flag when /versions fails, and learns it from a later probe", async () => {
    server.faults.add({ path: "/_matrix/client/versions", status: 500, times: 1 });
    const http = recording(clientFor(server, alice));
    const transport = new HttpSyncTransport({ http, logger: quietLogger() });
    await transport.sync(request());
    expect(transport.stateAfter).toBeUndefined();
    await transport.probe(15_000, signal());
    expect(transport.stateAfter).toBe("unstable");
  });

  it("does not ask /versions again after an error answer (only after no answer)", async () => {
    server.faults.add({ path: "/_matrix/client/versions", status: 404, times: 1 });
    const http = recording(clientFor(server, alice));
    const transport = new HttpSyncTransport({ http, logger: quietLogger() });
    const first = await transport.sync(request());
    await transport.sync(request(first.next_batch));
    expect(http.requests.filter((r) => r.path === "/_matrix/client/versions")).toHaveLength(1);
    expect(transport.stateAfter).toBeUndefined();

    server.faults.add({ path: "/_matrix/client/versions", drop: true, times: 1 });
    const retrying = recording(clientFor(server, alice));
    const again = new HttpSyncTransport({ http: retrying, logger: quietLogger() });
    const answer = await again.sync(request());
    await again.sync(request(answer.next_batch));
    expect(retrying.requests.filter((r) => r.path === "/_matrix/client/versions")).toHaveLength(2);
    expect(again.stateAfter).toBe("unstable");
  });

  it("uses the filter id and, when the server no longer knows it, creates a new one and sends once more", async () => {
    const http = recording(clientFor(server, alice));
    const filterIds = ["999", "0"];
    let recreated = 0;
    const transport = new HttpSyncTransport({
      http,
      stateAfter: "none",
      logger: quietLogger(),
      filters: {
        getFilterId: () => Promise.resolve(filterIds[0] as string),
        recreate: async () => {
          recreated += 1;
          filterIds.shift();
          const created = await http.request<{ filter_id: string }>({
            method: "POST",
            path: `/user/${encodeURIComponent(alice.userId)}/filter`,
            body: {},
          });
          filterIds[0] = created.filter_id;
          return created.filter_id;
        },
      },
    });
    const response = await transport.sync(request());
    expect(typeof response.next_batch).toBe("string");
    expect(recreated).toBe(1);
    const filters = http.requests.filter((r) => r.path === "/sync").map((r) => r.query?.["filter"]);
    expect(filters).toEqual(["999", filterIds[0]]);
  });

  it("rejects a garbage body and an answer without next_batch as a ResponseFormatError", async () => {
    server.faults.add({ path: "/sync", garbage: true, times: 1 });
    const transport = new HttpSyncTransport({ http: clientFor(server, alice), stateAfter: "none" });
    await expect(transport.sync(request())).rejects.toBeInstanceOf(ResponseFormatError);
    for (const body of [{}, null, [], { next_batch: 5 }, { next_batch: "" }]) {
      const fake: HttpApi = { request: <T>() => Promise.resolve(body as T) };
      await expect(new HttpSyncTransport({ http: fake, stateAfter: "none" }).sync(request())).rejects.toThrow(
        "Sync response has no next_batch",
      );
    }
  });

  it("does not retry 5xx itself: the loop must see the failure", async () => {
    server.faults.add({ path: "/sync", status: 503 });
    const transport = new HttpSyncTransport({ http: clientFor(server, alice, true), stateAfter: "none" });
    await expect(transport.sync(request())).rejects.toMatchObject({ httpStatus: 503 });
    expect(server.faults.hits).toHaveLength(1);
  });

  it("probes /_matrix/client/versions with no prefix and the given time-out, rejecting with the MatrixError", async () => {
    const seen: RequestOptions[] = [];
    const http = clientFor(server, alice);
    const spy: HttpApi = {
      request: <T>(o: RequestOptions) => {
        seen.push(o);
        return http.request<T>(o);
      },
    };
    const transport = new HttpSyncTransport({ http: spy, stateAfter: "none" });
    await transport.probe(15_000, signal());
    expect(seen[0]).toMatchObject({
      path: "/_matrix/client/versions",
      prefix: "",
      timeoutMs: 15_000,
      retry: false,
    });
    for (const status of [400, 404, 502]) {
      server.faults.add({ path: "/_matrix/client/versions", status, times: 1 });
      const error: unknown = await transport.probe(15_000, signal()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MatrixError);
      expect((error as MatrixError).httpStatus).toBe(status);
    }
  });
});
