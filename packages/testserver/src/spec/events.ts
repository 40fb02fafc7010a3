/**
 * Validates events against the event schemas of the official definitions
 * (data/event-schemas/schema, one file per type; m.room.message also has
 * one file per msgtype, named m.room.message$<msgtype>, used when present).
 * Compiled validators come from the disk cache of compiled.ts when they can.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createAjv, formatErrors } from "./ajv";
import type { ValidateFunction } from "./ajv";
import { specCacheKey } from "./cache";
import { CompiledSchemaCache } from "./compiled";
import { RefResolver } from "./deref";
import { findSpecDataDir } from "./locate";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates whole events (type, content, ids) by event type. */
export class EventValidator {
  private readonly dir: string;
  private readonly resolver = new RefResolver();
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction | null>();

  private readonly onDisk = new CompiledSchemaCache(this.ajv);
  private readonly specKey: string | undefined;

  constructor(dataDir: string = findSpecDataDir()) {
    this.dir = join(dataDir, "event-schemas", "schema");
    this.specKey = specCacheKey(dataDir);
  }

  /** The schema file name for an event, or undefined when the spec defines none. */
  private schemaName(event: Record<string, unknown>): string | undefined {
    const type = event["type"];
    if (typeof type !== "string" || !/^[\w.-]+$/.test(type)) return undefined;
    const content = event["content"];
    const msgtype = isRecord(content) ? content["msgtype"] : undefined;
    if (typeof msgtype === "string" && /^[\w.-]+$/.test(msgtype)) {
      const variant = `${type}$${msgtype}`;
      if (existsSync(join(this.dir, `${variant}.yaml`))) return variant;
    }
    return existsSync(join(this.dir, `${type}.yaml`)) ? type : undefined;
  }

  /** True when the spec has a schema for this event type. */
  has(type: string): boolean {
    return this.schemaName({ type }) !== undefined;
  }

  /**
   * Readable errors for `event` (empty = valid). Unknown types are not errors
   * (custom events are allowed); a non-object is.
   */
  validate(event: unknown): string[] {
    if (!isRecord(event)) return ["event must be an object"];
    const name = this.schemaName(event);
    if (name === undefined) return [];
    let validate = this.compiled.get(name);
    if (validate === undefined) {
      const make = (): object => this.resolver.derefAt(join(this.dir, `${name}.yaml`)) as object;
      // Keyed by name and the definitions' fingerprint, so a hit skips reading the YAML too.
      validate =
        this.specKey === undefined
          ? this.onDisk.compile(make())
          : this.onDisk.compileKeyed(`event ${name} ${this.specKey}`, make);
      this.compiled.set(name, validate);
    }
    if (validate === null || validate(event)) return [];
    return formatErrors(`event ${name}`, validate.errors);
  }
}
