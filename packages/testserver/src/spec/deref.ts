/**
 * Loads the YAML definitions and inlines every $ref, across files
 * (`definitions/x.yaml`, `../client-server/...`) and within them
 * (`#/components/...`, `file.yaml#/a/b`). The result is plain JSON that ajv
 * compiles without knowing any file names. A reference cycle is cut with an
 * accept-anything schema, so recursive definitions cannot hang the compiler.
 * A reference to a file missing from the local copy (the application-service
 * definitions are not shipped) also becomes accept-anything, and is listed in
 * `missing` so a report can say so.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";
import { SpecBundleError } from "./bundle";

type Json = unknown;

/** Keys that carry sample values, not schema: dropped to keep compiled schemas small. */
const DROPPED_KEYS = new Set(["example", "examples", "$schema"]);
/** Sibling keys of a $ref that only annotate, so the target can be used as is. */
const ANNOTATIONS = new Set(["description", "title", "summary", "deprecated"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unescapePointer(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Loads files on demand and resolves references, caching both. */
export class RefResolver {
  private readonly files = new Map<string, Json>();
  private readonly resolved = new Map<string, Json>();
  private readonly inProgress = new Set<string>();
  /** Referenced files that do not exist locally. */
  readonly missing = new Set<string>();

  /** The parsed YAML of `file` (absolute path). */
  load(file: string): Json {
    let doc = this.files.get(file);
    if (doc === undefined) {
      doc = parse(readFileSync(file, "utf8")) as Json;
      this.files.set(file, doc);
    }
    return doc;
  }

  /** The node at JSON pointer `pointer` ("" or "/a/b") in `file`. */
  private at(file: string, pointer: string): Json {
    let node = this.load(file);
    for (const token of pointer.split("/").slice(1)) {
      const key = unescapePointer(token);
      if (Array.isArray(node)) node = node[Number(key)];
      else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
      else throw new SpecBundleError(`Unresolvable $ref: ${file}#${pointer}`);
    }
    return node;
  }

  /** `node` (found in `file`) with every $ref inlined. */
  deref(node: Json, file: string): Json {
    if (Array.isArray(node)) return node.map((item) => this.deref(item, file));
    if (!isRecord(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string") return this.follow(ref, node, file);
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED_KEYS.has(key)) continue;
      out[key] = this.deref(value, file);
    }
    return out;
  }

  /** Everything in `file` at `pointer`, dereferenced. */
  derefAt(file: string, pointer = ""): Json {
    return this.follow(`#${pointer}`, { $ref: `#${pointer}` }, file);
  }

  private follow(ref: string, node: Record<string, Json>, file: string): Json {
    const [path = "", pointer = ""] = ref.split("#", 2);
    const target = path === "" ? file : resolve(dirname(file), path);
    if (!existsSync(target)) {
      this.missing.add(target);
      return {};
    }
    const key = `${target}#${pointer}`;
    let value = this.resolved.get(key);
    if (value === undefined) {
      if (this.inProgress.has(key)) return {};
      this.inProgress.add(key);
      try {
        value = this.deref(this.at(target, pointer), target);
      } finally {
        this.inProgress.delete(key);
      }
      this.resolved.set(key, value);
    }
    const siblings = Object.entries(node).filter(([k]) => k !== "$ref" && !DROPPED_KEYS.has(k));
    if (siblings.every(([k]) => ANNOTATIONS.has(k) || k.startsWith("x-"))) return value;
    // Real constraints beside a $ref apply together with the target.
    const rest: Record<string, Json> = {};
    for (const [k, v] of siblings) rest[k] = this.deref(v, file);
    return { allOf: [value], ...rest };
  }
}
