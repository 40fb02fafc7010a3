/**
 * Cold start of the built web app with a stored session against the bench
 * sync server: times from navigation to the room list showing rows and to
 * it answering a click on the first row (the row selected), read in the
 * page from performance.now() by a MutationObserver installed before the
 * app's scripts run, and the static files requested before the rows
 * showed. The driver learns of the rows from a check the page runs every
 * frame, and clicks through the browser's input path (not a script call,
 * which Chromium queues behind the page's own tasks where a user's input
 * goes first), so the time measured is the page's.
 */
// The probes run inside the page (Playwright evaluate and init scripts): they need the DOM types.
/// <reference lib="dom" />
import type { BrowserContext } from "playwright-core";
import type { CpuProfile } from "./profile";
import type { LoadedFile } from "./sizes";

/** One start: times in ms from navigation start, and the app's files requested. */
export interface StartResult {
  /** The page's scripts loaded and run (DOMContentLoaded end). */
  domContentLoadedMs: number;
  rowsMs: number;
  interactiveMs: number;
  /**
   * Between the rows and the selection (ms from navigation start): when the
   * driver saw the rows, when its click call returned, the mouse event's
   * time stamp and when the page's first listener ran for it.
   */
  steps: { rowsSeen: number; clicked: number; inputStamp: number; inputHandled: number };
  /** A click on the second row right after the selection: from the click to that row selected (ms). */
  secondClickMs: number;
  /** Main-thread tasks over 50 ms up to the second click's answer: [start, duration] in ms. */
  longTasks: [number, number][];
  rows: number;
  /** Requests to the app's own origin, `at` on the page's performance clock. */
  files: LoadedFile[];
  /** Homeserver requests made before the rows showed (method and path). */
  apiBeforeRows: string[];
  /** The CPU profile from navigation to the selection, when asked for. */
  profile?: CpuProfile;
}

const LIST = '[role="listbox"][aria-label="Rooms"]';

/** What the page's probe records (ms on the page's clock); the probe and the read-back share it. */
interface Marks {
  rowsAt?: number;
  selectedAt?: number;
  inputAt?: number;
  inputStamp?: number;
  secondStamp?: number;
  movedAt?: number;
  /** Main-thread tasks over 50 ms: [start, duration]. */
  longTasks: [number, number][];
}

/** The page's window with the probe's record. */
interface ProbeWindow {
  __bench?: Marks;
}

