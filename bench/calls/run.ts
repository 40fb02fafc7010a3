/**
 * bench/calls: 1:1 call set-up times on loopback, Lattice to Lattice and
 * matrix-js-sdk to matrix-js-sdk in the same run, each client in its own
 * pair of Chromium pages (packages/web/e2e/calls: the peer pages, fake
 * media devices) over the test homeserver (or current Synapse with
 * --server synapse), both with coturn's TURN credentials. Calls alternate
 * between the two clients so both meet the same load. Per call:
 *   - ringing: the caller's page presses Call (before the client's call) to
 *     the callee's page seeing the call ring (its incoming event);
 *   - connected: the callee's page presses Accept to both pages seeing the
 *     call connected.
 * Each figure is timed by the pages' own clocks (performance.timeOrigin +
 * now, one machine), so how often the runner looks does not count.
 * Prints median and p95 per client and the Lattice / js-sdk ratios, and
 * writes JSON to bench/results/calls-*.json.
 *
 *   npx tsx bench/calls/run.ts [--calls 20] [--server testserver|synapse] [--only lattice|jssdk] [--voice]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startCoturn } from "@lattice/testserver/coturn";
import { startCallServer } from "@lattice/web/e2e/calls/call-servers";
import type { CallServerKind } from "@lattice/web/e2e/calls/call-servers";
import { launchCallChromium, openPeer, servePeerPages } from "@lattice/web/e2e/calls/peer-pages";
import type { PeerHandle, PeerKind } from "@lattice/web/e2e/calls/peer-pages";
import { ratios, stepMedians, summarise, TARGETS, verdict } from "./stats";
import type { CallTiming, ClientSummary } from "./stats";

const { values: args } = parseArgs({
  options: {
    calls: { type: "string", default: "20" },
    server: { type: "string", default: "testserver" },
    only: { type: "string" },
    voice: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const CALLS = Number(args.calls);
const SERVER = args.server as CallServerKind;
const VIDEO = !args.voice;
const KINDS: PeerKind[] = args.only ? [args.only as PeerKind] : ["lattice", "jssdk"];
const STEP_TIMEOUT_MS = 60_000;

interface Pair {
  kind: PeerKind;
  roomId: string;
  a: PeerHandle;
  b: PeerHandle;
  aUser: string;
  bUser: string;
}

/** Waits in `peer`'s page until its call `callId` is in `state`. */
async function waitState(peer: PeerHandle, callId: string, state: string): Promise<void> {
  await peer.page.waitForFunction(
    ([id, s]) => window.peer?.calls().some((c) => c.callId === id && c.state === s) === true,
    [callId, state] as const,
    { timeout: STEP_TIMEOUT_MS, polling: 20 },
  );
}

/** One call from `caller` to `callee`: the two figures, then a hang-up both sides see. */
async function oneCall(pair: Pair, callerIsA: boolean): Promise<CallTiming> {
  const [caller, callee, calleeUser] = callerIsA
    ? [pair.a, pair.b, pair.bUser]
    : [pair.b, pair.a, pair.aUser];
  const callId = await caller.place(pair.roomId, calleeUser, VIDEO);
  await waitState(callee, callId, "ringing");
  await callee.answer(callId, VIDEO);
  await Promise.all([waitState(caller, callId, "connected"), waitState(callee, callId, "connected")]);
  const [out, inc] = await Promise.all([caller.call(callId), callee.call(callId)]);
  await caller.hangup(callId);
  await Promise.all([waitState(caller, callId, "ended"), waitState(callee, callId, "ended")]);
  const placed = out?.marks.placed;
  const ringing = inc?.marks.ringing;
  const answered = inc?.marks.answered;
  const connected = Math.max(out?.marks.connected ?? NaN, inc?.marks.connected ?? NaN);
  if (placed === undefined || ringing === undefined || answered === undefined || !Number.isFinite(connected))
    throw new Error(`call ${callId} lacks a mark: ${JSON.stringify({ out, inc })}`);
  const sent = out?.marks.sent;
  const [media, offer, sending] = [
    out?.marks.media_ready,
    out?.marks.offer_created,
    out?.marks.invite_sending,
  ];
  return {
    ringingMs: ringing - placed,
    connectedMs: connected - answered,
    ...(sent !== undefined ? { sentMs: sent - placed } : {}),
    ...(media !== undefined && offer !== undefined && sending !== undefined
      ? { steps: { mediaMs: media - placed, offerMs: offer - placed, sendingMs: sending - placed } }
      : {}),
  };
}

