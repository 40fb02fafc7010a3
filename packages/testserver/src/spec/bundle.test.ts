/**
 * The spec bundle: the committed file is what `npm run spec:bundle` makes
 * of the definitions beside the clone ("bundle is current", skipped with the
 * reason when ../shared/matrix-spec is absent), it holds structure only,
 * the generator keeps property names that look like annotations and shares
 * repeated subtrees losslessly, and a damaged bundle is refused clearly.
 */
import { readFileSync } from "node:fs";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SPEC_BUNDLE_PATH, SpecBundleError, loadSpecBundle, parseSpecBundle } from "./bundle";
import { buildSpecBundle, serializeSpecBundle, stripAnnotations } from "./bundle-build";
import { RefResolver } from "./deref";
import { SpecNotFoundError, findSpecDataDir } from "./locate";
import { loadOperations } from "./operations";

/** The definitions beside the clone, or why there are none. */
function locate(): { dataDir: string } | { reason: string } {
  try {
    return { dataDir: findSpecDataDir() };
  } catch (err) {
    if (err instanceof SpecNotFoundError) return { reason: err.message };
    throw err;
  }
}

const found = locate();
const dataDir = "dataDir" in found ? found.dataDir : undefined;
if ("reason" in found) {
  console.warn(`spec bundle: "bundle is current" skipped: ${found.reason}`);
}

describe("the committed bundle", () => {
  it.skipIf(dataDir === undefined)("bundle is current", () => {
    const fresh = serializeSpecBundle(buildSpecBundle(dataDir ?? ""));
    const committed = readFileSync(SPEC_BUNDLE_PATH, "utf8");
    // Compared as a boolean: a diff of two 300 KB texts helps nobody; the message says what to do.
    expect(fresh === committed, `${SPEC_BUNDLE_PATH} differs from ${dataDir}: run npm run spec:bundle`).toBe(
      true,
    );
  });

  it("holds structure only: no annotation anywhere a keyword stands", () => {
    const bundle = loadSpecBundle();
    expect(bundle.operations.length).toBeGreaterThan(150);
    expect(bundle.events.size).toBeGreaterThan(50);
    for (const op of bundle.operations) expect(stripAnnotations(op.spec), op.operationId).toEqual(op.spec);
    for (const [name, schema] of bundle.events) expect(stripAnnotations(schema), name).toEqual(schema);
    const text = readFileSync(SPEC_BUNDLE_PATH, "utf8");
    expect(text).not.toMatch(/"(examples?|x-[\w-]+|externalDocs)":/);
  });

  it("shares one object per repeated subtree", () => {
    const bundle = loadSpecBundle();
    type Node = Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const ok = (id: string): Record<string, unknown> | undefined => {
      const responses = bundle.operations.find((o) => o.operationId === id)?.spec["responses"] as Node;
      return responses["200"]?.["content"]?.["application/json"]?.["schema"] as Record<string, unknown>;
    };
    const chunk = (ok("getRoomEvents")?.["properties"] as Node | undefined)?.["chunk"]?.["items"];
    // A room event: stored once, loaded as one object, so it is compiled once.
    expect(chunk).toBeDefined();
    expect(ok("getOneRoomEvent")).toBe(chunk);
  });
});

