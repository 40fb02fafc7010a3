/**
 * Investigation aids for the Element Call browser test, all off unless
 * asked for by environment variable, so a failure under load can be read
 * from the log:
 *
 * - LATTICE_EC_THROTTLE=<rate>: Chromium slows each page's CPU by that
 *   factor, to see on a quiet machine what a starved one does;
 * - LATTICE_EC_DEBUG=1: each page's homeserver requests with how long they
 *   took from the browser's view (queueing included), to-device recipients,
 *   delayed-event restarts and failed requests;
 * - LATTICE_EC_PROFILE=1: a page's hottest functions by self time.
 */
import type { Page } from "playwright-core";

type Log = (line: string) => void;

/** Slows `page`'s CPU (LATTICE_EC_THROTTLE). */
export async function throttle(page: Page): Promise<void> {
  const rate = Number(process.env["LATTICE_EC_THROTTLE"] ?? "0");
  if (!(rate > 1)) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
}

/** Logs `page`'s homeserver requests (LATTICE_EC_DEBUG). */
export function traceNetwork(page: Page, name: string, log: Log): void {
  if (process.env["LATTICE_EC_DEBUG"] !== "1") return;
  page.on("requestfailed", (r) =>
    log(`[${name}] net FAILED ${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText ?? ""}`),
  );
  page.on("requestfinished", (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.includes("/_matrix/")) return;
    const took = Math.round(r.timing().responseEnd);
    const short = path.replace(/^\/_matrix\/client\/[^/]+/, "").slice(0, 70);
    if (r.method() === "PUT" && path.includes("/sendToDevice/")) {
      const body = r.postDataJSON() as { messages?: Record<string, Record<string, unknown>> } | null;
      const to = Object.entries(body?.messages ?? {}).map(([u, d]) => `${u}[${Object.keys(d).join(",")}]`);
      log(`[${name}] net PUT sendToDevice ${took} ms to ${to.join(" ")}`);
    } else log(`[${name}] net ${r.method()} ${short} ${took} ms`);
  });
}

/** Logs `page`'s 25 hottest functions by self time over `ms` (LATTICE_EC_PROFILE). */
export async function profile(page: Page, name: string, ms: number, log: Log): Promise<void> {
  if (process.env["LATTICE_EC_PROFILE"] !== "1") return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
  await cdp.send("Profiler.start");
  await new Promise((r) => setTimeout(r, ms));
  const { profile: p } = await cdp.send("Profiler.stop");
  const self = new Map<string, number>();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const deltas = p.timeDeltas ?? [];
  (p.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    if (f === undefined) return;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop() ?? ""}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    log(`[${name}] profile ${Math.round(v)} ms ${k}`);
}
