/**
 * bench/calls/livekit.ts: group calls on a real LiveKit SFU on loopback,
 * Lattice's own call view against Element Call 0.26.1 hosted by Lattice, in
 * one run (issues 19 and 20). The set-up is the LiveKit browser tests' one
 * (packages/web/e2e/livekit-fixture.ts): the test homeserver behind its TLS
 * federation front, a real livekit-server and lk-jwt-service, the web app
 * served by Vite and one Chromium with fake media devices. Each client has
 * its own encrypted room and `--people` users signed in on their own pages.
 *
 * 1. Join time, `--joins` per client, Lattice and Element Call alternating:
 *    a host page of the client is in the call; the joiner page opens the
 *    lobby, waits for its camera preview to play, then clicks Join. Timed
 *    from that click's event timestamp to the first remote video frame
 *    presented on the joiner's page (requestVideoFrameCallback), both in
 *    the page's own clock (livekit-probe.ts). Then it leaves. One warm-up
 *    join per client first, not counted. A join that fails (Element Call
 *    0.26.1 never retries a failed SFU peer connection) is counted apart,
 *    with its reason, and the page leaves and joins again once.
 * 2. CPU, `--rounds` per client, alternating which goes first: all
 *    `--people` pages of a client join one call; once every page plays the
 *    others' video, each page's main-thread CPU (CDP Performance.getMetrics,
 *    threadTicks: TaskDuration and ScriptDuration deltas) is read over a
 *    `--window`-second window; then all leave.
 *
 *   npx tsx bench/calls/livekit.ts [--joins 10] [--people 4] [--rounds 2] [--window 20] [--only lattice|element-call] [--verbose]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { startFederationTls, startJwtService, startLiveKit } from "@lattice/testserver/livekit";
import type { FederationFront, JwtServiceHandle, LiveKitHandle } from "@lattice/testserver/livekit";
import { launchChromium, MEDIA_ARGS, openSignedIn, serveWebApp } from "@lattice/web/e2e/browser";
import { openRoom } from "@lattice/web/e2e/calls-scenarios";
import { callAs, passwordOf, registerUser } from "@lattice/web/e2e/harness";
import { elementCallClient, latticeClient } from "./livekit-clients";
import type { LiveKitClient, LiveKitClientKind } from "./livekit-clients";
import { CpuMeter, installProbe, localPreviewPlaying, probeRecords, remoteVideos } from "./livekit-probe";
import {
  firstFrameAfter,
  lastJoinClick,
  liveKitRatios,
  liveKitVerdict,
  summariseLiveKit,
} from "./livekit-stats";
import type { CpuRate, LiveKitSummary } from "./livekit-stats";

const { values: args } = parseArgs({
  options: {
    joins: { type: "string", default: "10" },
    people: { type: "string", default: "4" },
    rounds: { type: "string", default: "2" },
    window: { type: "string", default: "20" },
    only: { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});
const JOINS = Number(args.joins);
// A room of two holds 1:1 calls; group calls (LiveKit) need three members or more.
const PEOPLE = Math.max(3, Number(args.people));
const ROUNDS = Number(args.rounds);
const WINDOW_MS = Number(args.window) * 1000;
const CLIENTS = [latticeClient, elementCallClient].filter(
  (c) => args.only === undefined || c.kind === args.only,
);
const FRAME_TIMEOUT_MS = 120_000;
const t0 = Date.now();
const say = (line: string): void => console.log(`[+${((Date.now() - t0) / 1000).toFixed(0)}s] ${line}`);
const verbose = (line: string): void => {
  if (args.verbose) say(line);
};
const load = (): string => (loadavg()[0] ?? 0).toFixed(1);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One client's pages (the first is the join phase's host, the second its joiner) and results. */
interface Side {
  client: LiveKitClient;
  room: string;
  pages: Page[];
  joinMs: number[];
  failures: string[];
  cpu: CpuRate[];
  /** Remote frames each page decoded per second in the CPU windows, and the remote video sizes. */
  framesPerS: number[];
  sizes: string[];
}

type JoinResult = { ms: number } | { failed: string };

