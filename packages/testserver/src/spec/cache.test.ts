/**
 * The disk caches of the spec validator: operations read back equal what the
 * YAML gives, a validator loaded from generated code rejects what a freshly
 * compiled one rejects (with the same errors), a damaged entry is rebuilt,
 * and a new key (other definitions) misses.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAjv } from "./ajv";
import { cachedOperations, specCacheKey } from "./cache";
import { CompiledSchemaCache } from "./compiled";
import { RefResolver } from "./deref";
import { findSpecDataDir } from "./locate";
import { loadOperations } from "./operations";

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

describe("spec caches", () => {
  it("reads operations back from disk without loading the YAML again", () => {
    const dataDir = findSpecDataDir();
    let loads = 0;
    const load = () => {
      loads += 1;
      return loadOperations(new RefResolver(), dataDir);
    };
    const first = cachedOperations(dataDir, load);
    const second = cachedOperations(dataDir, load);
    expect(loads).toBe(1);
    expect(second).toEqual(JSON.parse(JSON.stringify(first)));
    expect(second.length).toBeGreaterThan(100);
    expect(readdirSync(dir).filter((f) => f.startsWith("operations-"))).toHaveLength(1);
  });

  it("loads generated code that rejects what the compiler rejects, formats included", () => {
    const fresh = new CompiledSchemaCache(createAjv()).compile(SCHEMA);
    const loaded = new CompiledSchemaCache(createAjv()).compile(SCHEMA);
    expect(readdirSync(dir).filter((f) => f.startsWith("ajv-"))).toHaveLength(1);
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
    for (const f of readdirSync(dir).filter((n) => n.startsWith("ajv-"))) writeFileSync(join(dir, f), "}{");
    const rebuilt = new CompiledSchemaCache(createAjv()).compileKeyed("a name", make);
    expect(made).toBe(2);
    expect(rebuilt(5)).toBe(false);
  });

  it("keys other definitions apart", () => {
    const other = mkdtempSync(join(tmpdir(), "lattice-spec-other-"));
    try {
      writeFileSync(join(other, "a.yaml"), "a: 1\n");
      const key = specCacheKey(other);
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(key).not.toBe(specCacheKey(findSpecDataDir()));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
