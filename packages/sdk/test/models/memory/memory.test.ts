/**
 * Memory: after syncing the bench/sync fixture's initial sync (1,000 rooms)
 * and opening and closing 100 rooms' timelines (each paginated back a page),
 * the heap returns to within 10% of where it was, and no timeline stays
 * materialised. The heap is measured in a child process run with
 * --expose-gc (vitest's workers have no global.gc), through tsx.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./heap-check.ts", import.meta.url));

interface HeapReport {
  rooms: number;
  opened: number;
  before: number;
  held: number;
  after: number;
  heldEvents: number;
  materialised: number;
}

function runHeapCheck(rooms: number, opened: number): Promise<HeapReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--expose-gc", "--import", "tsx", script, String(rooms), String(opened)],
      { timeout: 240_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`heap check failed: ${stderr}`, { cause: error }));
        else resolve(JSON.parse(stdout) as HeapReport);
      },
    );
  });
}

describe("room model memory", () => {
  it(
    "returns the heap to within 10% after opening and closing 100 rooms' timelines",
    { timeout: 250_000 },
    async () => {
      const report = await runHeapCheck(1000, 100);
      expect(report.rooms).toBeGreaterThanOrEqual(1000);
      expect(report.opened).toBe(100);
      // The timelines were really loaded beyond the sync events: 20 initial + 30 paginated each.
      expect(report.heldEvents).toBeGreaterThanOrEqual(100 * 50);
      expect(report.held).toBeGreaterThan(report.before);
      expect(report.materialised).toBe(0);
      expect(report.after).toBeLessThanOrEqual(report.before * 1.1);
    },
  );
});
