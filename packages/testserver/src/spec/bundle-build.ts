/**
 * Builds the spec bundle (spec-bundle.json) from the official definitions
 * (../shared/matrix-spec/data): every operation of the client-server and
 * identity APIs and every event schema, with each $ref inlined (deref.ts),
 * then reduced to structure: descriptions, summaries, titles, examples,
 * tags, external docs, deprecation notes and x-* fields are annotations no
 * validator reads, so they go. Subtrees that occur more than once (the
 * event schemas inside /sync, /messages, /context...) are stored once under
 * `defs` and referenced as {"$ref": "#/defs/<hash>"}. The text is
 * deterministic: object keys sorted, arrays in their source order, a
 * trailing newline, so regenerating from the same definitions gives the
 * same bytes (the "bundle is current" test relies on it).
 *
 * Run through `npm run spec:bundle` (scripts/spec-bundle.mjs). Not used at
 * test time: the validators read the committed bundle (bundle.ts).
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { SPEC_BUNDLE_FORMAT, SpecBundleError } from "./bundle";
import type { BundledOperation, SpecBundleFile } from "./bundle";
import { RefResolver } from "./deref";
import { loadOperations } from "./operations";

type Json = unknown;

/** Keywords that only annotate (JSON Schema annotations, OpenAPI documentation fields). */
const ANNOTATIONS = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "tags",
  "deprecated",
  "$comment",
]);

/** Keywords whose value maps names (property names, status codes, media types) to schemas: the names stay. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "responses",
  "content",
  "headers",
  "encoding",
  "variables",
]);

/** Keywords whose value is data (allowed or default values), copied as it is. */
const DATA = new Set(["enum", "const", "default"]);

/** A subtree is stored once in `defs` when it occurs at least twice and its JSON is at least this long. */
const MIN_SHARED_LENGTH = 120;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `node` without annotations; `names` says its keys are names (of properties, statuses...), not keywords. */
export function stripAnnotations(node: Json, names = false): Json {
  if (Array.isArray(node)) return node.map((item) => stripAnnotations(item));
  if (!isRecord(node)) return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (names) {
      out[key] = stripAnnotations(value);
    } else if (ANNOTATIONS.has(key) || key.startsWith("x-")) {
      continue;
    } else if (DATA.has(key)) {
      out[key] = value;
    } else {
      out[key] = stripAnnotations(value, NAME_MAPS.has(key) && isRecord(value));
    }
  }
  return out;
}

/** JSON text with object keys sorted (the canonical form hashes and the file use). */
function canonical(node: Json): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(",")}]`;
  if (!isRecord(node)) return JSON.stringify(node);
  const keys = Object.keys(node).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(node[k])}`).join(",")}}`;
}

/**
 * Replaces repeated subtrees by references into `defs`, which it fills. A
 * subtree counts once per place it has in the shared result: the copies
 * inside a repeated parent are one place, since the parent is stored once.
 */
class Deduplicator {
  readonly defs: Record<string, Json> = {};
  private readonly texts = new WeakMap<object, string>();
  private readonly places = new Map<string, number>();
  private readonly names = new Map<string, string>();

  /** Canonical JSON of `node`, remembered per object. */
  private text(node: Json): string {
    if (Array.isArray(node)) return `[${node.map((n) => this.text(n)).join(",")}]`;
    if (!isRecord(node)) return JSON.stringify(node);
    let text = this.texts.get(node);
    if (text === undefined) {
      const keys = Object.keys(node).sort();
      text = `{${keys.map((k) => `${JSON.stringify(k)}:${this.text(node[k])}`).join(",")}}`;
      this.texts.set(node, text);
    }
    return text;
  }

  /** First pass: counts the places of every object subtree, descending into each distinct one once. */
  count(node: Json): void {
    if (Array.isArray(node)) {
      for (const n of node) this.count(n);
      return;
    }
    if (!isRecord(node)) return;
    const text = this.text(node);
    const seen = this.places.get(text) ?? 0;
    this.places.set(text, seen + 1);
    if (seen === 0) for (const value of Object.values(node)) this.count(value);
  }

  /** Second pass: `node` with shared subtrees replaced by references. */
  share(node: Json): Json {
    if (Array.isArray(node)) return node.map((n) => this.share(n));
    if (!isRecord(node)) return node;
    const text = this.text(node);
    if (text.length >= MIN_SHARED_LENGTH && (this.places.get(text) ?? 0) > 1) {
      return { $ref: `#/defs/${this.define(text, node)}` };
    }
    return this.shareChildren(node);
  }

  private shareChildren(node: Record<string, Json>): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(node)) out[key] = this.share(value);
    return out;
  }

  private define(text: string, node: Record<string, Json>): string {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    const name = createHash("sha256").update(text).digest("hex").slice(0, 16);
    if (Object.hasOwn(this.defs, name)) throw new SpecBundleError(`Spec bundle: hash collision on ${name}`);
    this.names.set(text, name);
    this.defs[name] = this.shareChildren(node);
    return name;
  }
}

/** Every event schema of data/event-schemas/schema, by file name without .yaml, dereferenced and stripped. */
function loadEventSchemas(dataDir: string, resolver: RefResolver): Record<string, Json> {
  const dir = join(dataDir, "event-schemas", "schema");
  const events: Record<string, Json> = {};
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".yaml")) continue;
    events[name.slice(0, -".yaml".length)] = stripAnnotations(resolver.derefAt(join(dir, name)));
  }
  return events;
}

/** The bundle of the definitions in `dataDir` (the matrix-spec data folder). */
export function buildSpecBundle(dataDir: string): SpecBundleFile {
  const resolver = new RefResolver();
  const operations: BundledOperation[] = loadOperations(resolver, dataDir).map((op) => ({
    method: op.method,
    template: op.template,
    operationId: op.operationId,
    file: op.file,
    spec: stripAnnotations(op.spec) as Record<string, unknown>,
  }));
  const events = loadEventSchemas(dataDir, resolver);
  const dedup = new Deduplicator();
  dedup.count(operations);
  dedup.count(events);
  const shared = { operations: dedup.share(operations), events: dedup.share(events) };
  return {
    format: SPEC_BUNDLE_FORMAT,
    source:
      "Generated by `npm run spec:bundle` from the Matrix specification's definitions " +
      "(github.com/matrix-org/matrix-spec, data/api and data/event-schemas; Apache License 2.0). Do not edit.",
    missing: [...resolver.missing].map((file) => relative(dataDir, file)).sort(),
    operations: shared.operations as BundledOperation[],
    events: shared.events as Record<string, Json>,
    defs: dedup.defs,
  };
}

/** The bundle as file text: keys sorted, one-space indentation, a trailing newline. */
export function serializeSpecBundle(bundle: SpecBundleFile): string {
  return `${JSON.stringify(JSON.parse(canonical(bundle)), null, 1)}\n`;
}
