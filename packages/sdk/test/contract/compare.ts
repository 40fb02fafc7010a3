/**
 * Compares what the SDK sent with what a contract case expects: method,
 * path, query (each value as a string; unlisted parameters are errors) and
 * JSON body (deep equality). Returns readable differences; empty = match.
 */
import { isDeepStrictEqual } from "node:util";
import type { ContractCase } from "./types";

/** The request as the loopback server received it. */
export interface ReceivedRequest {
  method: string;
  /** Path as sent, still encoded, without the query. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  /** The Authorization header, if sent. */
  authorization: string | undefined;
  /** Parsed JSON body, or undefined when there was none or it was raw. */
  body: unknown;
  /** The raw body bytes. */
  raw: Buffer;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Differences between `req` and `expected` (empty when they match). */
export function compareRequest(req: ReceivedRequest, expected: ContractCase["expect"]): string[] {
  const errors: string[] = [];
  if (req.method !== expected.method) errors.push(`method: expected ${expected.method}, got ${req.method}`);
  if (req.path !== expected.path) errors.push(`path: expected ${expected.path}, got ${req.path}`);
  const wanted = expected.query ?? {};
  for (const [name, value] of Object.entries(wanted)) {
    const got = req.query.getAll(name);
    const want = typeof value === "string" ? [value] : value;
    if (!isDeepStrictEqual(got, want)) {
      errors.push(
        `query ${name}: expected ${show(typeof value === "string" ? value : want)}, got ${got.length ? show(got.length === 1 ? got[0] : got) : "nothing"}`,
      );
    }
  }
  for (const name of new Set(req.query.keys())) {
    if (!Object.hasOwn(wanted, name))
      errors.push(`query ${name}: not expected, got ${show(req.query.getAll(name))}`);
  }
  if (expected.body !== undefined && !isDeepStrictEqual(req.body, expected.body)) {
    errors.push(
      `body: expected ${show(expected.body)}, got ${req.body === undefined ? "no JSON body" : show(req.body)}`,
    );
  }
  return errors;
}
