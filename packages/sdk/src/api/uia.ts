/**
 * Reading the 401 answer of interactive user authentication. Endpoints that
 * take an `auth` dictionary (register, password, deactivate, 3pid add,
 * device deletion, get_token, cross-signing upload) answer 401 with the
 * flows still open; the HTTP layer surfaces that as a MatrixError whose data
 * is the untrusted JSON body. This narrows it to a well-formed AuthResponse,
 * dropping whatever does not fit, so the auth layer never trusts raw JSON.
 */
import { MatrixError } from "../http/errors";
import type { AuthFlow, AuthResponse } from "./types/auth";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const out = value.filter((v): v is string => typeof v === "string");
  return out.length === value.length ? out : null;
}

/**
 * Narrows an untrusted JSON body to an AuthResponse: null unless it has a
 * `flows` array. Malformed flows are dropped; params keep only object
 * entries, in a prototype-free record (stage names are data, not keys).
 */
export function parseAuthResponse(data: unknown): AuthResponse | null {
  if (!isRecord(data) || !Array.isArray(data["flows"])) return null;
  const flows: AuthFlow[] = [];
  for (const flow of data["flows"]) {
    const stages = isRecord(flow) ? stringArray(flow["stages"]) : null;
    if (stages) flows.push({ stages });
  }
  const out: AuthResponse = { flows };
  const params = data["params"];
  if (isRecord(params)) {
    const clean = Object.create(null) as Record<string, Record<string, unknown>>;
    for (const [stage, value] of Object.entries(params)) {
      if (isRecord(value)) clean[stage] = value;
    }
    out.params = clean;
  }
  if (typeof data["session"] === "string") out.session = data["session"];
  const completed = stringArray(data["completed"]);
  if (completed) out.completed = completed;
  if (typeof data["errcode"] === "string") out.errcode = data["errcode"];
  if (typeof data["error"] === "string") out.error = data["error"];
  return out;
}

/**
 * The interactive-auth state carried by an error, or null when the error is
 * not a 401 answer with flows (a plain failure, a network error, ...).
 */
export function authResponseOf(err: unknown): AuthResponse | null {
  if (!(err instanceof MatrixError) || err.httpStatus !== 401) return null;
  return parseAuthResponse(err.data);
}
