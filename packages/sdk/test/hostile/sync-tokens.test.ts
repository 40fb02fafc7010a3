/**
 * Sync tokens the client echoes back (next_batch as the next `since`,
 * prev_batch as a pagination `from`) are accepted only when they survive a
 * round trip through a query string unchanged. A lone surrogate does not:
 * URLSearchParams turns it into U+FFFD, so the next request would carry a
 * token the server never issued. An unusable next_batch fails the sync with
 * a protocol error: the loop stops in state error, reports the failure's
 * kind, and sends nothing more (no crash, no endless retry).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import type { SyncResponse } from "../../src/api/types/sync";
import { createHttpClient } from "../../src/http/client";
import { MemoryStore } from "../../src/store/MemoryStore";
import { SyncProcessor } from "../../src/sync/processor/SyncProcessor";
import { SyncLoop } from "../../src/sync/SyncLoop";
import type { SyncRequest, SyncTransport } from "../../src/sync/SyncLoop";
import { HttpSyncTransport } from "../../src/sync/transport";
import { parseSyncResponse, SyncParseError, SyncProtocolError } from "../../src/sync/validate/parseSync";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const LONE_HIGH = "s1\uD800";
const LONE_LOW = "\uDC00s2";
const UNUSABLE_MESSAGE = "Invalid sync response: next_batch does not survive a round trip";

function quiet() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

describe("parseSyncResponse and echoed tokens", () => {
  it.each([LONE_HIGH, LONE_LOW, "a\uDFFF\uD800b"])("rejects next_batch %j with a protocol error", (token) => {
    const err = (() => {
      try {
        parseSyncResponse({ next_batch: token }, { logger: quiet() });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(SyncProtocolError);
    expect(err).toBeInstanceOf(SyncParseError);
    expect((err as Error).message).toBe(UNUSABLE_MESSAGE);
  });

  it("accepts a token with astral characters, spaces and reserved characters unchanged", () => {
    const token = "s_1 2&3=4+5%6/😀#?";
    expect(parseSyncResponse({ next_batch: token }, { logger: quiet() }).nextBatch).toBe(token);
  });

  it("drops a prev_batch that would not round-trip, with a log line, and keeps the timeline", () => {
    const logger = quiet();
    const parsed = parseSyncResponse(
      {
        next_batch: "s2",
        rooms: {
          join: {
            "!a:hs": { timeline: { events: [], limited: true, prev_batch: "p\uD83D" } },
            "!b:hs": { timeline: { events: [], limited: true, prev_batch: "p 😀" } },
          },
        },
      },
      { logger },
    );
    expect(parsed.rooms.join.get("!a:hs")?.timeline).toEqual({ events: [], limited: true });
    expect(parsed.rooms.join.get("!b:hs")?.timeline.prevBatch).toBe("p 😀");
    expect(logger.warn.mock.calls.map((c) => String(c[0])).join("\n")).toContain("prev_batch");
  });
});

/** Answers from a queue, then long-polls until aborted. */
class ScriptedTransport implements SyncTransport {
  readonly requests: SyncRequest[] = [];
  constructor(private readonly answers: SyncResponse[]) {}
  sync(request: SyncRequest): Promise<SyncResponse> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer !== undefined) return Promise.resolve(answer);
    return new Promise((_, reject) =>
      request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
    );
  }
  probe(): Promise<void> {
    return Promise.resolve();
  }
}

describe("SyncLoop and an unusable next_batch", () => {
  it("stops in state error with a protocol failure, keeping the last good token (pass-through handler)", async () => {
    const transport = new ScriptedTransport([{ next_batch: "s1" }, { next_batch: LONE_HIGH }]);
    const logger = quiet();
    const loop = new SyncLoop({
      transport,
      handler: () => Promise.resolve(),
      scheduler: new FakeScheduler(),
      logger,
    });
    loop.start();
    await flush();
    expect(loop.state.getSnapshot()).toBe("error");
    expect(loop.isRunning).toBe(false);
    expect(loop.failure.getSnapshot()).toMatchObject({
      kind: "protocol",
      error: { message: UNUSABLE_MESSAGE },
    });
    expect(loop.nextSince).toBe("s1");
    expect(transport.requests.map((r) => r.since)).toEqual([undefined, "s1"]);
    expect(logger.error).toHaveBeenCalledWith(UNUSABLE_MESSAGE, expect.anything());
  });

  it("stops the same way when the processor's validation finds it", async () => {
    const transport = new ScriptedTransport([{ next_batch: LONE_LOW }]);
    const processor = new SyncProcessor({ store: new MemoryStore(), logger: quiet() });
    const loop = new SyncLoop({
      transport,
      handler: processor.handle,
      scheduler: new FakeScheduler(),
      logger: quiet(),
    });
    loop.start();
    await flush();
    expect(loop.state.getSnapshot()).toBe("error");
    expect(loop.failure.getSnapshot()?.kind).toBe("protocol");
    expect(transport.requests).toHaveLength(1);
  });

  it("reports a failed request as kind network and keeps retrying", async () => {
    const transport = new ScriptedTransport([]);
    transport.sync = (request) => {
      transport.requests.push(request);
      return Promise.reject(new TypeError("fetch failed"));
    };
    const scheduler = new FakeScheduler();
    const loop = new SyncLoop({ transport, handler: () => Promise.resolve(), scheduler, logger: quiet() });
    loop.start();
    await flush();
    expect(loop.failure.getSnapshot()?.kind).toBe("network");
    expect(loop.isRunning).toBe(true);
    await loop.stop();
  });
});

describe("over HTTP", () => {
  it("never sends a since the server did not issue", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname.endsWith("/versions")) {
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ versions: ["v1.11"] }));
        return;
      }
      seen.push(url.searchParams.get("since") ?? "(none)");
      // JSON.stringify writes the lone surrogate as \ud800; JSON.parse reads it back as one.
      const body = JSON.stringify({ next_batch: seen.length === 1 ? "good" : LONE_HIGH });
      res.writeHead(200, { "Content-Type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const http = createHttpClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        accessToken: "t",
        retry: false,
      });
      const loop = new SyncLoop({
        transport: new HttpSyncTransport({ http, stateAfter: "none", logger: quiet() }),
        handler: () => Promise.resolve(),
        scheduler: new FakeScheduler(),
        logger: quiet(),
      });
      loop.start();
      await vi.waitFor(() => expect(loop.state.getSnapshot()).toBe("error"));
      expect(loop.failure.getSnapshot()?.kind).toBe("protocol");
      expect(seen).toEqual(["(none)", "good"]);
      expect(seen).not.toContain("s1\uFFFD");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("a stored since that would not survive a round trip", () => {
  it("is never sent: the loop stops at once with the protocol error", async () => {
    const transport = new ScriptedTransport([{ next_batch: "s2" }]);
    const loop = new SyncLoop({
      transport,
      handler: () => Promise.resolve(),
      scheduler: new FakeScheduler(),
      logger: quiet(),
      since: LONE_HIGH,
    });
    loop.start();
    await flush();
    expect(transport.requests).toEqual([]);
    expect(loop.state.getSnapshot()).toBe("error");
    expect(loop.failure.getSnapshot()).toMatchObject({ kind: "protocol", message: UNUSABLE_MESSAGE });
  });
});
