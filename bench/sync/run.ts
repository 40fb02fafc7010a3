/**
 * The sync benchmark runner: for each fixture size it starts the loopback
 * server, then runs Lattice and matrix-js-sdk against it, each in its own
 * child process (node --expose-gc, so heaps do not mix and GC can be forced),
 * alternating which goes first, a few times; it prints medians and ratios
 * and writes JSON to bench/results/.
 *
 * Command: `npm run bench:sync -w bench` or
 * `npx tsx bench/sync/run.ts [--rooms 100,1000,3000] [--repeats 3] [--seed 1]`
 * `--profile` writes a V8 CPU profile of every child to bench/results/profiles/
 * (open it in Chrome DevTools); profiled timings are not comparable.
 * `--only lattice` (or `--only js-sdk`) runs one client and prints its lines
 * without ratios, for profiling one side quickly.
 */
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_SEED, DEFAULT_SIZES, ensureFixture } from "./fixture";
import type { FixtureMeta } from "./fixture";
import type { ChildJob, ChildResult } from "./protocol";
import { CLIENTS, formatTable, machine, summarise, writeResults } from "./report";
import type { ClientName, SizeSummary } from "./report";
import { startBenchServer } from "./server";

/**
 * A child that has not answered by then is stuck; kill it rather than hang the
 * run. Generous: js-sdk needs about 5 minutes of CPU at 3,000 rooms, and on a
 * machine shared at a load of 20 it got an eighth of a core (15 minutes were
 * not enough).
 */
const CHILD_TIMEOUT_MS = 60 * 60_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PRELOAD = fileURLToPath(new URL("./preload.ts", import.meta.url));
const ENTRY: Record<ClientName, string> = {
  lattice: fileURLToPath(new URL("./clients/lattice.ts", import.meta.url)),
  "js-sdk": fileURLToPath(new URL("./clients/jssdk.ts", import.meta.url)),
};

const PROFILES = fileURLToPath(new URL("../results/profiles/", import.meta.url));
let profile = false;

/** Runs one client in a fresh process and returns what it measured. */
function runChild(client: ClientName, job: ChildJob): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const profiling = profile
      ? // One directory per client and Node's default file names: the tsx loader thread writes its own profile too.
        ["--cpu-prof", "--cpu-prof-dir", join(PROFILES, client)]
      : [];
    const child = fork(ENTRY[client], [], {
      cwd: ROOT,
      execArgv: ["--expose-gc", "--import", "tsx", "--import", PRELOAD, ...profiling],
      env: { ...process.env, BENCH_JOB: JSON.stringify(job) },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    // The first lines (the first errors) and the last ones (how it ended) of the child's output.
    let head = "";
    let output = "";
    const keep = (chunk: Buffer): void => {
      if (head.length < 4000) head = (head + chunk.toString()).slice(0, 4000);
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let result: ChildResult | undefined;
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("message", (message) => (result = message as ChildResult));
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else
        reject(
          new Error(
            `${client} child ended (code ${code}, signal ${signal}) without a result:\n${head}\n[...]\n${output}`,
          ),
        );
    });
  });
}

async function benchSize(
  rooms: number,
  seed: number,
  repeats: number,
  clients: readonly ClientName[],
): Promise<SizeSummary | undefined> {
  const { dir, meta } = ensureFixture(rooms, seed);
  // Never idle out under a child that is still working (js-sdk can compute for minutes between requests).
  const server = await startBenchServer({ dir, idleMs: CHILD_TIMEOUT_MS });
  try {
    const runs: Record<ClientName, ChildResult[]> = { lattice: [], "js-sdk": [] };
    for (let r = 0; r < repeats; r++) {
      // Alternate the order, so neither side always runs on a warmer (or busier) machine.
      const order = r % 2 === 0 ? clients : [...clients].reverse();
      for (const client of order) {
        const load = loadavg()[0] ?? 0;
        const result = await runChild(client, {
          url: server.url,
          userId: meta.userId,
          finalToken: meta.finalToken,
        });
        checkRooms(client, result, meta);
        runs[client].push(result);
        console.log(
          `  ${rooms} rooms, run ${r + 1}/${repeats}, ${client} (load ${load.toFixed(1)}): initial ${result.initialMs.toFixed(0)} ms, ` +
            `batches ${result.incrementalMs.toFixed(0)} ms, heap ${(result.heapBytes / 2 ** 20).toFixed(1)} MB` +
            (result.syncErrors ? `, ${result.syncErrors} failed syncs retried` : ""),
        );
      }
    }
    console.log(`  requests: ${[...server.stats.routes].map(([route, n]) => `${route} x${n}`).join(", ")}`);
    if (server.stats.unrecognised.size > 0) {
      console.log(
        `  answered M_UNRECOGNIZED: ${[...server.stats.unrecognised].map(([p, n]) => `${p} x${n}`).join(", ")}`,
      );
    }
    return clients.length === CLIENTS.length ? summarise(meta, runs) : undefined;
  } finally {
    await server.close();
  }
}

/** A client that did not end up with every room did not do the work being timed. */
function checkRooms(client: ClientName, result: ChildResult, meta: FixtureMeta): void {
  const expected = meta.rooms + meta.invites;
  if (result.rooms !== expected) {
    throw new Error(`${client} knows ${result.rooms} rooms after the run, expected ${expected}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rooms: { type: "string", default: DEFAULT_SIZES.join(",") },
      repeats: { type: "string", default: "3" },
      seed: { type: "string", default: String(DEFAULT_SEED) },
      profile: { type: "boolean", default: false },
      only: { type: "string" },
    },
  });
  const only = values.only;
  if (only !== undefined && !CLIENTS.some((c) => c === only)) {
    throw new Error(`--only takes one of ${CLIENTS.join(", ")}`);
  }
  const clients = CLIENTS.filter((c) => only === undefined || c === only);
  profile = values.profile;
  const sizes = values.rooms.split(",").map(Number);
  const repeats = Math.max(1, Number(values.repeats));
  const seed = Number(values.seed);
  const at = new Date();
  const host = machine();
  console.log(
    `sync bench: rooms ${sizes.join(", ")}, ${repeats} repeats, seed ${seed}, ${JSON.stringify(host)}`,
  );
  const summaries: SizeSummary[] = [];
  let file = "";
  for (const rooms of sizes) {
    const summary = await benchSize(rooms, seed, repeats, clients);
    if (!summary) continue;
    summaries.push(summary);
    // Written after every size, so a long run that is cut short still leaves its figures.
    const includes = Object.fromEntries(CLIENTS.map((c) => [c, summaries[0]?.runs[c][0]?.includes ?? ""]));
    file = writeResults(
      { at: at.toISOString(), machine: host, seed, repeats, includes, sizes: summaries },
      at,
    );
  }
  if (summaries.length === 0) return;
  console.log(`\n${formatTable(summaries)}`);
  console.log(`\nLattice figure covers: ${summaries[0]?.runs.lattice[0]?.includes ?? ""}`);
  console.log(`results: ${file}`);
}

await main();
