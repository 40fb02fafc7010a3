/**
 * The operation index: every (method, path template) of the client-server and
 * identity definitions, with the prefix each file's `servers` declares
 * ({basePath} default), and matching of a concrete request path to the most
 * specific template. A {param} matches exactly one segment (possibly empty,
 * for the empty state key, whose segment may also be left out); literal
 * segments beat parameters, so
 * /rooms/{roomId}/state wins over /rooms/{roomId}/{anything}.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { RefResolver } from "./deref";

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** One documented operation. */
export interface Operation {
  /** Upper-case HTTP method. */
  method: string;
  /** Full path template with prefix, e.g. /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}. */
  template: string;
  operationId: string;
  /** The definition file, relative to data/api. */
  file: string;
  /** Dereferenced operation object, path-level parameters merged in. */
  spec: Record<string, unknown>;
  /** Template split into segments (without the leading empty one). */
  segments: string[];
}

/** A concrete request matched to an operation. */
export interface OperationMatch {
  operation: Operation;
  /** Decoded path parameters. */
  params: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The URL prefix a definition file declares through servers[0]. */
function basePathOf(doc: Record<string, unknown>): string {
  const server = Array.isArray(doc["servers"]) ? (doc["servers"][0] as unknown) : undefined;
  if (!isRecord(server) || typeof server["url"] !== "string") return "";
  const variables = isRecord(server["variables"]) ? server["variables"] : {};
  const url = server["url"].replace(/\{(\w+)\}/g, (_m, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable["default"] === "string" ? variable["default"] : "";
  });
  // Drop scheme and host: only the path part is a prefix.
  const match = /^[a-z]+:\/\/[^/]*(\/.*)?$/i.exec(url);
  return (match ? (match[1] ?? "") : url).replace(/\/+$/, "");
}

function isParam(segment: string): boolean {
  return /^\{[^}]+\}$/.test(segment);
}

/** Loads every operation of data/api/{client-server,identity}. */
export function loadOperations(resolver: RefResolver, dataDir: string): Operation[] {
  const out: Operation[] = [];
  for (const api of ["client-server", "identity"]) {
    const dir = join(dataDir, "api", api);
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".yaml")) continue;
      const file = join(dir, name);
      const doc = resolver.load(file);
      if (!isRecord(doc) || !isRecord(doc["paths"])) continue;
      const base = basePathOf(doc);
      for (const [path, rawItem] of Object.entries(doc["paths"])) {
        if (!isRecord(rawItem)) continue;
        const pointer = `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        const item = resolver.derefAt(file, pointer) as Record<string, unknown>;
        const shared = Array.isArray(item["parameters"]) ? (item["parameters"] as unknown[]) : [];
        for (const method of HTTP_METHODS) {
          const op = item[method];
          if (!isRecord(op)) continue;
          const own = Array.isArray(op["parameters"]) ? (op["parameters"] as unknown[]) : [];
          // Some keys carry a trailing space to tell apart two definitions of one path.
          const template = `${base}${path.trim()}`;
          out.push({
            method: method.toUpperCase(),
            template,
            operationId: typeof op["operationId"] === "string" ? op["operationId"] : `${method} ${template}`,
            file: `${api}/${name}`,
            spec: { ...op, parameters: [...shared, ...own] },
            segments: template.split("/").slice(1),
          });
        }
      }
    }
  }
  return out;
}

/** Matches `segments` (already split, still encoded) against a template; null when it does not fit. */
export function matchTemplate(template: string[], segments: string[]): Record<string, string> | null {
  if (template.length !== segments.length) return null;
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < template.length; i++) {
    const t = template[i] ?? "";
    const s = segments[i] ?? "";
    if (isParam(t)) {
      try {
        params[t.slice(1, -1)] = decodeURIComponent(s);
      } catch {
        return null;
      }
    } else if (t !== s && t !== safeDecode(s)) {
      return null;
    }
  }
  return params;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Ranks a template: literal segments early count most, so the most specific template wins. */
function specificity(template: string[]): number {
  return template.reduce((score, seg, i) => score + (isParam(seg) ? 0 : 2 ** (32 - Math.min(i, 31))), 0);
}

/** An index answering "which operation is this request?". */
export class OperationIndex {
  private readonly byMethod = new Map<string, Operation[]>();

  constructor(readonly operations: readonly Operation[]) {
    for (const op of operations) {
      const list = this.byMethod.get(op.method) ?? [];
      list.push(op);
      this.byMethod.set(op.method, list);
    }
    for (const list of this.byMethod.values())
      list.sort((a, b) => specificity(b.segments) - specificity(a.segments));
  }

  /**
   * Every operation documented for the matched template: some paths are
   * defined twice (POST /rooms/{roomId}/invite for users and for 3pids,
   * GET /events for sync and for peeking), and a request may fit either.
   */
  findAll(method: string, path: string): OperationMatch[] {
    const first = this.find(method, path);
    if (!first) return [];
    const same = (this.byMethod.get(first.operation.method) ?? []).filter(
      (op) => op !== first.operation && op.template === first.operation.template,
    );
    return [first, ...same.map((operation) => ({ operation, params: first.params }))];
  }

  /** The operation for `method` and concrete `path` (no query), or undefined. */
  find(method: string, path: string): OperationMatch | undefined {
    const segments = path.split("?", 1)[0]?.split("/").slice(1) ?? [];
    const candidates = this.byMethod.get(method.toUpperCase()) ?? [];
    for (const operation of candidates) {
      const params = matchTemplate(operation.segments, segments);
      if (params) return { operation, params };
    }
    // The state endpoints document only /state/{eventType}/{stateKey}; the
    // empty state key may also be sent by leaving the last segment out.
    for (const operation of candidates) {
      if (operation.segments.at(-1) !== "{stateKey}") continue;
      const params = matchTemplate(operation.segments, [...segments, ""]);
      if (params) return { operation, params };
    }
    return undefined;
  }
}