/** One call's figures, with the caller's steps where its page reports them. */
function describe(t: CallTiming): string {
  const steps = t.steps
    ? `media ${t.steps.mediaMs.toFixed(0)}, offer +${(t.steps.offerMs - t.steps.mediaMs).toFixed(0)}, ` +
      `queued +${(t.steps.sendingMs - t.steps.offerMs).toFixed(0)}, `
    : "";
  const sent =
    t.sentMs !== undefined
      ? ` (${steps}invite out after ${t.sentMs.toFixed(0)} ms` +
        `${t.steps ? `, server +${(t.sentMs - t.steps.sendingMs).toFixed(0)}` : ""}` +
        `, delivered ${(t.ringingMs - t.sentMs).toFixed(0)} ms later)`
      : "";
  return `ringing ${t.ringingMs.toFixed(0)} ms${sent}, connected ${t.connectedMs.toFixed(0)} ms`;
}

function fmt(n: number): string {
  return n.toFixed(0).padStart(6);
}

function row(name: string, s: ClientSummary): string {
  return `| ${name.padEnd(13)} | ${s.calls} | ${fmt(s.ringing.median)} | ${fmt(s.ringing.p95)} | ${fmt(s.connected.median)} | ${fmt(s.connected.p95)} |`;
}

async function main(): Promise<void> {
  const load = loadavg()[0] ?? 0;
  console.log(
    `bench/calls: ${CALLS} calls per client on ${SERVER}, ${VIDEO ? "video" : "voice"}, load ${load.toFixed(1)} on ${cpus().length} cores`,
  );
  const coturn = await startCoturn();
  const server = await startCallServer(SERVER, coturn);
  const [pages, browser] = await Promise.all([servePeerPages(KINDS), launchCallChromium()]);
  const log = args.verbose ? (line: string) => console.log(line) : undefined;
  const pairs: Pair[] = [];
  try {
    for (const kind of KINDS) {
      const stamp = Date.now().toString(36);
      const [a, b] = await Promise.all([
        server.register(`${kind}-a-${stamp}`),
        server.register(`${kind}-b-${stamp}`),
      ]);
      const roomId = await server.directRoom(a, b);
      const [pa, pb] = await Promise.all([
        openPeer(browser, pages, kind, a, log),
        openPeer(browser, pages, kind, b, log),
      ]);
      pairs.push({ kind, roomId, a: pa, b: pb, aUser: a.userId, bUser: b.userId });
    }
    // One warm-up call each (first capture, first peer connection, code caches), not counted.
    for (const pair of pairs) await oneCall(pair, true);
    const timings: Record<string, CallTiming[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
    for (let i = 0; i < CALLS; i++) {
      for (const pair of i % 2 === 0 ? pairs : [...pairs].reverse()) {
        const t = await oneCall(pair, i % 2 === 0);
        timings[pair.kind]?.push(t);
        if (args.verbose) console.log(`${pair.kind} #${i + 1}: ${describe(t)}`);
      }
    }
    const summaries = Object.fromEntries(KINDS.map((k) => [k, summarise(timings[k] ?? [])])) as Record<
      PeerKind,
      ClientSummary
    >;
    console.log("\n| client | calls | ringing median | ringing p95 | connected median | connected p95 |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const k of KINDS) console.log(row(k === "jssdk" ? "matrix-js-sdk" : "Lattice", summaries[k]));
    const steps = stepMedians(timings.lattice ?? []);
    if (steps)
      console.log(
        `\nLattice ringing, median parts (ms): ${Object.entries(steps)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(", ")}`,
      );
    const result: Record<string, unknown> = {
      date: new Date().toISOString(),
      server: SERVER,
      video: VIDEO,
      calls: CALLS,
      loadAtStart: load,
      loadAtEnd: loadavg()[0],
      timings,
      summaries,
      ...(steps ? { latticeRingingParts: steps } : {}),
    };
    if (summaries.lattice && summaries.jssdk) {
      const r = ratios(summaries.lattice, summaries.jssdk);
      const v = verdict(summaries.lattice, summaries.jssdk);
      console.log(
        `\nratios Lattice / matrix-js-sdk: ${Object.entries(r)
          .map(([k, x]) => `${k} ${x.toFixed(2)}`)
          .join(", ")}`,
      );
      console.log(`targets (ringing p95 < ${TARGETS.ringingMs} ms, p95 no slower): ${JSON.stringify(v)}`);
      Object.assign(result, { ratios: r, verdict: v });
    }
    const dir = join(import.meta.dirname, "..", "results");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `calls-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2));
    writeFileSync(join(dir, "calls-latest.json"), JSON.stringify(result, null, 2));
    console.log(`load at end ${(loadavg()[0] ?? 0).toFixed(1)}; written ${file}`);
  } finally {
    for (const p of pairs) await Promise.all([p.a.close(), p.b.close()]);
    await browser.close().catch(() => undefined);
    await pages.close();
    await server.stop();
    await coturn.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
