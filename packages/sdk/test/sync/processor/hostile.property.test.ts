/**
 * Property: random, malformed and hostile sync answers (wrong types, huge
 * strings, deep nesting, ids like __proto__ and constructor, missing fields,
 * duplicate event ids, garbage bodies) go through a real SyncLoop into the
 * processor. The loop keeps running, bad events are dropped with a log line,
 * and every good event arrives exactly once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SyncResponse } from "../../../src/api/types/sync";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { SyncLoop } from "../../../src/sync/SyncLoop";
import type { SyncRequest, SyncTransport } from "../../../src/sync/SyncLoop";
import type { Scheduler } from "../../../src/util/scheduler";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import { recordingLogger } from "./fixtures";

/** Time that passes at once: sleeps resolve on the next tick, so retries run without waiting. */
const instantScheduler: Scheduler = {
  now: () => Date.now(),
  random: () => 0,
  sleep: (_ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) reject(new Error("aborted"));
      else setImmediate(resolve);
    }),
};

/** Answers sync requests from a list, then long-polls until stopped, resolving `drained`. */
class ScriptedTransport implements SyncTransport {
  private resolveDrained!: () => void;
  readonly drained = new Promise<void>((resolve) => (this.resolveDrained = resolve));
  constructor(private readonly answers: unknown[]) {}
  sync(request: SyncRequest): Promise<SyncResponse> {
    if (this.answers.length === 0) {
      this.resolveDrained();
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    return Promise.resolve(this.answers.shift() as SyncResponse);
  }
  probe(): Promise<void> {
    return Promise.resolve();
  }
}

const ROOMS = ["!a:x", "!__proto__:x", "!constructor:x"];
const deep = (() => {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) v = { d: v };
  return v;
})();

/** Hostile event shapes; each one must be dropped. */
const hostileEvent = fc.oneof(
  fc.constantFrom<unknown>(null, 7, "event", [], true),
  fc.record({ type: fc.constant("m.room.message"), sender: fc.constant("@a:x"), content: fc.constant({}) }),
  fc.record({
    event_id: fc.integer(),
    type: fc.constant("m.x"),
    sender: fc.constant("@a:x"),
    content: fc.constant({}),
  }),
  fc.record({
    event_id: fc.constant("$h"),
    type: fc.constant(5),
    sender: fc.constant("@a:x"),
    content: fc.constant({}),
  }),
  fc.record({
    event_id: fc.constant("$h"),
    type: fc.constant("m.x"),
    content: fc.constant({}),
    origin_server_ts: fc.constant(1),
  }),
  fc.record({
    event_id: fc.constant("$h"),
    type: fc.constant("m.x"),
    sender: fc.constant("@a:x"),
    origin_server_ts: fc.constant(1),
    content: fc.constantFrom<unknown>(null, "x", [1], { body: "a".repeat(70_000) }, deep),
  }),
  fc.record({
    event_id: fc.constant("$" + "x".repeat(400)),
    type: fc.constant("m.x"),
    sender: fc.constant("@a:x"),
    origin_server_ts: fc.constant(1),
    content: fc.constant({}),
  }),
);

interface PlannedBatch {
  garbage: unknown;
  rooms: Array<{ room: number; good: number; hostile: unknown[]; dupes: number }>;
  hostileRoomKeys: string[];
  wrongTypes: boolean;
}

const plannedBatch: fc.Arbitrary<PlannedBatch> = fc.record({
  garbage: fc.option(fc.constantFrom<unknown>(null, "<html>", [], { rooms: {} }, { next_batch: 4 }), {
    freq: 6,
    nil: undefined,
  }),
  rooms: fc.array(
    fc.record({
      room: fc.integer({ min: 0, max: ROOMS.length - 1 }),
      good: fc.integer({ min: 0, max: 4 }),
      hostile: fc.array(hostileEvent, { maxLength: 4 }),
      dupes: fc.integer({ min: 0, max: 2 }),
    }),
    { maxLength: 3 },
  ),
  hostileRoomKeys: fc.subarray(["__proto__", "constructor", "no-sigil", "!" + "r".repeat(300)]),
  wrongTypes: fc.boolean(),
});

