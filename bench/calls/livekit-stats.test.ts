/** The LiveKit call bench's arithmetic: which records time a join, CPU rates from two metric readings, ratios. */
import { describe, expect, it } from "vitest";
import {
  addRates,
  cpuRate,
  firstFrameAfter,
  lastJoinClick,
  liveKitRatios,
  liveKitVerdict,
  metricMap,
  summariseLiveKit,
} from "./livekit-stats";

const reading = (t: number, task: number, script: number, process: number) =>
  metricMap([
    { name: "Timestamp", value: t },
    { name: "TaskDuration", value: task },
    { name: "ScriptDuration", value: script },
    { name: "LayoutDuration", value: script / 10 },
    { name: "RecalcStyleDuration", value: script / 10 },
    { name: "ProcessTime", value: process },
  ]);

describe("bench/calls LiveKit stats", () => {
  it("times a join from the last Join click to the first remote frame after it", () => {
    const clicks = [
      { at: 100, testid: "lobby-join", text: "Join" },
      { at: 150, testid: "video-call-button", text: "" },
      { at: 300, testid: "lobby-join", text: "Join" },
    ];
    const click = lastJoinClick(clicks, (c) => c.testid === "lobby-join");
    expect(click).toBe(300);
    expect(lastJoinClick(clicks, (c) => c.testid === "lobby_joinCall")).toBeNull();
    const frames = [
      { at: 200, via: "rvfc" as const },
      { at: 520, via: "poll" as const },
      { at: 480, via: "rvfc" as const },
    ];
    expect(firstFrameAfter(frames, 300)).toBe(480);
    expect(firstFrameAfter(frames, 600)).toBeNull();
  });

  it("turns two metric readings into ms of CPU per second, and sums a page's targets", () => {
    const rate = cpuRate(reading(10, 1, 0.5, 2), reading(30, 3, 1.5, 6));
    expect(rate.taskMsPerS).toBeCloseTo(100);
    expect(rate.scriptMsPerS).toBeCloseTo(50);
    expect(rate.layoutMsPerS).toBeCloseTo(10);
    expect(rate.processMsPerS).toBeCloseTo(200);
    expect(addRates([rate, rate]).taskMsPerS).toBeCloseTo(200);
    expect(() => cpuRate(reading(10, 1, 1, 1), reading(10, 2, 2, 2))).toThrow("an empty measuring window");
    expect(() => cpuRate(metricMap([{ name: "Timestamp", value: 1 }]), reading(2, 1, 1, 1))).toThrow(
      "the metric TaskDuration is missing",
    );
  });

  it("summarises each client and compares them", () => {
    const cpu = (task: number) => ({
      taskMsPerS: task,
      scriptMsPerS: task / 2,
      layoutMsPerS: 1,
      processMsPerS: task * 3,
    });
    const lattice = summariseLiveKit([100, 200, 300], 0, [cpu(40), cpu(60)]);
    const ec = summariseLiveKit([400, 500, 600], 1, [cpu(80), cpu(120)]);
    expect(lattice.join).toEqual({ median: 200, p95: 300 });
    expect(lattice.cpu).toEqual({ median: 50, p95: 60 });
    expect(ec.failedJoins).toBe(1);
    const r = liveKitRatios(lattice, ec);
    expect(r["joinMedian"]).toBeCloseTo(0.4);
    expect(r["cpuMedian"]).toBeCloseTo(0.5);
    expect(r["processP95"]).toBeCloseTo(0.5);
    expect(liveKitVerdict(lattice, ec)).toEqual({ joinsFaster: true, lessCpu: true });
    expect(liveKitVerdict(lattice, summariseLiveKit([], 10, []))).toBeNull();
    expect(liveKitRatios(lattice, summariseLiveKit([], 10, []))).toEqual({});
  });
});