describe("generating", () => {
  it("strips annotations but keeps property names, data and required lists", () => {
    const schema = {
      type: "object",
      title: "T",
      description: "d",
      "x-addedInMatrixVersion": "1.1",
      properties: {
        description: { type: "string", description: "the field called description" },
        title: { enum: ["a"], example: "a" },
      },
      required: ["description"],
      default: { description: "kept: data" },
    };
    expect(stripAnnotations(schema)).toEqual({
      type: "object",
      properties: { description: { type: "string" }, title: { enum: ["a"] } },
      required: ["description"],
      default: { description: "kept: data" },
    });
  });

  it("bundles definitions with cross-file refs, losslessly and byte-for-byte the same twice", () => {
    const dir = mkdtempSync(join(tmpdir(), "lattice-spec-data-"));
    try {
      mkdirSync(join(dir, "api", "client-server", "definitions"), { recursive: true });
      mkdirSync(join(dir, "api", "identity"), { recursive: true });
      mkdirSync(join(dir, "event-schemas", "schema"), { recursive: true });
      const user = [
        "type: object",
        "description: A user, long enough to be shared between the two operations below.",
        "properties:",
        "  user_id: { type: string, format: mx-user-id, description: The id. }",
        "  displayname: { type: string, example: Alice }",
        "required: [user_id]",
      ].join("\n");
      writeFileSync(join(dir, "api", "client-server", "definitions", "user.yaml"), user);
      const op = (id: string): string =>
        [
          `    get:`,
          `      operationId: ${id}`,
          `      summary: Gets it.`,
          `      parameters:`,
          `        - { in: path, name: userId, required: true, schema: { type: string } }`,
          `      responses:`,
          `        "200":`,
          `          description: OK`,
          `          content:`,
          `            application/json:`,
          `              schema: { $ref: definitions/user.yaml }`,
        ].join("\n");
      const api = [
        "openapi: 3.1.0",
        "servers:",
        "  - url: '{protocol}://{hostname}{basePath}'",
        "    variables:",
        "      protocol: { default: https }",
        "      hostname: { default: localhost }",
        "      basePath: { default: /_matrix/client/v3 }",
        "paths:",
        "  /a/{userId}:",
        op("getA"),
        "  /b/{userId}:",
        op("getB"),
      ].join("\n");
      writeFileSync(join(dir, "api", "client-server", "users.yaml"), api);
      writeFileSync(
        join(dir, "event-schemas", "schema", "m.tiny.yaml"),
        "type: object\ntitle: Tiny\nproperties:\n  content: { type: object, required: [n] }\n",
      );
      const text = serializeSpecBundle(buildSpecBundle(dir));
      expect(serializeSpecBundle(buildSpecBundle(dir))).toBe(text);
      expect(text).not.toContain("Alice");
      expect(text).not.toContain("long enough");
      const file = JSON.parse(text) as { defs: Record<string, unknown> };
      expect(Object.keys(file.defs)).toHaveLength(1);
      const bundle = parseSpecBundle(text);
      const direct = loadOperations(new RefResolver(), dir).map((o) => ({
        ...o,
        spec: stripAnnotations(o.spec),
      }));
      expect(bundle.operations).toEqual(direct);
      expect(bundle.operations.map((o) => `${o.method} ${o.template}`)).toEqual([
        "GET /_matrix/client/v3/a/{userId}",
        "GET /_matrix/client/v3/b/{userId}",
      ]);
      expect([...bundle.events.keys()]).toEqual(["m.tiny"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loading", () => {
  it("refuses a damaged bundle or one of another format, saying what to do", () => {
    expect(() => parseSpecBundle("{")).toThrow(SpecBundleError);
    expect(() => parseSpecBundle(JSON.stringify({ format: 99 }))).toThrow(
      "Spec bundle: format 99, expected 1; run npm run spec:bundle",
    );
    const dangling = { format: 1, operations: [], events: { "m.x": { $ref: "#/defs/nope" } }, defs: {} };
    expect(() => parseSpecBundle(JSON.stringify(dangling))).toThrow("Spec bundle: bad reference #/defs/nope");
    expect(() => loadSpecBundle("/nonexistent/spec-bundle.json")).toThrow(SpecBundleError);
  });
});

describe("locating the definitions (for the generator)", () => {
  it.skipIf(dataDir === undefined)("honours LATTICE_MATRIX_SPEC", () => {
    expect(findSpecDataDir({ LATTICE_MATRIX_SPEC: dataDir })).toBe(dataDir);
    expect(findSpecDataDir({ LATTICE_MATRIX_SPEC: `${dataDir}/..` })).toBe(dataDir);
  });

  it("fails clearly on a wrong folder", () => {
    expect(() => findSpecDataDir({ LATTICE_MATRIX_SPEC: "/nonexistent" })).toThrow(SpecNotFoundError);
  });
});
