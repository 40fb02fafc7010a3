/**
 * Hand mutation test of the five central suites (issue 23): each mutant is
 * one text patch to a source file (a real bug someone could write: a
 * dropped check, a wrong bound, a skipped step). For each, the script
 * writes the patched file, runs the suite's test files, records "killed"
 * (a test failed or the run timed out) or "survived" (every test passed),
 * and writes the original back, in a `finally` and on SIGINT/SIGTERM, so
 * no mutated file is left behind. A patch whose text is not found exactly
 * once is reported as "stale" (the code moved on) and not counted.
 *
 *   node scripts/mutate.mjs                    # every suite
 *   node scripts/mutate.mjs sendqueue roomlist # some suites
 *   node scripts/mutate.mjs --list             # the mutants (and any stale patch), without running
 *
 * Results: a table on stdout and bench/results/mutation-latest.json
 * (git-ignored). The mutants themselves live in scripts/mutants.mjs.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SUITES } from "./mutants.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUN_TIMEOUT_MS = 10 * 60_000;
/** Terminal colour codes, stripped from the failure lines kept. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const args = process.argv.slice(2);
const list = args.includes("--list");
const wanted = args.filter((a) => !a.startsWith("--"));
const suites = SUITES.filter((s) => wanted.length === 0 || wanted.includes(s.name));

/** Originals of files being mutated, written back on any exit. */
const originals = new Map();
function restoreAll() {
  for (const [path, text] of originals) writeFileSync(path, text);
  originals.clear();
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    restoreAll();
    process.exit(130);
  });
}
process.on("exit", restoreAll);

function git(...argv) {
  return spawnSync("git", argv, { cwd: ROOT, encoding: "utf8" });
}

function runTests(files) {
  const started = Date.now();
  const res = spawnSync(
    "npx",
    ["vitest", "run", "--project", "node", "--bail", "1", "--reporter", "dot", ...files],
    { cwd: ROOT, encoding: "utf8", timeout: RUN_TIMEOUT_MS, env: { ...process.env, CI: "1" } },
  );
  const timedOut = res.error !== undefined && /ETIMEDOUT/.test(String(res.error.message));
  const failed = (res.stdout + res.stderr)
    .split("\n")
    .filter((l) => /FAIL|×/.test(l))
    .map((l) => l.replace(ANSI, "").trim())
    .slice(0, 3);
  return { ok: res.status === 0, timedOut, ms: Date.now() - started, failed };
}

const results = [];
for (const suite of suites) {
  console.log(`\n## ${suite.name}: ${suite.tests.join(" ")}`);
  if (list) {
    for (const m of suite.mutants) {
      const found = readFileSync(join(ROOT, m.file), "utf8").split(m.from).length - 1;
      const stale = found === 1 ? "" : ` [stale: patch text found ${found} times]`;
      console.log(`- ${m.id} (${m.file.split("/").pop()}): ${m.why}${stale}`);
    }
    continue;
  }
  const files = [...new Set(suite.mutants.map((m) => m.file))];
  const dirty = files.filter((f) => git("diff", "--quiet", "HEAD", "--", f).status !== 0);
  if (dirty.length > 0) {
    console.log(
      `skipped: uncommitted changes in ${dirty.join(", ")} (the script mutates committed code only)`,
    );
    continue;
  }
  const baseline = runTests(suite.tests);
  if (!baseline.ok) {
    console.log(`skipped: the suite fails without any mutant (${baseline.failed.join("; ")})`);
    results.push({ suite: suite.name, baseline: "failed" });
    continue;
  }
  console.log(`baseline passes (${Math.round(baseline.ms / 1000)} s)`);
  for (const m of suite.mutants) {
    const path = join(ROOT, m.file);
    const text = readFileSync(path, "utf8");
    const count = text.split(m.from).length - 1;
    if (count !== 1) {
      console.log(`- ${m.id}: stale (patch text found ${count} times)`);
      results.push({ suite: suite.name, id: m.id, why: m.why, outcome: "stale" });
      continue;
    }
    originals.set(path, text);
    let run;
    try {
      writeFileSync(
        path,
        text.replace(m.from, () => m.to),
      );
      run = runTests(suite.tests);
    } finally {
      writeFileSync(path, text);
      originals.delete(path);
    }
    const outcome = run.ok ? "survived" : run.timedOut ? "killed (timeout)" : "killed";
    console.log(
      `- ${m.id}: ${outcome} (${Math.round(run.ms / 1000)} s) ${m.why}${run.ok ? "" : ` | ${run.failed[0] ?? ""}`}`,
    );
    results.push({
      suite: suite.name,
      id: m.id,
      file: m.file,
      why: m.why,
      outcome,
      ms: run.ms,
      failed: run.failed,
    });
  }
}

if (!list) {
  // Belt and braces: nothing mutated may remain.
  const left = suites
    .flatMap((s) => s.mutants.map((m) => m.file))
    .filter((f) => git("diff", "--quiet", "HEAD", "--", f).status !== 0);
  if (left.length > 0)
    console.error(`WARNING: files differ from HEAD after the run: ${[...new Set(left)].join(", ")}`);
  console.log("\n| suite | mutants | killed | survived | stale |\n|---|---|---|---|---|");
  for (const suite of suites) {
    const rs = results.filter((r) => r.suite === suite.name && r.outcome !== undefined);
    const n = (p) => rs.filter((r) => p(r.outcome)).length;
    console.log(
      `| ${suite.name} | ${rs.length - n((o) => o === "stale")} | ${n((o) => o.startsWith("killed"))} | ${n((o) => o === "survived")} | ${n((o) => o === "stale")} |`,
    );
  }
  const out = join(ROOT, "bench/results");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "mutation-latest.json"),
    JSON.stringify({ at: new Date().toISOString(), results }, null, 2),
  );
}
