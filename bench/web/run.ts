/**
 * bench/web: the web app's production build in Chromium. Reports (1) the
 * JS and CSS (gzip) the page loads before the room list shows and the
 * chunks that load later, (2) the time from navigation to an interactive
 * room list with the 3,000-room fixture, on a first start (network sync)
 * and a start from cache (IndexedDB store filled), and (3) frame times
 * while scrolling 10,000 events. Writes bench/results/web-latest.json.
 *
 * Command: `npx tsx bench/web/run.ts [--rooms 3000] [--no-scroll] [--profile]
 * [--readable] [--only-scroll] [--profile-scroll] [--starts N]`
 * (--profile: a CPU profile of the start from cache into
 * bench/results/profiles/web-cached-start.cpuprofile, heaviest functions printed;
 * --readable: an unminified build, so the profile names functions;
 * --only-scroll: the build and the scrolling part alone, written to
 * bench/results/web-scroll-latest.json; --profile-scroll: the downward
 * scroll's heaviest functions and main-thread trace events printed;
 * --starts N: N starts from cache, the median by interactive time reported).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "vite";
import { launchChromium } from "@lattice/web/e2e/browser";
import { ensureFixture } from "../sync/fixture";
import { startBenchServer } from "../sync/server";
import { webRoutes } from "./endpoints";
import { measureTimelineScroll } from "./scroll";
import type { ScrollResult } from "./scroll";
import { topSelfTime } from "./profile";
import { gzipSize, kindOf, splitLoads, totals } from "./sizes";
import type { SizedFile } from "./sizes";
import { measureStart, storeSession } from "./startup";
import type { StartResult } from "./startup";

/** The SDK's localStorage key of the session (WebSessionStorage). */
const SESSION_KEY = "lattice.session";
const DEVICE_ID = "BENCHWEB";
const WEB_ROOT = new URL("../../packages/web/", import.meta.url).pathname;
const RESULTS = new URL("../results/", import.meta.url).pathname;
const KB = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rooms: { type: "string", default: "3000" },
      "no-scroll": { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      // An unminified build, so --profile names functions (its JS sizes are not the shipped ones).
      readable: { type: "boolean", default: false },
      "only-scroll": { type: "boolean", default: false },
      "profile-scroll": { type: "boolean", default: false },
      // Starts from cache to measure (the median by interactive time is reported and saved).
      starts: { type: "string", default: "1" },
    },
  });
  if (values["only-scroll"]) return onlyScroll(values["profile-scroll"]);
  const rooms = Number(values.rooms);
  const machine = { nproc: cpus().length, loadBefore: loadavg().map((n) => Number(n.toFixed(2))) };
  console.log(`bench/web: ${rooms} rooms; nproc ${machine.nproc}, load ${machine.loadBefore.join(" ")}`);

  const { dir, meta } = ensureFixture(rooms);
  const outDir = await mkdtemp(join(tmpdir(), "lattice-bench-web-"));
  let t = performance.now();
  await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, "vite.config.ts"),
    logLevel: "error",
    build: { outDir, emptyOutDir: true, ...(values.readable ? { minify: false } : {}) },
  });
  console.log(`vite build: ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const server = await startBenchServer({ dir, web: { extraRoutes: webRoutes(meta.userId, DEVICE_ID) } });
  const { serveStatic } = await import("./static");
  const app = await serveStatic(outDir);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await storeSession(context, SESSION_KEY, {
      homeserverUrl: server.url,
      userId: meta.userId,
      deviceId: DEVICE_ID,
      accessToken: "bench-web-token",
    });
    t = performance.now();
    const first = await measureStart(context, app.url, server.url, 300_000, 10_000);
    console.log(
      `first start: DOMContentLoaded at ${first.domContentLoadedMs.toFixed(0)} ms, rows at ${first.rowsMs.toFixed(0)} ms, interactive at ${first.interactiveMs.toFixed(0)} ms (${first.rows} rows)`,
    );
    const starts: StartResult[] = [];
    const count = Math.max(1, Number(values.starts));
    for (let i = 0; i < count; i++) {
      // Each start but the last lets the sync loop save its store first, as a closed tab would.
      const one = await measureStart(
        context,
        app.url,
        server.url,
        300_000,
        i < count - 1 ? 3_000 : 0,
        values.profile,
      );
      starts.push(one);
      if (count > 1)
        console.log(
          `  start from cache ${i + 1}: rows at ${one.rowsMs.toFixed(0)} ms, interactive at ${one.interactiveMs.toFixed(0)} ms, then a click on another row answered in ${one.secondClickMs.toFixed(0)} ms (click seen at ${one.steps.rowsSeen.toFixed(0)}, stamped ${one.steps.inputStamp.toFixed(0)}, handled ${one.steps.inputHandled.toFixed(0)}; long tasks ${one.longTasks.map(([s, d]) => `${s}+${d}`).join(" ")})`,
        );
    }
    const byInteractive = [...starts].sort((a, b) => a.interactiveMs - b.interactiveMs);
    const cached = byInteractive[Math.floor((byInteractive.length - 1) / 2)] as StartResult;
    console.log(
      `start from cache${count > 1 ? ` (median of ${count})` : ""}: DOMContentLoaded at ${cached.domContentLoadedMs.toFixed(0)} ms, rows at ${cached.rowsMs.toFixed(0)} ms, interactive at ${cached.interactiveMs.toFixed(0)} ms (${cached.rows} rows), then a click on another row answered in ${cached.secondClickMs.toFixed(0)} ms`,
    );
    const st = cached.steps;
    console.log(
      `  between (cached start): driver saw rows at ${st.rowsSeen.toFixed(0)} ms, clicked the first at ${st.clicked.toFixed(0)} ms, the page stamped the click at ${st.inputStamp.toFixed(0)} ms and handled it at ${st.inputHandled.toFixed(0)} ms`,
    );
    console.log(
      `  long tasks (cached start, start+duration ms): ${cached.longTasks.map(([s, d]) => `${s}+${d}`).join(" ")}`,
    );
    console.log(
      `homeserver requests before the rows (cached start): ${cached.apiBeforeRows.join(", ") || "none"}`,
    );
    if (cached.profile) {
      mkdirSync(join(RESULTS, "profiles"), { recursive: true });
      writeFileSync(join(RESULTS, "profiles", "web-cached-start.cpuprofile"), JSON.stringify(cached.profile));
      console.log("start from cache, heaviest functions (self time):");
      for (const { fn, ms } of topSelfTime(cached.profile))
        console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${fn}`);
    }
    await context.close();

    const sized = (paths: string[]): SizedFile[] =>
      paths.map((path) => {
        const body = readFileSync(join(outDir, path === "/" ? "index.html" : path));
        return { path, kind: kindOf(path), bytes: body.length, gzip: gzipSize(body) };
      });
    const split = splitLoads(first.files, first.rowsMs);
    const before = sized(split.before);
    // Every other built file is loaded later, on demand (crypto, call, emoji, settings...), or not at all in this run.
    const loadedLater = new Set(split.later);
    const lazy = readdirSync(join(outDir, "assets"))
      .map((name) => `/assets/${name}`)
      .filter((path) => !split.before.includes(path) && kindOf(path) !== "other");
    const later = sized(lazy).map((f) => ({ ...f, loadedInRun: loadedLater.has(f.path) }));
    const sums = totals(before);
    console.log(
      `before the room list: JS ${KB(sums.js.gzip)} gzip (${KB(sums.js.bytes)} raw, ${sums.js.files} files), CSS ${KB(sums.css.gzip)} gzip, wasm ${KB(sums.wasm.gzip)} gzip`,
    );
    for (const f of before) console.log(`  before ${f.path}: ${KB(f.gzip)} gzip`);
    for (const f of later)
      console.log(
        `  later  ${f.path}: ${KB(f.gzip)} gzip${f.loadedInRun ? " (loaded during the start)" : ""}`,
      );
    console.log(`routes: ${JSON.stringify(Object.fromEntries(server.stats.routes))}`);
    if (server.stats.unrecognised.size > 0)
      console.log(`unrecognised: ${JSON.stringify(Object.fromEntries(server.stats.unrecognised))}`);

    const scroll = values["no-scroll"]
      ? undefined
      : await measureTimelineScroll(browser, app.url, SESSION_KEY, 10_000, values["profile-scroll"]);
    if (scroll) printScroll(scroll);
    const result = {
      at: new Date().toISOString(),
      rooms,
      machine: { ...machine, loadAfter: loadavg().map((n) => Number(n.toFixed(2))) },
      start: {
        first: { ...first, files: undefined, profile: undefined },
        cached: { ...cached, files: undefined, profile: undefined },
      },
      beforeRoomList: { totals: sums, files: before },
      later,
      scroll,
    };
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, "web-latest.json"), JSON.stringify(result, null, 2));
    console.log(`wrote ${join(RESULTS, "web-latest.json")}`);
  } finally {
    await browser.close();
    await app.close();
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

function printScroll(scroll: ScrollResult): void {
  const { down, up } = scroll;
  console.log(
    `scrolling ${scroll.events} events (all paged in ${scroll.loadMs} ms, ${scroll.rowsAtTop} rows in the DOM): down max ${down.maxMs.toFixed(1)} ms p95 ${down.p95Ms.toFixed(1)} ms mean ${down.meanMs.toFixed(1)} ms, ${down.over50} of ${down.frames} frames over 50 ms; up max ${up.maxMs.toFixed(1)} ms p95 ${up.p95Ms.toFixed(1)} ms mean ${up.meanMs.toFixed(1)} ms, ${up.over50} of ${up.frames} over 50 ms`,
  );
  const w = (m: ScrollResult["down"]["work"], frames: number): string =>
    `${(m.task / frames).toFixed(1)} ms a frame (script ${(m.script / frames).toFixed(1)}, layout ${(m.layout / frames).toFixed(1)}, style ${(m.style / frames).toFixed(1)})`;
  console.log(`main-thread work: down ${w(down.work, down.frames)}; up ${w(up.work, up.frames)}`);
  if (scroll.profile) {
    console.log("scrolling down, heaviest functions (self time):");
    for (const { fn, ms } of scroll.profile.functions)
      console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${fn}`);
    console.log("scrolling down, main-thread trace events (total, nested events overlap):");
    for (const { name, ms } of scroll.profile.trace)
      console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  }
}

/** The build and the 10,000-event scroll alone (--only-scroll). */
async function onlyScroll(profile: boolean): Promise<void> {
  const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
  console.log(`bench/web scrolling only; nproc ${cpus().length}, load ${loadBefore.join(" ")}`);
  const outDir = await mkdtemp(join(tmpdir(), "lattice-bench-web-"));
  const { serveStatic } = await import("./static");
  try {
    await build({
      root: WEB_ROOT,
      configFile: join(WEB_ROOT, "vite.config.ts"),
      logLevel: "error",
      // Profiling wants readable function names (the frame times then run a little slower).
      build: { outDir, emptyOutDir: true, ...(profile ? { minify: false } : {}) },
    });
    const app = await serveStatic(outDir);
    const browser = await launchChromium();
    try {
      const scroll = await measureTimelineScroll(browser, app.url, SESSION_KEY, 10_000, profile);
      printScroll(scroll);
      const loadAfter = loadavg().map((n) => Number(n.toFixed(2)));
      mkdirSync(RESULTS, { recursive: true });
      const at = new Date().toISOString();
      const machine = { nproc: cpus().length, loadBefore, loadAfter };
      writeFileSync(
        join(RESULTS, "web-scroll-latest.json"),
        JSON.stringify({ at, machine, scroll }, null, 2),
      );
      console.log(`load after ${loadAfter.join(" ")}; wrote ${join(RESULTS, "web-scroll-latest.json")}`);
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