/** Opens the lobby, waits for the camera preview, clicks Join, and waits for a remote frame (or a failure). */
async function timedJoin(side: Side, page: Page): Promise<JoinResult> {
  try {
    await side.client.openLobby(page);
  } catch (e) {
    // Seen with Element Call: its frame stayed on "Loading…" when opened for the fifth time.
    return {
      failed: `no lobby within 120 s (${await side.client.describe(page)}): ${String(e).split("\n")[0]}`,
    };
  }
  const previewBy = Date.now() + 30_000;
  while (!(await localPreviewPlaying(page)) && Date.now() < previewBy) await sleep(100);
  await side.client.clickJoin(page);
  const deadline = Date.now() + FRAME_TIMEOUT_MS;
  for (;;) {
    const { clicks, frames } = await probeRecords(page);
    const click = lastJoinClick(clicks, side.client.isJoin);
    if (click === null)
      throw new Error(`${side.client.label}: the probe saw no Join click (${JSON.stringify(clicks)})`);
    const frame = firstFrameAfter(frames, click);
    if (frame !== null) return { ms: frame - click };
    const failure = await side.client.failure(page);
    if (failure !== null) return { failed: failure };
    if (Date.now() > deadline)
      return {
        failed: `no remote video frame within ${FRAME_TIMEOUT_MS / 1000} s of Join (${await side.client.describe(page)})`,
      };
    await sleep(100);
  }
}

/** A counted join: on failure, the reason is kept, the page leaves and joins again once. */
async function countedJoin(side: Side, page: Page, label: string, count: boolean): Promise<void> {
  const host = side.pages[0];
  const hostFailure = host === undefined ? null : await side.client.failure(host);
  if (host !== undefined && hostFailure !== null) {
    say(`${side.client.label} host: ${hostFailure}; leaves and joins again`);
    await side.client.leave(host).catch(() => undefined);
    await side.client.openLobby(host);
    await side.client.clickJoin(host);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await timedJoin(side, page);
    if ("ms" in r) {
      if (count) side.joinMs.push(r.ms);
      say(`${side.client.label} ${label}: ${r.ms.toFixed(0)} ms to the first remote frame (load ${load()})`);
      await side.client.leave(page);
      return;
    }
    if (count) side.failures.push(r.failed);
    say(
      `${side.client.label} ${label}: failed, ${r.failed}; leaves${attempt === 0 ? " and joins again" : ""}`,
    );
    await side.client.leave(page).catch((e: unknown) => say(`  leaving failed too: ${String(e)}`));
  }
}

