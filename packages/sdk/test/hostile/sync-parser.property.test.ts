/**
 * Properties of the sync parser (parseSyncResponse) on hostile answers.
 * Each states an outcome: the answer is rejected with this error and
 * message, or an item is accepted unchanged, or it is dropped with this log
 * line. Seeded (seed.ts); 4,000 cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSyncResponse } from "../../src/sync/validate/parseSync";
import { seeded } from "./seed";

/** A logger that keeps its lines. */
function lines() {
  const out: string[] = [];
  const log = (message: string) => void out.push(message);
  return { out, logger: { info: log, warn: log, error: log, debug: log } };
}

/** What a query string does to a token on its way back to the server. */
function roundTrip(token: string): string | null {
  return new URLSearchParams(new URLSearchParams({ since: token }).toString()).get("since");
}

/** The outcome of parsing, as data: the parsed value or the error's class and message. */
function outcome<T>(fn: () => T): { ok: T } | { error: string; message: string } {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: (e as Error).name, message: (e as Error).message };
  }
}

/** Any string, lone surrogates included (JSON can carry them). */
const anyString = fc.string({ unit: "binary", maxLength: 40 });
const surrogateHeavy = fc
  .array(fc.constantFrom("a", "\uD800", "\uDC00", "\uD83D\uDE00", "%", " ", "+", "&", "="), { maxLength: 8 })
  .map((parts) => parts.join(""));
const token = fc.oneof(anyString, surrogateHeavy);

describe("next_batch and prev_batch", () => {
  it("next_batch is accepted unchanged iff it survives a query-string round trip; else a protocol error", () => {
    fc.assert(
      fc.property(token, (t) => {
        const result = outcome(() => parseSyncResponse({ next_batch: t }, lines()).nextBatch);
        if (t === "") {
          expect(result).toEqual({
            error: "SyncParseError",
            message: "Invalid sync response: missing next_batch",
          });
        } else if (roundTrip(t) === t) {
          expect(result).toEqual({ ok: t });
        } else {
          expect(result).toEqual({
            error: "SyncProtocolError",
            message: "Invalid sync response: next_batch does not survive a round trip",
          });
        }
      }),
      seeded(1500),
    );
  });

  it("prev_batch is kept unchanged iff it survives a round trip; else dropped with a log line", () => {
    fc.assert(
      fc.property(
        token.filter((t) => t !== ""),
        (t) => {
          const { out, logger } = lines();
          const parsed = parseSyncResponse(
            { next_batch: "s", rooms: { join: { "!r:x": { timeline: { events: [], prev_batch: t } } } } },
            { logger },
          );
          const prev = parsed.rooms.join.get("!r:x")?.timeline.prevBatch;
          if (roundTrip(t) === t) {
            expect(prev).toBe(t);
            expect(out).toEqual([]);
          } else {
            expect(prev).toBeUndefined();
            expect(out).toEqual(["Sync: dropped prev_batch of !r:x: not a token that survives a round trip"]);
          }
        },
      ),
      seeded(500),
    );
  });

  it("an answer that is not an object, or whose next_batch is not a string, is rejected as unusable", () => {
    const notObject = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.string(),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
    );
    const badToken = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.integer(),
      fc.boolean(),
      fc.constant(""),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          notObject.map((v) => ({ body: v, why: "not an object" })),
          badToken.map((v) => ({ body: { next_batch: v }, why: "missing next_batch" })),
        ),
        ({ body, why }) => {
          const result = outcome(() => parseSyncResponse(body, lines()));
          expect(result).toEqual({ error: "SyncParseError", message: `Invalid sync response: ${why}` });
        },
      ),
      seeded(500),
    );
  });
});

/** A JSON scalar or a small array/object of scalars: cheap to generate, enough to compare. */
const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const contentValue = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
);

/** A well-formed timeline event without its id (ids are given by position, so they are unique). */
const goodEvent = fc.record(
  {
    type: fc.string({ minLength: 1, maxLength: 30 }),
    sender: fc.string({ maxLength: 20 }).map((s) => `@${s}:x`),
    origin_server_ts: fc.integer({ min: 0 }),
    content: fc.dictionary(fc.string({ maxLength: 10 }), contentValue, { maxKeys: 4 }),
    state_key: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: ["type", "sender", "origin_server_ts", "content"] },
);

const deep = (() => {
  let v: unknown = {};
  for (let d = 0; d < 40; d++) v = { d: v };
  return v;
})();

/** One way to break an event, and the reason the parser must give. */
const breakage = fc.constantFrom<[string, (e: Record<string, unknown>) => unknown]>(
  ["not an object", () => null],
  ["not an object", () => ["m.room.message"]],
  ["missing or invalid event_id", (e) => ({ ...e, event_id: 7 })],
  ["missing or invalid event_id", (e) => ({ ...e, event_id: "no-sigil" })],
  ["missing or invalid event_id", (e) => ({ ...e, event_id: `$${"x".repeat(300)}` })],
  ["missing or invalid type", (e) => ({ ...e, type: "" })],
  ["missing or invalid type", (e) => ({ ...e, type: "t".repeat(256) })],
  ["missing or invalid sender", (e) => ({ ...e, sender: "alice" })],
  ["missing or invalid sender", (e) => ({ ...e, sender: null })],
  ["missing or invalid origin_server_ts", (e) => ({ ...e, origin_server_ts: "1" })],
  ["content is not an object", (e) => ({ ...e, content: [] })],
  ["content is not an object", (e) => ({ ...e, content: "x" })],
  ["invalid state_key", (e) => ({ ...e, state_key: 5 })],
  ["content has nesting deeper than 32", (e) => ({ ...e, content: { x: deep } })],
);

describe("timeline events", () => {
  it("keeps every well-formed event unchanged and in order, and drops each broken one with its reason", () => {
    const plan = fc.array(fc.tuple(fc.option(breakage, { freq: 3, nil: undefined }), goodEvent), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(plan, (entries) => {
        const p = entries.map(([broken]) => broken);
        const raw = entries.map(([broken, e], i) => {
          const event = { event_id: `$e${i}`, ...e };
          return broken === undefined ? event : broken[1](event);
        });
        // Through JSON text, as a server's answer arrives; the expectation is the same text's good events.
        const text = JSON.stringify({
          next_batch: "s",
          rooms: { join: { "!r:x": { timeline: { events: raw } } } },
        });
        const { out, logger } = lines();
        const parsed = parseSyncResponse(JSON.parse(text), { logger });
        const kept = JSON.stringify(parsed.rooms.join.get("!r:x")?.timeline.events);
        const expected = JSON.stringify(
          (
            JSON.parse(text) as { rooms: { join: { "!r:x": { timeline: { events: unknown[] } } } } }
          ).rooms.join["!r:x"].timeline.events.filter((_, i) => p[i] === undefined),
        );
        const reasons = p.filter((b) => b !== undefined).map((b) => b[0]);
        const linesOk =
          out.length === reasons.length &&
          out.every(
            (line, i) =>
              line.startsWith("Sync: dropped event in !r:x timeline") &&
              line.endsWith(`: ${reasons[i] ?? ""}`),
          );
        // Plain comparisons (expect per case costs more than the parse); the failure shows both sides.
        if (kept !== expected || !linesOk) {
          expect({ kept, lines: out }).toEqual({ kept: expected, lines: reasons });
        }
      }),
      seeded(1500),
    );
  });
});
