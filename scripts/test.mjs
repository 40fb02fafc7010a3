/**
 * `npm test`: sets itself up, then runs every gate in order: typecheck,
 * lint, format check, unit and integration tests, browser tests. Stops at the
 * first failing gate with a non-zero exit code.
 */
import { spawnSync } from "node:child_process";
import { ensureChromium, ensureNodeModules } from "./setup.mjs";

ensureNodeModules();
ensureChromium();

const root = new URL("..", import.meta.url).pathname;
const TS_PROJECTS = [
  "tsconfig.json",
  "packages/sdk/tsconfig.json",
  "packages/widget-api/tsconfig.json",
  "packages/testserver/tsconfig.json",
  "packages/web/tsconfig.json",
  "bench/tsconfig.json",
];

const steps = [
  ...TS_PROJECTS.map((p) => ({ name: `typecheck ${p}`, cmd: ["npx", "tsc", "-p", p] })),
  { name: "lint", cmd: ["npx", "eslint", "--max-warnings", "0", "."] },
  { name: "format", cmd: ["npx", "prettier", "--check", "--log-level", "warn", "."] },
  { name: "unit and integration tests", cmd: ["npx", "vitest", "run", "--project", "node"] },
  { name: "browser tests", cmd: ["npx", "vitest", "run", "--project", "browser", "--passWithNoTests"] },
];

const only = process.argv.slice(2);
for (const step of steps) {
  if (only.length > 0 && !only.some((o) => step.name.includes(o))) continue;
  const started = Date.now();
  console.log(`\n=== ${step.name} ===`);
  const res = spawnSync(step.cmd[0], step.cmd.slice(1), { stdio: "inherit", cwd: root });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status !== 0) {
    console.error(`\n✗ ${step.name} failed after ${secs}s`);
    process.exit(res.status ?? 1);
  }
  console.log(`✓ ${step.name} (${secs}s)`);
}
