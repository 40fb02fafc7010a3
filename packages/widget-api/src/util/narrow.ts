/**
 * Narrowing helpers for untrusted JSON from the other window. Nothing read
 * from a message is trusted: each field is checked before use.
 */

/** A plain record read from untrusted data. */
export type UnknownRecord = Readonly<Record<string, unknown>>;

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The field as a string, or undefined. Own properties only, so `__proto__` is data. */
export function getString(obj: UnknownRecord, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

/** The field as a finite number, or undefined. */
export function getNumber(obj: UnknownRecord, key: string): number | undefined {
  const v = own(obj, key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The field as a record, or undefined. */
export function getRecord(obj: UnknownRecord, key: string): UnknownRecord | undefined {
  const v = own(obj, key);
  return isRecord(v) ? v : undefined;
}

/** The own property value (never an inherited one). */
export function own(obj: UnknownRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** True when the value is an array of strings. */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