/** Puts `session` in localStorage under `key` before any page script runs. */
export async function storeSession(context: BrowserContext, key: string, session: object): Promise<void> {
  await context.addInitScript(
    ({ k, v }) => {
      if (localStorage.getItem(k) === null) localStorage.setItem(k, v);
    },
    { k: key, v: JSON.stringify(session) },
  );
  // The probe: when the first room row appears and when a row becomes selected.
  await context.addInitScript((list) => {
    const marks: Marks = { longTasks: [] };
    // Main-thread tasks over 50 ms (start, duration): what keeps input waiting.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        marks.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: "longtask", buffered: true });
    (window as unknown as ProbeWindow).__bench = marks;
    // When the click reached the page (its event time) and when a listener first ran for it.
    document.addEventListener(
      "mousedown",
      (e) => {
        if (marks.inputAt !== undefined) {
          marks.secondStamp ??= e.timeStamp;
          return;
        }
        marks.inputAt = performance.now();
        marks.inputStamp = e.timeStamp;
      },
      { capture: true },
    );
    let firstSelected: string | null = null;
    const observer = new MutationObserver(() => {
      if (marks.rowsAt === undefined && document.querySelector(`${list} [role="option"]`) !== null) {
        marks.rowsAt = performance.now();
      }
      const selected = document.querySelector(`${list} [aria-selected="true"]`);
      if (marks.selectedAt === undefined && selected !== null) {
        marks.selectedAt = performance.now();
        firstSelected = selected.id;
      } else if (marks.secondStamp !== undefined && selected !== null && selected.id !== firstSelected) {
        // The second click: the selection went to another room.
        marks.movedAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-selected"],
    });
  }, LIST);
}

/** Navigates a new page of `context` to `appUrl` and measures one start. */
export async function measureStart(
  context: BrowserContext,
  appUrl: string,
  homeserverUrl: string,
  timeoutMs: number,
  settleMs = 0,
  profile = false,
): Promise<StartResult> {
  const page = await context.newPage();
  const cdp = profile ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
    await cdp.send("Profiler.start");
  }
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const requests: { url: string; method: string; wall: number }[] = [];
  page.on("request", (r) => requests.push({ url: r.url(), method: r.method(), wall: Date.now() }));
  await page.goto(appUrl, { waitUntil: "commit" });
  // Checked in the page on every frame (not by the driver's DOM polling, whose back-off of up to
  // 500 ms between checks would be counted as the app's time); answers the first row's centre.
  const centre = await page.waitForFunction(
    (list) => {
      if ((window as unknown as ProbeWindow).__bench?.rowsAt === undefined) return null;
      const row = document.querySelector(`${list} [role="option"]`)?.getBoundingClientRect();
      return row ? { x: row.x + row.width / 2, y: row.y + row.height / 2 } : null;
    },
    LIST,
    { polling: "raf", timeout: timeoutMs },
  );
  const at = (await centre.jsonValue()) as { x: number; y: number };
  const seenWall = Date.now();
  await page.mouse.click(at.x, at.y);
  const clickedWall = Date.now();
  // Then a click on another row once the first is selected, while the rest of the store still loads.
  const next = await page.waitForFunction(
    (list) => {
      const rows = document.querySelectorAll(`${list} [role="option"]`);
      if (document.querySelector(`${list} [aria-selected="true"]`) === null) return null;
      const row = rows[1]?.getBoundingClientRect();
      return row ? { x: row.x + row.width / 2, y: row.y + row.height / 2 } : null;
    },
    LIST,
    { polling: "raf", timeout: timeoutMs },
  );
  const second = (await next.jsonValue()) as { x: number; y: number };
  await page.mouse.click(second.x, second.y);
  await page.waitForFunction(
    () => (window as unknown as ProbeWindow).__bench?.movedAt !== undefined,
    undefined,
    { polling: "raf", timeout: timeoutMs },
  );
  const probe = await page.evaluate(() => {
    const marks = (window as unknown as ProbeWindow).__bench as Marks;
    return {
      ...marks,
      dcl: performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined,
      origin: performance.timeOrigin,
      rows: document.querySelectorAll('[role="listbox"][aria-label="Rooms"] [role="option"]').length,
    };
  });
  const cpu = cdp ? ((await cdp.send("Profiler.stop")).profile as CpuProfile) : undefined;
  if (probe.rowsAt === undefined || probe.selectedAt === undefined) throw new Error("the probe saw no rows");
  if (errors.length > 0) console.warn(`page errors: ${errors.join("; ")}`);
  const app = new URL(appUrl).origin;
  const rowsWall = probe.origin + probe.rowsAt;
  const files = requests
    .filter((r) => new URL(r.url).origin === app)
    .map((r) => ({ path: new URL(r.url).pathname, at: r.wall - probe.origin }));
  const apiBeforeRows = requests
    .filter((r) => r.url.startsWith(homeserverUrl) && r.wall <= rowsWall)
    .map(
      (r) =>
        `${r.method} ${new URL(r.url).pathname}${new URL(r.url).searchParams.has("since") ? "?since" : ""}`,
    );
  // Let the sync loop finish writing its store before the page goes (the next start reads it).
  if (settleMs > 0) await page.waitForTimeout(settleMs);
  await page.close();
  return {
    domContentLoadedMs: probe.dcl?.domContentLoadedEventEnd ?? 0,
    rowsMs: probe.rowsAt,
    interactiveMs: probe.selectedAt,
    longTasks: probe.longTasks,
    steps: {
      rowsSeen: seenWall - probe.origin,
      clicked: clickedWall - probe.origin,
      inputStamp: probe.inputStamp ?? Number.NaN,
      inputHandled: probe.inputAt ?? Number.NaN,
    },
    secondClickMs: (probe.movedAt ?? Number.NaN) - (probe.secondStamp ?? Number.NaN),
    rows: probe.rows,
    files,
    apiBeforeRows,
    ...(cpu ? { profile: cpu } : {}),
  };
}
