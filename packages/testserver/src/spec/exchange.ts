/**
 * The validator the test homeserver installs on itself in test mode: every
 * response is checked against the official OpenAPI definitions, and every
 * event in it against its event schema where the spec has one.
 *
 * Policy (what is not a mismatch):
 * - a standard Matrix error body on an error status the operation does not
 *   list, or lists without a body (404 on GET filter, 400 on /search, 403
 *   on /messages): every endpoint may answer one, as Synapse does;
 * - paths the spec does not define: unstable MSC paths, Synapse admin,
 *   federation, the legacy r0 aliases, and the server's own helper pages;
 * - redacted events (their content is stripped by design) and stripped
 *   state (no event id) are not checked against event schemas;
 * - events from /sync carry no room_id, which the event schemas require
 *   "everywhere else": they are checked as if it were present;
 * - a send or state PUT with an MSC4140 delay query parameter answers
 *   {delay_id} instead of {event_id}, as MSC4140 says.
 */
import type { HandlerRequest } from "../http/types";
import { EventValidator } from "./events";
import { getSpecValidator } from "./validator";

/** Checks one exchange; returns readable mismatches. Mirrors ExchangeValidator of server.ts. */
export type ResponseValidator = (req: HandlerRequest, status: number, body: unknown) => string[];

const UNDEFINED_IN_SPEC = [
  "/unstable/",
  "/_synapse/",
  "/_matrix/federation/",
  "/_matrix/client/r0/",
  "/_matrix/media/r0/",
  "/_lattice/",
];

const MAX_EVENTS_CHECKED = 2_000;

/** MSC4140's query parameters: with one, the answer is {delay_id}, not the spec's {event_id}. */
const DELAY_PARAMS = ["org.matrix.msc4140.delay", "org.matrix.msc4140.parent_delay_id"];

export function createResponseValidator(options: { events?: boolean } = {}): ResponseValidator {
  const spec = getSpecValidator();
  const events = options.events === false ? undefined : new EventValidator();
  return (req, status, body) => {
    const outside = UNDEFINED_IN_SPEC.some((p) => req.path.includes(p));
    const standardError =
      status >= 400 && typeof (body as { errcode?: unknown } | null)?.errcode === "string";
    const delayed =
      req.method === "PUT" &&
      status < 300 &&
      DELAY_PARAMS.some((p) => req.query.has(p)) &&
      typeof (body as { delay_id?: unknown } | null)?.delay_id === "string";
    const problems = spec
      .validateResponse(
        { method: req.method, path: req.path },
        { status, body, contentType: "application/json" },
        { standardErrors: true },
      )
      .errors.filter(
        (p) =>
          !(outside && p.startsWith("No operation in the Matrix spec")) &&
          !(standardError && p.includes("documents no JSON")) &&
          !(delayed && p.includes("'event_id'")),
      );
    if (events && status < 300) {
      for (const event of collectEvents(body)) {
        for (const problem of events.validate(event))
          problems.push(`${String(event["event_id"])}: ${problem}`);
      }
    }
    return problems;
  };
}

/** Room events found anywhere in a response body (breadth-first, bounded). */
function collectEvents(body: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const queue: unknown[] = [body];
  let visited = 0;
  while (queue.length > 0 && found.length < MAX_EVENTS_CHECKED && visited < 200_000) {
    const node = queue.shift();
    visited += 1;
    if (Array.isArray(node)) {
      queue.push(...(node as unknown[]));
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string, unknown>;
    if (isRoomEvent(record)) {
      const unsigned = record["unsigned"] as Record<string, unknown> | undefined;
      if (!unsigned?.["redacted_because"]) {
        found.push(
          typeof record["room_id"] === "string" ? record : { ...record, room_id: "!sync:localhost" },
        );
      }
    }
    for (const value of Object.values(record))
      if (typeof value === "object" && value !== null) queue.push(value);
  }
  return found;
}

function isRoomEvent(record: Record<string, unknown>): boolean {
  return (
    typeof record["event_id"] === "string" &&
    typeof record["type"] === "string" &&
    typeof record["sender"] === "string" &&
    typeof record["origin_server_ts"] === "number" &&
    typeof record["content"] === "object" &&
    record["content"] !== null
  );
}
