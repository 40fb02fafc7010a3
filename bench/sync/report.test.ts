/**
 * The bench report's arithmetic: medians, Lattice / js-sdk ratios and the
 * issue 4 targets at 3,000 rooms (5x faster, a third of the heap).
 */
import { describe, expect, it } from "vitest";
import type { FixtureMeta } from "./fixture";
import type { ChildResult } from "./protocol";
import { formatTable, median, summarise } from "./report";

function result(initialMs: number, heapMb: number): ChildResult {
  return {
    initialMs,
    incrementalMs: initialMs / 2,
    heapBytes: heapMb * 2 ** 20,
    baselineHeapBytes: 2 ** 20,
    rooms: 10,
    includes: "test",
  };
}

function meta(rooms: number): FixtureMeta {
  return {
    version: 0,
    seed: 1,
    rooms,
    bigRooms: 0,
    directRooms: 0,
    invites: 0,
    batches: 200,
    initialEvents: 0,
    batchEvents: 0,
    userId: "@bench:bench.local",
    finalToken: "s200",
  };
}

describe("bench report", () => {
  it("takes the median of odd and even counts, whatever the order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  it("computes ratios on the medians and judges the targets at 3,000 rooms only", () => {
    const runs = {
      lattice: [result(100, 30), result(90, 31), result(500, 29)],
      "js-sdk": [result(1000, 100), result(900, 90), result(1100, 95)],
    };
    const at3000 = summarise(meta(3000), runs);
    expect(at3000.ratios.initial).toBeCloseTo(100 / 1000);
    expect(at3000.ratios.heap).toBeCloseTo(30 / 95);
    expect(at3000.targetsMet).toEqual({ initial: true, heap: true });
    expect(summarise(meta(1000), runs).targetsMet).toBeUndefined();
    const slow = summarise(meta(3000), { ...runs, lattice: [result(400, 50)] });
    expect(slow.targetsMet).toEqual({ initial: false, heap: false });
    expect(formatTable([slow])).toContain("NOT met");
  });
});
