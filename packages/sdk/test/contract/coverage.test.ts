/**
 * Coverage of SPEC §7: every entry of spec-calls.ts must be exercised by at
 * least one contract case (matched by method and path template). Prints the
 * coverage line, and, for information, which OpenAPI operations of the
 * official definitions the cases reach and which they do not.
 */
import { describe, expect, it } from "vitest";
import { getSpecValidator } from "@lattice/testserver/spec";
import { collectCases } from "./collect";
import { SPEC_CALLS } from "./spec-calls";
import type { SpecCall } from "./spec-calls";
import type { ContractCase } from "./types";

const cases = collectCases().map((c) => c.contract);
const spec = getSpecValidator();

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** True when concrete, encoded `path` fits `template` ({param} = any one segment). */
function fitsTemplate(template: string, path: string): boolean {
  const t = template.split("/");
  const p = path.split("?", 1)[0]?.split("/") ?? [];
  if (t.length !== p.length) return false;
  return t.every((seg, i) => /^\{[^}]+\}$/.test(seg) || seg === decode(p[i] ?? ""));
}

function split(call: string): { method: string; path: string } {
  const [method = "", path = ""] = call.split(" ");
  return { method, path };
}

/** True when `c` exercises the table entry. */
function covers(entry: SpecCall, c: ContractCase): boolean {
  const { method, path } = split(entry.call);
  if (c.expect.method !== method) return false;
  if (![path, ...(entry.alt ?? [])].some((t) => fitsTemplate(t, c.expect.path))) return false;
  if (
    entry.query &&
    !entry.query.some((q) => c.expect.query !== undefined && Object.hasOwn(c.expect.query, q))
  ) {
    return false;
  }
  if (entry.body) {
    const body = c.expect.body;
    if (typeof body !== "object" || body === null) return false;
    if (!entry.body.every((k) => Object.hasOwn(body, k))) return false;
  }
  return true;
}

describe("SPEC §7 coverage", () => {
  it("has a contract case for every call of SPEC §7", () => {
    const missing = SPEC_CALLS.filter((entry) => !cases.some((c) => covers(entry, c)));
    const covered = SPEC_CALLS.length - missing.length;
    const pct = Math.floor((covered / SPEC_CALLS.length) * 1000) / 10;
    console.log(`SPEC §7 calls covered: ${covered}/${SPEC_CALLS.length} (${pct}%)`);
    for (const m of missing) console.log(`  missing: ${m.call}  (${m.from})`);
    expect(
      missing.map((m) => `${m.call} (${m.from})`),
      "SPEC §7 calls without a contract case",
    ).toEqual([]);
  });

  it("validates every spec-defined call against the spec in at least one case", () => {
    const unvalidated = SPEC_CALLS.filter(
      (entry) =>
        entry.noSpec === undefined &&
        cases.some((c) => covers(entry, c)) &&
        !cases.some((c) => c.noSpec === undefined && covers(entry, c)),
    ).map((e) => e.call);
    expect(unvalidated, "SPEC §7 calls whose only cases skip spec validation").toEqual([]);
  });

  it("names real OpenAPI operations in the table, except the noted unstable or Synapse ones", () => {
    const unknown = SPEC_CALLS.filter((e) => {
      if (e.noSpec !== undefined) return false;
      const { method, path } = split(e.call);
      // The spec spells the only push rule scope out: /pushrules/global/...
      const sample = path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === "scope" ? "global" : "x"));
      return spec.find(method, sample) === undefined;
    }).map((e) => e.call);
    expect(unknown).toEqual([]);
  });

  it("matches templates segment by segment", () => {
    expect(fitsTemplate("/a/{b}/c", "/a/%21x%3Ay/c")).toBe(true);
    expect(fitsTemplate("/a/{b}/c", "/a/x/d")).toBe(false);
    expect(fitsTemplate("/a/{b}", "/a/x/c")).toBe(false);
    expect(fitsTemplate("/pushrules/{scope}", "/pushrules/global")).toBe(true);
  });

  it("reports which OpenAPI operations the SDK reaches (informational)", () => {
    const reached = new Set<string>();
    for (const c of cases) {
      if (c.noSpec !== undefined) continue;
      for (const m of spec.index.findAll(c.expect.method, c.expect.path)) {
        reached.add(`${m.operation.method} ${m.operation.template}`);
      }
    }
    const all = spec.operations.map((o) => `${o.method} ${o.template}`);
    const unreached = [...new Set(all)].filter((op) => !reached.has(op)).sort();
    console.log(`OpenAPI operations reached by contract cases: ${reached.size}/${new Set(all).size}`);
    console.log(`Not reached (informational):\n  ${unreached.join("\n  ")}`);
    const noSpec = cases.filter((c) => c.noSpec !== undefined);
    console.log(`Cases checked against expect only (noSpec): ${noSpec.length}`);
    for (const c of noSpec) console.log(`  ${c.name}: ${c.expect.method} ${c.expect.path} (${c.noSpec})`);
    expect(reached.size).toBeGreaterThan(0);
  });
});
