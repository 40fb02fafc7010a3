/**
 * Validates events against the event schemas of the official definitions
 * as the spec bundle holds them (data/event-schemas/schema, one schema per
 * type; m.room.message also has one per msgtype, named
 * m.room.message$<msgtype>, used when present). Compiled validators come
 * from the disk cache of compiled.ts when they can.
 */
import { createAjv, formatErrors } from "./ajv";
import type { ValidateFunction } from "./ajv";
import { loadSpecBundle } from "./bundle";
import type { SpecBundle } from "./bundle";
import { CompiledSchemaCache } from "./compiled";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates whole events (type, content, ids) by event type. */
export class EventValidator {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction | null>();

  private readonly onDisk = new CompiledSchemaCache(this.ajv);

  constructor(private readonly bundle: SpecBundle = loadSpecBundle()) {}

  /** The schema's name for an event, or undefined when the spec defines none. */
  private schemaName(event: Record<string, unknown>): string | undefined {
    const type = event["type"];
    if (typeof type !== "string" || !/^[\w.-]+$/.test(type)) return undefined;
    const content = event["content"];
    const msgtype = isRecord(content) ? content["msgtype"] : undefined;
    if (typeof msgtype === "string" && /^[\w.-]+$/.test(msgtype)) {
      const variant = `${type}$${msgtype}`;
      if (this.bundle.events.has(variant)) return variant;
    }
    return this.bundle.events.has(type) ? type : undefined;
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
      const schema = this.bundle.events.get(name) ?? {};
      // Keyed by name and the bundle's digest, so a hit skips serialising the schema too.
      validate = this.onDisk.compileKeyed(`event ${name} ${this.bundle.key}`, () => schema);
      this.compiled.set(name, validate);
    }
    if (validate === null || validate(event)) return [];
    return formatErrors(`event ${name}`, validate.errors);
  }
}
