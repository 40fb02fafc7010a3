/** The bench's arithmetic: nearest-rank p95, medians, ratios and the target verdict. */
import { describe, expect, it } from "vitest";
import { median, percentile, ratios, summarise, verdict } from "./stats";

describe("bench/calls stats", () => {
  it("takes p95 by nearest rank and the median of an even count", () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(19);
    expect(percentile([5], 95)).toBe(5);
    expect(median(values)).toBe(10.5);
    expect(() => percentile([], 95)).toThrow("percentile of nothing");
  });

  it("summarises, compares and judges the targets", () => {
    const lattice = summarise([
      { ringingMs: 100, connectedMs: 300 },
      { ringingMs: 200, connectedMs: 500 },
    ]);
    const jssdk = summarise([
      { ringingMs: 400, connectedMs: 200 },
      { ringingMs: 600, connectedMs: 400 },
    ]);
    expect(lattice.ringing).toEqual({ median: 150, p95: 200 });
    expect(ratios(lattice, jssdk).ringingP95).toBeCloseTo(1 / 3);
    expect(verdict(lattice, jssdk)).toEqual({
      ringingUnder500ms: true,
      ringingP95NoSlower: true,
      connectedP95NoSlower: false,
    });
  });
});