/** Waits until every page of the side plays `others` remote videos whose decoded-frame counts advance. */
async function allSeeEachOther(side: Side, others: number): Promise<void> {
  const deadline = Date.now() + 240_000;
  for (const [i, page] of side.pages.entries()) {
    let rejoined = false;
    for (;;) {
      const a = await remoteVideos(page);
      await sleep(1000);
      const b = await remoteVideos(page);
      const moving = b.filter((v, j) => v.playing && v.frames > (a[j]?.frames ?? Infinity)).length;
      if (moving >= others) break;
      const failure = await side.client.failure(page);
      if (failure !== null && !rejoined) {
        side.failures.push(`4-person call: ${failure}`);
        say(`${side.client.label} page ${i + 1}: ${failure}; leaves and joins again`);
        await side.client.leave(page);
        await side.client.openLobby(page);
        await side.client.clickJoin(page);
        rejoined = true;
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${side.client.label} page ${i + 1} plays ${moving} of ${others} remote videos (${failure ?? "no error shown"})`,
        );
    }
  }
}

/** All pages join, the CPU window is read on each, all leave. */
async function cpuRound(side: Side, round: number): Promise<void> {
  for (const page of side.pages) {
    await side.client.openLobby(page);
    await side.client.clickJoin(page);
  }
  await allSeeEachOther(side, side.pages.length - 1);
  say(
    `${side.client.label} round ${round}: ${side.pages.length} pages see each other; measuring ${WINDOW_MS / 1000} s (load ${load()})`,
  );
  const meters = side.pages.map((p) => new CpuMeter(p));
  const before = await Promise.all(side.pages.map(remoteVideos));
  await Promise.all(meters.map((m) => m.start()));
  const started = Date.now();
  await sleep(WINDOW_MS);
  const rates = await Promise.all(meters.map((m) => m.stop()));
  const seconds = (Date.now() - started) / 1000;
  const after = await Promise.all(side.pages.map(remoteVideos));
  rates.forEach((r, i) => {
    const frames =
      (after[i] ?? []).reduce((s, v) => s + v.frames, 0) -
      (before[i] ?? []).reduce((s, v) => s + v.frames, 0);
    side.cpu.push(r);
    side.framesPerS.push(frames / seconds);
    side.sizes.push(...(after[i] ?? []).map((v) => `${v.width}x${v.height}`));
    say(
      `  page ${i + 1}: main thread ${r.taskMsPerS.toFixed(0)} ms/s (script ${r.scriptMsPerS.toFixed(0)}, layout ${r.layoutMsPerS.toFixed(0)}), ` +
        `renderer process ${r.processMsPerS.toFixed(0)} ms/s, ${(frames / seconds).toFixed(0)} remote frames/s, ${meters[i]?.targets ?? 0} target(s)`,
    );
  });
  for (const page of side.pages) await side.client.leave(page);
}

async function seed(hs: TestServerHandle, kind: LiveKitClientKind, room: string): Promise<string[]> {
  const names = Array.from({ length: PEOPLE }, (_, i) => `${kind.replace("-", "")}${i + 1}`);
  const tokens = await Promise.all(names.map((n) => registerUser(hs.url, n)));
  const created = await callAs(hs.url, tokens[0], "/createRoom", {
    name: room,
    preset: "private_chat",
    invite: names.slice(1).map((n) => `@${n}:${hs.serverName}`),
    power_level_content_override: {
      events: { "org.matrix.msc3401.call.member": 0, "org.matrix.msc4143.rtc.member": 0 },
    },
    initial_state: [
      { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
    ],
  });
  const roomId = encodeURIComponent(String(created["room_id"]));
  for (const t of tokens.slice(1)) await callAs(hs.url, t, `/join/${roomId}`);
  return names;
}

function fmt(s: LiveKitSummary, key: "join" | "cpu" | "script" | "process"): string {
  const v = s[key];
  return v === null ? "—" : `${v.median.toFixed(0)} / ${v.p95.toFixed(0)}`;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  say(
    `bench/calls/livekit: ${JOINS} joins and ${ROUNDS} CPU rounds of ${PEOPLE} people per client; load ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} cores`,
  );
  let front: FederationFront | undefined;
  let hs: TestServerHandle | undefined;
  let lk: LiveKitHandle | undefined;
  let jwt: JwtServiceHandle | undefined;
  let app: { url: string; close(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  try {
    front = await startFederationTls();
    hs = await startTestServer({ serverName: front.serverName });
    front.setUpstream(hs.url);
    lk = await startLiveKit();
    jwt = await startJwtService({ homeserver: hs, livekit: lk });
    hs.setRtcTransports([{ type: "livekit", livekit_service_url: jwt.url }]);
    say(`livekit-server ${lk.version} on ${lk.url}, lk-jwt-service on ${jwt.url}`);
    const server = hs;
    const sides: Side[] = [];
    for (const client of CLIENTS) {
      const room = `${client.label} bench call`;
      const names = await seed(server, client.kind, room);
      sides.push({
        client,
        room,
        pages: [],
        joinMs: [],
        failures: [],
        cpu: [],
        framesPerS: [],
        sizes: [],
        names,
      } as Side & { names: string[] });
    }
    [app, browser] = await Promise.all([
      serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" }),
      launchChromium(MEDIA_ARGS),
    ]);
    for (const side of sides) {
      for (const name of (side as Side & { names: string[] }).names) {
        const { context, page } = await openSignedIn(browser, {
          appUrl: app.url,
          homeserver: server.url,
          user: name,
          password: passwordOf(name),
          stepTimeoutMs: 120_000,
          onPageError: (e) =>
            verbose(
              `[${name}] page error: ${e.message} ${e.stack?.split("\n").slice(1, 4).join(" | ") ?? ""}`,
            ),
        });
        contexts.push(context);
        await installProbe(context);
        // The probe is in from the next document on.
        await page.reload();
        await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 120_000 });
        await side.client.prepare(page);
        await openRoom(page, side.room);
        side.pages.push(page);
        verbose(`${name} signed in (${side.client.label})`);
      }
    }

    say("join phase: the hosts join");
    for (const side of sides) {
      const [host] = side.pages;
      if (host === undefined) continue;
      await side.client.openLobby(host);
      await side.client.clickJoin(host);
    }
    for (const side of sides) {
      const joiner = side.pages[1];
      if (joiner !== undefined) await countedJoin(side, joiner, "warm-up join", false);
    }
    for (let i = 0; i < JOINS; i++)
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        const joiner = side.pages[1];
        if (joiner !== undefined) await countedJoin(side, joiner, `join ${i + 1}`, true);
      }
    for (const side of sides) {
      const [host] = side.pages;
      if (host !== undefined) await side.client.leave(host);
    }

    say(`CPU phase: ${PEOPLE} people per call, ${WINDOW_MS / 1000} s windows`);
    for (let r = 0; r < ROUNDS; r++)
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        try {
          await cpuRound(side, r + 1);
        } catch (e) {
          side.failures.push(`CPU round ${r + 1}: ${e instanceof Error ? e.message : String(e)}`);
          say(`${side.client.label} CPU round ${r + 1} failed: ${String(e)}`);
          for (const page of side.pages) await side.client.leave(page).catch(() => undefined);
        }
      }

    const summaries = Object.fromEntries(
      sides.map((s) => [s.client.kind, summariseLiveKit(s.joinMs, s.failures.length, s.cpu)]),
    ) as Partial<Record<LiveKitClientKind, LiveKitSummary>>;
    const loadAtEnd = loadavg();
    console.log(
      `\nload average at start ${loadAtStart.map((l) => l.toFixed(1)).join(" ")}, at end ${loadAtEnd.map((l) => l.toFixed(1)).join(" ")} (${cpus().length} cores)`,
    );
    console.log(
      "\n| client | joins (failed) | join ms median / p95 | main thread ms/s median / p95 | script ms/s | renderer process ms/s | remote frames/s |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const side of sides) {
      const s = summaries[side.client.kind];
      if (s === undefined) continue;
      const fps = side.framesPerS.length
        ? (side.framesPerS.reduce((a, b) => a + b, 0) / side.framesPerS.length).toFixed(0)
        : "—";
      console.log(
        `| ${side.client.label} | ${s.joins} (${s.failedJoins}) | ${fmt(s, "join")} | ${fmt(s, "cpu")} | ${fmt(s, "script")} | ${fmt(s, "process")} | ${fps} |`,
      );
    }
    for (const side of sides) {
      if (side.failures.length > 0) console.log(`${side.client.label} failures: ${side.failures.join("; ")}`);
      console.log(
        `${side.client.label} remote video sizes seen: ${[...new Set(side.sizes)].join(", ") || "none"}`,
      );
    }
    const result: Record<string, unknown> = {
      date: new Date().toISOString(),
      livekit: lk.version,
      joins: JOINS,
      people: PEOPLE,
      rounds: ROUNDS,
      windowS: WINDOW_MS / 1000,
      loadAtStart,
      loadAtEnd,
      sides: sides.map((s) => ({
        client: s.client.kind,
        joinMs: s.joinMs,
        failures: s.failures,
        cpu: s.cpu,
        framesPerS: s.framesPerS,
      })),
      summaries,
    };
    const { lattice, "element-call": ec } = summaries;
    if (lattice !== undefined && ec !== undefined) {
      const r = liveKitRatios(lattice, ec);
      const v = liveKitVerdict(lattice, ec);
      console.log(
        `\nratios Lattice / Element Call: ${Object.entries(r)
          .map(([k, x]) => `${k} ${x.toFixed(2)}`)
          .join(", ")}`,
      );
      console.log(
        v === null
          ? "targets: not judged (a client lacks join or CPU figures in this run, see its failures above)"
          : `targets (joins faster, less CPU): ${JSON.stringify(v)}`,
      );
      Object.assign(result, { ratios: r, verdict: v });
    }
    const dir = join(import.meta.dirname, "..", "results");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `calls-livekit-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2));
    writeFileSync(join(dir, "calls-livekit-latest.json"), JSON.stringify(result, null, 2));
    console.log(`written ${file}`);
  } catch (e) {
    const dir = join(import.meta.dirname, "..", "results");
    mkdirSync(dir, { recursive: true });
    for (const [i, c] of contexts.entries())
      for (const p of c.pages())
        await p
          .screenshot({ path: join(dir, `calls-livekit-failure-${i + 1}.png`), timeout: 10_000 })
          .catch(() => undefined);
    throw e;
  } finally {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await jwt?.stop();
    await lk?.stop();
    await hs?.stop();
    await front?.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
