/**
 * Sync failures by kind, on fake time: a failed store write is a store
 * failure and an unparsable answer a protocol failure; neither is shown as a
 * lost connection (no "reconnecting", no keep-alive probe). Only network and
 * server failures reconnect. The batch that failed is fetched again, so no
 * sync data is dropped.
 */
import { describe, expect, it, vi } from "vitest";
import type { SyncResponse } from "../../src/api/types/sync";
import { ConnectionError } from "../../src/http/errors";
import { StoreError } from "../../src/store/errors";
import { classifySyncFailure } from "../../src/sync/errors";
import type { SyncFailure } from "../../src/sync/errors";
import { SyncLoop } from "../../src/sync/SyncLoop";
import type { SyncBatchHandler, SyncRequest, SyncState, SyncTransport } from "../../src/sync/SyncLoop";
import { SyncParseError } from "../../src/sync/validate/parseSync";
import { FakeScheduler, flush } from "../support/fake-scheduler";

class ScriptedTransport implements SyncTransport {
  readonly requests: SyncRequest[] = [];
  probes = 0;
  answers: Array<SyncResponse | Error> = [];

  sync(request: SyncRequest): Promise<SyncResponse> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) {
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }

  probe(): Promise<void> {
    this.probes += 1;
    return Promise.resolve();
  }
}

function setup(handler: SyncBatchHandler) {
  const transport = new ScriptedTransport();
  const scheduler = new FakeScheduler([0]);
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const loop = new SyncLoop({ transport, handler, scheduler, logger });
  const states: Array<SyncState | null> = [];
  const failures: Array<SyncFailure | null> = [];
  loop.state.subscribe((s) => states.push(s));
  loop.failure.subscribe((f) => failures.push(f));
  return { transport, scheduler, loop, states, failures };
}

const diskFull = (): StoreError =>
  new StoreError("WRITE_FAILED", "Saving on this device failed; continuing in memory", {
    cause: Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" }),
  });

describe("classifySyncFailure by kind", () => {
  it("a store error or a quota error is store; a parse error is protocol; a lost request is network", () => {
    expect(classifySyncFailure(diskFull(), true).kind).toBe("store");
    const quota = Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
    expect(classifySyncFailure(quota, true).kind).toBe("store");
    expect(classifySyncFailure(new SyncParseError("rooms.join is not an object")).kind).toBe("protocol");
    expect(classifySyncFailure(new ConnectionError("network", "fetch failed")).kind).toBe("network");
  });
});

describe("SyncLoop by kind", () => {
  it("a store write failure is a store failure, not reconnecting, and the batch is fetched again", async () => {
    const handled: string[] = [];
    let full = true;
    const { transport, scheduler, loop, states, failures } = setup((response) => {
      if (full) return Promise.reject(diskFull());
      handled.push(response.next_batch);
      return Promise.resolve();
    });
    transport.answers = [{ next_batch: "s1" }, { next_batch: "s1" }];
    loop.start();
    await flush();
    expect(failures.at(-1)).toMatchObject({
      kind: "store",
      message: "Saving on this device failed; continuing in memory",
      permanent: false,
    });
    expect(states).not.toContain("reconnecting");
    expect(transport.probes).toBe(0);
    // The store recovers (or the client went to memory): the same batch comes again, nothing is lost.
    full = false;
    await scheduler.advance(2_000);
    // The retry asks from the same token (none yet); only after the handler succeeded does it move on.
    expect(transport.requests.map((r) => r.since)).toEqual([undefined, undefined, "s1"]);
    expect(handled).toEqual(["s1"]);
    expect(states).toEqual(["prepared"]);
    expect(failures.at(-1)).toBeNull();
    expect(transport.probes).toBe(0);
    await loop.stop();
  });

  it("a parse failure is a protocol failure: no reconnecting, no keep-alive, error at the threshold", async () => {
    const { transport, scheduler, loop, states, failures } = setup(() => Promise.resolve());
    const bad = (): SyncParseError => new SyncParseError("Invalid sync response: rooms is not an object");
    transport.answers = [bad(), bad(), bad(), { next_batch: "s1" }];
    loop.start();
    await flush();
    expect(failures.at(-1)).toMatchObject({
      kind: "protocol",
      message: "Invalid sync response: rooms is not an object",
      permanent: false,
    });
    expect(states).toEqual([]);
    await scheduler.advance(2_000);
    await scheduler.advance(4_000);
    expect(transport.requests).toHaveLength(3);
    expect(states).toEqual(["error"]);
    // It keeps asking (a server may mend its answers), without keep-alive probes.
    await scheduler.advance(8_000);
    expect(states.at(-1)).toBe("prepared");
    expect(failures.at(-1)).toBeNull();
    expect(transport.probes).toBe(0);
    await loop.stop();
  });

  it("only a network failure reconnects, through the keep-alive", async () => {
    const { transport, loop, states, failures } = setup(() => Promise.resolve());
    transport.answers = [new ConnectionError("network", "fetch failed")];
    loop.start();
    await flush();
    expect(states).toEqual(["reconnecting"]);
    expect(failures.at(-1)).toMatchObject({ kind: "network" });
    await loop.stop();
  });
});
