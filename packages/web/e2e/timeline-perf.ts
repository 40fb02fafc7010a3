/**
 * Timeline performance probes for browser tests and bench/web: scroll a
 * scroller element frame by frame with requestAnimationFrame, recording
 * the time between frames (a dropped frame shows as a long gap), and count
 * the rendered rows. Runs inside the page through Playwright's evaluate.
 * Chrome's own counters (CDP Performance.getMetrics) give the main thread's
 * busy time over the same frames: on a loaded machine the frame gaps also
 * hold the time other processes had the CPU, the busy time much less so.
 */
import type { CDPSession, Page } from "playwright-core";

/** Main-thread time over a measurement (ms): all tasks, and the script, layout and style parts. */
export interface WorkMs {
  task: number;
  script: number;
  layout: number;
  style: number;
}

async function workMetrics(cdp: CDPSession): Promise<WorkMs> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const get = (name: string): number => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return {
    task: get("TaskDuration"),
    script: get("ScriptDuration"),
    layout: get("LayoutDuration"),
    style: get("RecalcStyleDuration"),
  };
}

export interface FrameStats {
  frames: number;
  /** The longest gap between two frames (ms). */
  maxMs: number;
  /** The 95th percentile gap (ms). */
  p95Ms: number;
  meanMs: number;
  /** Frames whose gap exceeded 50 ms (the limit). */
  over50: number;
  /** The most rows in the DOM at any frame. */
  maxRows: number;
  /** The main thread's work over the frames (ms, all frames together). */
  work: WorkMs;
}

export interface ScrollOptions {
  /** CSS selector of the scrolling element. */
  scroller: string;
  /** CSS selector of one rendered row inside it. */
  row: string;
  /** Pixels per frame (negative: up). */
  stepPx: number;
  /** Frames to scroll for. */
  frames: number;
}

/** Scrolls `stepPx` per frame for `frames` frames and reports the frame gaps. */
export async function measureScroll(page: Page, options: ScrollOptions): Promise<FrameStats> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const before = await workMetrics(cdp);
  const stats = await page.evaluate(async (o) => {
    const el = document.querySelector(o.scroller);
    if (el === null) throw new Error(`no scroller ${o.scroller}`);
    const gaps: number[] = [];
    let maxRows = 0;
    let last = await new Promise<number>((r) => requestAnimationFrame(r));
    for (let i = 0; i < o.frames; i++) {
      el.scrollTop += o.stepPx;
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      gaps.push(now - last);
      last = now;
      maxRows = Math.max(maxRows, el.querySelectorAll(o.row).length);
    }
    const sorted = [...gaps].sort((a, b) => a - b);
    const sum = gaps.reduce((a, b) => a + b, 0);
    return {
      frames: gaps.length,
      maxMs: sorted[sorted.length - 1] ?? 0,
      p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      meanMs: gaps.length > 0 ? sum / gaps.length : 0,
      over50: gaps.filter((g) => g > 50).length,
      maxRows,
    };
  }, options);
  const after = await workMetrics(cdp);
  await cdp.detach();
  const ms = (n: number): number => Math.round(n);
  const work = {
    task: ms(after.task - before.task),
    script: ms(after.script - before.script),
    layout: ms(after.layout - before.layout),
    style: ms(after.style - before.style),
  };
  return { ...stats, work };
}

/** The number of rows rendered now. */
export function countRows(page: Page, scroller: string, row: string): Promise<number> {
  return page.evaluate((o) => document.querySelector(o.scroller)?.querySelectorAll(o.row).length ?? 0, {
    scroller,
    row,
  });
}
