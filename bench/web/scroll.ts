/**
 * Frame times while scrolling a 10,000-event room in the built web app:
 * the test homeserver (packages/testserver, loopback) holds the room, the
 * session goes into localStorage from a registration over HTTP, the list
 * is held at the top until every event is paged in, then scrolled down and
 * up 400 px a frame with the timeline's own probe (timeline-perf.ts).
 * With `profile`, the downward scroll is also recorded through the Chrome
 * DevTools Protocol: a V8 CPU profile (heaviest functions by self time)
 * and a trace whose main-thread events are summed by name (script, style,
 * layout, paint, garbage collection).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startTestServer } from "@lattice/testserver";
import { countRows, measureScroll } from "@lattice/web/e2e/timeline-perf";
import type { FrameStats } from "@lattice/web/e2e/timeline-perf";
import { topSelfTime } from "./profile";
import type { CpuProfile } from "./profile";
import { storeSession } from "./startup";

const SCROLLER = '[data-testid="timeline-scroller"]';
const ROW = "li[data-index]";

/** Load time of the whole room and the frame statistics of both directions. */
export interface ScrollResult {
  events: number;
  loadMs: number;
  rowsAtTop: number;
  down: FrameStats;
  up: FrameStats;
  /** With `profile`: the downward scroll's heaviest functions and main-thread trace events (ms). */
  profile?: { functions: { fn: string; ms: number }[]; trace: { name: string; ms: number }[] };
}

/** Where `profile` writes the raw CPU profile and trace (Chrome DevTools can open both). */
export const SCROLL_PROFILES = new URL("../results/profiles/", import.meta.url).pathname;

/** Trace categories of the main thread's work: tasks, script, style, layout, paint, GC. */
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "blink.user_timing",
];

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { frame?: string } };
}

/** Total duration per event name of complete ("X") events on the busiest thread, heaviest first. */
export function summariseTrace(events: readonly TraceEvent[], limit = 14): { name: string; ms: number }[] {
  const perThread = new Map<string, number>();
  for (const e of events)
    if (e.ph === "X" && e.name === "RunTask")
      perThread.set(`${e.pid}:${e.tid}`, (perThread.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...perThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || `${e.pid}:${e.tid}` !== main) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...sums]
    .map(([name, ms]) => ({ name, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit);
}

/** Runs the scroll measurement against the app at `appUrl`. */
export async function measureTimelineScroll(
  browser: Browser,
  appUrl: string,
  sessionKey: string,
  events = 10_000,
  profile = false,
): Promise<ScrollResult> {
  const server = await startTestServer({ validate: false });
  try {
    const id = (name: string): string => `@${name}:${server.serverName}`;
    let session: object | undefined;
    for (const name of ["alice", "bob", "carol"]) {
      const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: name, password: `bench-${name}`, auth: { type: "m.login.dummy" } }),
      });
      const body = (await res.json()) as { user_id: string; access_token: string; device_id: string };
      if (name === "alice")
        session = {
          homeserverUrl: server.url,
          userId: body.user_id,
          deviceId: body.device_id,
          accessToken: body.access_token,
        };
    }
    const rooms = server.ctx.rooms;
    const room = rooms.createRoomAs(id("alice"), { name: "Ten Thousand", preset: "public_chat" });
    rooms.joinAs(id("bob"), room);
    rooms.joinAs(id("carol"), room);
    const people = ["alice", "bob", "bob", "carol", "alice"];
    for (let i = 0; i < events; i++) {
      const body =
        i % 7 === 0 ? `message ${i}: ${"a longer line of text that wraps ".repeat(4)}` : `message ${i}`;
      rooms.sendAsUser(id(people[i % people.length] ?? "alice"), room, "m.room.message", {
        msgtype: "m.text",
        body,
      });
    }
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await storeSession(context, sessionKey, session ?? {});
    const page = await context.newPage();
    await page.goto(appUrl);
    await page.getByRole("listbox", { name: "Rooms" }).getByText("Ten Thousand").click({ timeout: 60_000 });
    await page
      .locator(SCROLLER)
      .getByText(`message ${events - 1}`, { exact: true })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: join(tmpdir(), "bench-web-scroll-failed.png") });
        throw error;
      });
    const start = Date.now();
    const stuck = await page.locator(SCROLLER).evaluate(async (el) => {
      const deadline = performance.now() + 180_000;
      while (!(el.textContent ?? "").includes("This is the beginning of the room.")) {
        if (performance.now() > deadline) return el.querySelector("ol")?.style.height ?? "?";
        el.scrollTop = 0;
        await new Promise((r) => setTimeout(r, 200));
      }
      return null;
    });
    if (stuck !== null) throw new Error(`the room did not load to its start (list height ${stuck})`);
    const loadMs = Date.now() - start;
    await page.locator(SCROLLER).evaluate((el) => (el.scrollTop = 0));
    await page.locator(SCROLLER).getByText("message 1", { exact: true }).waitFor();
    const rowsAtTop = await countRows(page, SCROLLER, ROW);
    const cdp = await context.newCDPSession(page);
    const traced: TraceEvent[] = [];
    if (profile) {
      cdp.on("Tracing.dataCollected", (e) => {
        traced.push(...(e.value as unknown as TraceEvent[]));
      });
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
      await cdp.send("Tracing.start", {
        categories: TRACE_CATEGORIES.join(","),
        transferMode: "ReportEvents",
      });
      await cdp.send("Profiler.start");
    }
    const down = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: 400, frames: 300 });
    let summary: ScrollResult["profile"];
    if (profile) {
      const cpu = (await cdp.send("Profiler.stop")).profile as CpuProfile;
      const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
      await cdp.send("Tracing.end");
      await done;
      summary = { functions: topSelfTime(cpu, 20), trace: summariseTrace(traced) };
      mkdirSync(SCROLL_PROFILES, { recursive: true });
      writeFileSync(join(SCROLL_PROFILES, "web-scroll-down.cpuprofile"), JSON.stringify(cpu));
      writeFileSync(
        join(SCROLL_PROFILES, "web-scroll-down.trace.json"),
        JSON.stringify({ traceEvents: traced }),
      );
    }
    const up = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: -400, frames: 150 });
    await cdp.detach();
    await context.close();
    return { events, loadMs, rowsAtTop, down, up, ...(summary ? { profile: summary } : {}) };
  } finally {
    await server.stop();
  }
}
