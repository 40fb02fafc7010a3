/**
 * The performance contracts of the sync pipeline (bench/README.md): what
 * validation hands out is deeply frozen, the stores share frozen values and
 * copy the rest exactly as JSON would, the accumulator rebuilds a room's
 * stored form only when the room changed, and a restore keeps our own stored
 * events after a structural check instead of validating them again.
 */
import { describe, expect, it } from "vitest";
import { cloneJson } from "../../../src/store/MemoryStore";
import { restoreAccumulator } from "../../../src/sync/accumulator/restore";
import { SyncAccumulator } from "../../../src/sync/accumulator/SyncAccumulator";
import { checkJson } from "../../../src/sync/validate/json";
import { DEFAULT_VALIDATION_LIMITS } from "../../../src/sync/validate/limits";
import { parseSyncResponse } from "../../../src/sync/validate/parseSync";
import { recordingLogger } from "../processor/fixtures";

const event = (id: string, content: Record<string, unknown> = { body: "hi" }) => ({
  event_id: id,
  type: "m.room.message",
  sender: "@a:x",
  origin_server_ts: 1,
  content,
  unsigned: { age: 5 },
});

function parse(events: unknown[], nextBatch = "n1") {
  return parseSyncResponse(
    { next_batch: nextBatch, rooms: { join: { "!r:x": { timeline: { events, prev_batch: "p1" } } } } },
    { logger: recordingLogger() },
  );
}

describe("validation output is deeply frozen", () => {
  it("freezes the event, its content at every depth and its unsigned block", () => {
    const parsed = parse([event("$1", { body: "hi", nested: { list: [{ a: 1 }] } })]);
    const e = parsed.rooms.join.get("!r:x")?.timeline.events[0];
    expect(e).toBeDefined();
    expect(Object.isFrozen(e)).toBe(true);
    expect(Object.isFrozen(e?.content)).toBe(true);
    const nested = e?.content["nested"] as { list: Array<Record<string, unknown>> };
    expect(Object.isFrozen(nested)).toBe(true);
    expect(Object.isFrozen(nested.list)).toBe(true);
    expect(Object.isFrozen(nested.list[0])).toBe(true);
    expect(Object.isFrozen(e?.unsigned)).toBe(true);
    expect(() => {
      "use strict";
      (e?.content as Record<string, unknown>)["body"] = "changed";
    }).toThrow(TypeError);
  });

  it("keeps a __proto__ key as data and still refuses what is too deep", () => {
    const content = JSON.parse('{"__proto__": {"x": "y"}, "body": "b"}') as Record<string, unknown>;
    expect(checkJson(content, DEFAULT_VALIDATION_LIMITS, true)).toBeNull();
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.hasOwn(content, "__proto__")).toBe(true);
    let deep: unknown = "leaf";
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(checkJson(deep, DEFAULT_VALIDATION_LIMITS, true)).toMatch(/nesting deeper than 32/);
    expect(checkJson({ a: Array.from({ length: 30_000 }, () => 1) }, DEFAULT_VALIDATION_LIMITS)).toMatch(
      /more than 20000 JSON values/,
    );
  });
});

describe("cloneJson", () => {
  it("shares frozen values and copies the rest", () => {
    const frozen = Object.freeze({ a: Object.freeze([1, 2]) });
    const open = { b: { c: 1 } };
    const source = { frozen, open };
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(copy).not.toBe(source);
    expect(copy.frozen).toBe(frozen);
    expect(copy.open).not.toBe(open);
    expect(copy.open.b).not.toBe(open.b);
  });

  it("copies as JSON does: undefined and functions dropped, holes and NaN null, __proto__ kept as data", () => {
    const withProto = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    // eslint-disable-next-line no-sparse-arrays
    const source = { u: undefined, f: () => 1, n: Number.NaN, list: [1, , undefined, Infinity], withProto };
    const copy = cloneJson(source) as unknown as Record<string, unknown>;
    expect(copy).toEqual(JSON.parse(JSON.stringify(source)));
    expect(Object.hasOwn(copy, "u")).toBe(false);
    expect(copy["list"]).toEqual([1, null, null, null]);
    const copiedProto = copy["withProto"] as Record<string, unknown>;
    expect(Object.getPrototypeOf(copiedProto)).toBe(Object.prototype);
    expect(Object.hasOwn(copiedProto, "__proto__")).toBe(true);
    expect((copiedProto as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe("accumulator snapshot", () => {
  it("is frozen, and reuses a room's stored form until a batch changes the room", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(parse([event("$1")]));
    const first = acc.serialise();
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.join)).toBe(true);
    const again = acc.serialise();
    expect(again.join[0]).toBe(first.join[0]);
    acc.accumulate(parse([event("$2")], "n2"), "n1");
    const changed = acc.serialise();
    expect(changed.join[0]).not.toBe(first.join[0]);
    expect(changed.join[0]?.timeline.events.map((e) => e.event_id)).toEqual(["$1", "$2"]);
    // Storing it copies nothing but the wrapper.
    expect(cloneJson({ roomsData: changed }).roomsData).toBe(changed);
  });

  it("restores our own events by reference after a structural check, dropping malformed ones", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(parse([event("$1"), event("$2")]));
    const stored = JSON.parse(JSON.stringify(acc.serialise())) as { join: Array<Record<string, unknown>> };
    const room = stored.join[0] as { timeline: { events: unknown[] } };
    const kept = room.timeline.events[0];
    room.timeline.events.push({ event_id: "$3", type: "m.room.message", sender: "@a:x", content: {} });
    const log = recordingLogger();
    const restored = restoreAccumulator(stored, [], { logger: log });
    const events = restored.serialise().join[0]?.timeline.events ?? [];
    expect(events.map((e) => e.event_id)).toEqual(["$1", "$2"]);
    expect(events[0]).toBe(kept);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(log.lines.some((l) => l.includes("stored timeline event in !r:x"))).toBe(true);
  });
});
