/**
 * `npm test`: sets itself up, then runs every gate: typecheck, lint, format
 * check, the interop tests, unit and integration tests, browser tests. The
 * static gates are single-threaded, so they run in two lanes at once (lint
 * in one; the typechecks, the format check and knip in the other), which
 * halves their wall time on two cores; the interop tests run in a third lane
 * beside them: they mostly wait on Synapse (about 0.75 of a core), run one
 * test file at a time and do not mind a busy machine, where the browser
 * tests do. The unit and integration tests start as soon as both static
 * lanes are done, beside the interop tests' last minutes, which would
 * otherwise leave more than a core idle. The browser tests run last, alone,
 * since they use every core and mind a busy one. Each step's output is
 * printed whole when it ends. Stops after the first phase with a failing
 * gate, with a non-zero exit code.
 *
 * `node scripts/test.mjs lint typecheck` runs only the steps whose names
 * contain one of the words; `--serial` runs every step alone, in order.
 */
import { spawn } from "node:child_process";
import { ensureChromium, ensureCoturn, ensureNodeModules } from "./setup.mjs";

ensureNodeModules();
ensureChromium();
ensureCoturn();

const root = new URL("..", import.meta.url).pathname;
const TS_PROJECTS = [
  "tsconfig.json",
  "packages/sdk/tsconfig.json",
  "packages/widget-api/tsconfig.json",
  "packages/testserver/tsconfig.json",
  "packages/web/tsconfig.json",
  "bench/tsconfig.json",
];

const typecheck = TS_PROJECTS.map((p) => ({ name: `typecheck ${p}`, cmd: ["npx", "tsc", "-p", p] }));
const lint = { name: "lint", cmd: ["npx", "eslint", "--max-warnings", "0", "."] };
// Unused files, dependencies and exports (knip.json): seconds, at the end of the typecheck lane (lint's is longer).
const knip = { name: "lint: unused exports (knip)", cmd: ["npx", "knip"] };
const format = { name: "format", cmd: ["npx", "prettier", "--check", "--log-level", "warn", "."] };
const node = { name: "unit and integration tests", cmd: ["npx", "vitest", "run", "--project", "node"] };
// The Synapse install (minutes on a new machine, instant once cached) is the first step of the interop lane.
const interopSetup = { name: "interop setup (Synapse)", cmd: ["node", "scripts/setup-synapse.mjs"] };
// livekit-server and lk-jwt-service for the call tests (a Go build on a new machine, instant once cached).
const sfuSetup = { name: "interop setup (LiveKit)", cmd: ["node", "scripts/setup-livekit.mjs"] };
const interop = { name: "interop tests", cmd: ["npx", "vitest", "run", "--project", "interop"] };
// Two projects in one run: "browser" two files at a time, then "browser-alone" one at a time (vitest.config.ts).
const browser = {
  name: "browser tests",
  cmd: ["npx", "vitest", "run", "--project", "browser", "--project", "browser-alone"],
};

/**
 * Phases run in order; the lanes of a phase run at once, the steps of a lane
 * in order. A step may be `{ lanes }`: lanes run at once, and the step ends
 * when all of them did.
 */
const PHASES = [
  [
    [
      {
        lanes: [[lint], [...typecheck, format, knip]],
      },
      node,
    ],
    [interopSetup, sfuSetup, interop],
  ],
  [[browser]],
];

const args = process.argv.slice(2);
const serial = args.includes("--serial");
const only = args.filter((a) => a !== "--serial");
const wanted = (step) => only.length === 0 || only.some((o) => step.name.includes(o));

/** Runs one step; its output goes to the terminal directly when it runs alone, else in one block at its end. */
function runStep(step, alone) {
  return new Promise((resolve) => {
    const started = Date.now();
    if (alone) console.log(`\n=== ${step.name} ===`);
    const child = spawn(step.cmd[0], step.cmd.slice(1), {
      cwd: root,
      stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding("utf8");
      stream?.on("data", (d) => (output += d));
    }
    child.on("close", (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (!alone) {
        console.log(`\n=== ${step.name} ===`);
        process.stdout.write(output);
      }
      if (code === 0) console.log(`✓ ${step.name} (${secs}s)`);
      else console.error(`\n✗ ${step.name} failed after ${secs}s`);
      resolve(code ?? 1);
    });
  });
}

/** Runs lanes at once; the first non-zero exit code, or 0. */
async function runLanes(lanes, alone) {
  const codes = await Promise.all(lanes.map((lane) => runLane(lane, alone)));
  return codes.find((c) => c !== 0) ?? 0;
}

/** Runs a lane's steps in order until one fails; its exit code. */
async function runLane(steps, alone) {
  for (const step of steps) {
    const code = step.lanes ? await runLanes(step.lanes, false) : await runStep(step, alone);
    if (code !== 0) return code;
  }
  return 0;
}

/** The wanted steps of a lane (a group keeps its wanted lanes; an empty group goes). */
function pick(lane) {
  return lane
    .map((step) => (step.lanes ? { lanes: step.lanes.map(pick).filter((l) => l.length > 0) } : step))
    .filter((step) => (step.lanes ? step.lanes.length > 0 : wanted(step)));
}

/** Every step of a lane, in order, groups opened. */
const stepsOf = (lane) => lane.flatMap((step) => (step.lanes ? step.lanes.flatMap(stepsOf) : [step]));

const phases = serial
  ? PHASES.flat()
      .flatMap(stepsOf)
      .map((step) => [[step]])
  : PHASES;
const started = Date.now();
for (const phase of phases) {
  const lanes = phase.map(pick).filter((lane) => lane.length > 0);
  if (lanes.length === 0) continue;
  // A lane runs alone (its output straight to the terminal) only when it is one plain step after another.
  const alone = lanes.length === 1 && !lanes[0].some((step) => step.lanes);
  const failed = await runLanes(lanes, alone);
  if (failed !== 0) process.exit(failed);
}
console.log(`\nAll gates passed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