/**
 * Builds the JSON text of one planned answer; returns it parsed, with the good event ids it
 * carries and how many hostile events and room keys it really holds (a room planned twice is
 * built once, so the second plan's hostile events never go out).
 */
function build(
  plan: PlannedBatch,
  n: number,
  counter: { next: number },
): { answer: unknown; good: string[]; hostile: number } {
  if (plan.garbage !== undefined) return { answer: plan.garbage, good: [], hostile: 0 };
  const good: string[] = [];
  let hostile = plan.hostileRoomKeys.length;
  const join: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const usedRooms = new Set<number>();
  for (const r of plan.rooms) {
    if (usedRooms.has(r.room)) continue;
    usedRooms.add(r.room);
    const events: unknown[] = [];
    const ids: string[] = [];
    for (let g = 0; g < r.good; g++) {
      const id = `$${g % 2 === 0 ? "constructor" : "__proto__"}-${counter.next++}`;
      ids.push(id);
      events.push({
        event_id: id,
        type: "m.room.message",
        sender: "@a:x",
        origin_server_ts: 1,
        content: { body: id },
      });
    }
    for (let d = 0; d < Math.min(r.dupes, ids.length); d++)
      events.push({ ...(events[d] as object), content: { body: "dupe" } });
    events.push(...r.hostile);
    hostile += r.hostile.length;
    good.push(...ids);
    join[ROOMS[r.room] as string] = { timeline: { events, limited: plan.wrongTypes ? "yes" : false } };
  }
  for (const key of plan.hostileRoomKeys) {
    join[key] = {
      timeline: {
        events: [{ event_id: "$lost", type: "m.x", sender: "@a:x", origin_server_ts: 1, content: {} }],
      },
    };
  }
  const body: Record<string, unknown> = { next_batch: `s${n}`, rooms: { join } };
  if (plan.wrongTypes)
    Object.assign(body, { presence: "x", account_data: { events: 5 }, to_device: [], device_lists: 3 });
  return { answer: JSON.parse(JSON.stringify(body)) as unknown, good, hostile };
}

describe("processor under hostile sync answers", () => {
  it("keeps the loop running, drops bad events with a log line and delivers every good one once", async () => {
    // Once failed (seed -551650181): room 2 planned twice, the hostile event only in the plan not built.
    await fc.assert(
      fc.asyncProperty(fc.array(plannedBatch, { minLength: 1, maxLength: 6 }), async (plans) => {
        const counter = { next: 0 };
        const built = plans.map((p, i) => build(p, i, counter));
        const expected = built.flatMap((b) => b.good);
        const hostileCount = built.reduce((sum, b) => sum + b.hostile, 0);
        const logger = recordingLogger();
        const processor = new SyncProcessor({ store: new MemoryStore(), logger });
        const seen: string[] = [];
        processor.subscribe((batch) => {
          for (const room of batch.rooms.join.values())
            for (const e of room.timeline.events) seen.push(e.event_id);
        });
        const transport = new ScriptedTransport(built.map((b) => b.answer));
        const loop = new SyncLoop({
          transport,
          handler: processor.handle,
          scheduler: instantScheduler,
          logger,
        });
        loop.start();
        await transport.drained;
        expect(loop.isRunning).toBe(true);
        expect(loop.state.getSnapshot()).not.toBe("error");
        await loop.stop();
        expect([...seen].sort()).toEqual([...expected].sort());
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).not.toContain("$lost");
        const drops = logger.lines.filter((l) => l.startsWith("Sync: dropped"));
        if (hostileCount > 0) expect(drops.length).toBeGreaterThan(0);
        expect(drops.length).toBeLessThanOrEqual(51 * plans.length);
        expect(({} as Record<string, unknown>)["body"]).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
