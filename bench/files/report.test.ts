/** The files bench's arithmetic (the bench itself never runs as a test). */
import { describe, expect, it } from "vitest";
import { median, megabytesPerSecond, percentOfRaw } from "./report";

describe("files bench report", () => {
  it("computes MB/s, medians and the percentage of the raw transfer", () => {
    expect(megabytesPerSecond(50_000_000, 1000)).toBe(50);
    expect(megabytesPerSecond(1, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(percentOfRaw(35, 50)).toBe(70);
  });
});
