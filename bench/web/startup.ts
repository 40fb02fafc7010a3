/**
 * Cold start of the built web app with a stored session against the bench
 * sync server: times from navigation to the room list showing rows and to
 * it accepting a keyboard move (an option selected after ArrowDown), read
 * in the page from performance.now() by a MutationObserver installed before
 * the app's scripts run, and the static files requested before the rows
 * showed.
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
  rows: number;
  /** Requests to the app's own origin, `at` on the page's performance clock. */
  files: LoadedFile[];
  /** Homeserver requests made before the rows showed (method and path). */
  apiBeforeRows: string[];
  /** The CPU profile from navigation to the selection, when asked for. */
  profile?: CpuProfile;
}

const LIST = '[role="listbox"][aria-label="Rooms"]';

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
    const marks: { rowsAt?: number; selectedAt?: number } = {};
    (window as unknown as { __bench: typeof marks }).__bench = marks;
    const observer = new MutationObserver(() => {
      if (marks.rowsAt === undefined && document.querySelector(`${list} [role="option"]`) !== null)
        marks.rowsAt = performance.now();
      if (
        marks.selectedAt === undefined &&
        document.querySelector(`${list} [aria-selected="true"]`) !== null
      ) {
        marks.selectedAt = performance.now();
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
  const list = page.locator(LIST);
  await list.locator('[role="option"]').first().waitFor({ timeout: timeoutMs });
  await list.focus();
  await page.keyboard.press("ArrowDown");
  await list.locator('[aria-selected="true"]').first().waitFor({ timeout: timeoutMs });
  const probe = await page.evaluate(() => {
    const marks = (window as unknown as { __bench: { rowsAt?: number; selectedAt?: number } }).__bench;
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
    rows: probe.rows,
    files,
    apiBeforeRows,
    ...(cpu ? { profile: cpu } : {}),
  };
}
