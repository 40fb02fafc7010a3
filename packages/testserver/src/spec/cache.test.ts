/**
 * The disk cache of compiled validators: a validator loaded from generated
 * code rejects what a freshly compiled one rejects (with the same errors), a
 * damaged entry is rebuilt, the event validators of a bundle compile once
 * per machine, and another bundle (another digest) misses.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAjv } from "./ajv";
import { parseSpecBundle } from "./bundle";
import { CompiledSchemaCache } from "./compiled";
import { EventValidator } from "./events";

let dir: string;
const before = process.env["LATTICE_SPEC_CACHE"];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lattice-spec-cache-test-"));
  process.env["LATTICE_SPEC_CACHE"] = dir;
});
afterAll(() => {
  if (before === undefined) delete process.env["LATTICE_SPEC_CACHE"];
  else process.env["LATTICE_SPEC_CACHE"] = before;
  rmSync(dir, { recursive: true, force: true });
});

const SCHEMA = {
  type: "object",
  properties: {
    user_id: { type: "string", format: "mx-user-id" },
    ts: { type: "integer", minimum: 0 },
    when: { type: "string", format: "date-time" },
  },
  required: ["user_id"],
  additionalProperties: false,
};

const ajvFiles = (): string[] => readdirSync(dir).filter((f) => f.startsWith("ajv-"));

/** A one-event bundle; `source` only changes its text, hence its digest. */
function tinyBundle(source: string): string {
  const event = {
    type: "object",
    properties: { type: { enum: ["m.tiny"] }, content: { $ref: "#/defs/c" } },
    required: ["type", "content"],
  };
  const defs = { c: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } };
  return JSON.stringify({
    format: 1,
    source,
    missing: [],
    operations: [],
    events: { "m.tiny": event },
    defs,
  });
}

describe("spec caches", () => {
  it("loads generated code that rejects what the compiler rejects, formats included", () => {
    const fresh = new CompiledSchemaCache(createAjv()).compile(SCHEMA);
    const loaded = new CompiledSchemaCache(createAjv()).compile(SCHEMA);
    expect(ajvFiles()).toHaveLength(1);
    expect(loaded).not.toBe(fresh);
    for (const value of [
      { user_id: "@a:b", ts: 1, when: "2026-11-22T05:00:00Z" },
      { user_id: "nobody", ts: 1 },
      { user_id: "@a:b", ts: -1, extra: true },
      { user_id: "@a:b", when: "yesterday" },
      {},
    ]) {
      expect(loaded(value), JSON.stringify(value)).toBe(fresh(value));
      expect(loaded.errors ?? null).toEqual(fresh.errors ?? null);
    }
    expect(loaded({ user_id: "nobody" })).toBe(false);
    expect(loaded.errors?.[0]?.keyword).toBe("format");
  });

  it("rebuilds a damaged entry and never builds a keyed schema on a hit", () => {
    const cache = new CompiledSchemaCache(createAjv());
    let made = 0;
    const make = () => {
      made += 1;
      return { type: "string" };
    };
    cache.compileKeyed("a name", make);
    expect(new CompiledSchemaCache(createAjv()).compileKeyed("a name", make)("x")).toBe(true);
    expect(made).toBe(1);
    for (const f of ajvFiles()) writeFileSync(join(dir, f), "}{");
    const rebuilt = new CompiledSchemaCache(createAjv()).compileKeyed("a name", make);
    expect(made).toBe(2);
    expect(rebuilt(5)).toBe(false);
  });

  it("compiles a bundle's event schema once, and keys another bundle apart", () => {
    const bad = { type: "m.tiny", content: { n: "one" } };
    const first = parseSpecBundle(tinyBundle("first"));
    const count = ajvFiles().length;
    expect(new EventValidator(first).validate(bad)).toEqual(["event m.tiny/content/n must be integer"]);
    expect(ajvFiles()).toHaveLength(count + 1);
    // A new validator (as in the next test file) reads the generated code back.
    expect(new EventValidator(first).validate(bad)).toEqual(["event m.tiny/content/n must be integer"]);
    expect(new EventValidator(first).validate({ type: "m.tiny", content: { n: 1 } })).toEqual([]);
    expect(ajvFiles()).toHaveLength(count + 1);
    const second = parseSpecBundle(tinyBundle("second"));
    expect(second.key).not.toBe(first.key);
    expect(new EventValidator(second).validate(bad)).toHaveLength(1);
    expect(ajvFiles()).toHaveLength(count + 2);
  });
});
