/**
 * Untrusted answers, with fast-check: whatever JSON the server sends, the
 * readers of /members, left-room syncs and /events never throw and keep
 * only well-formed items, and the sync transport either returns an answer
 * with a string next_batch or rejects with a ResponseFormatError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResponseFormatError } from "../../../src/http/errors";
import type { HttpApi } from "../../../src/http/types";
import { leftRoomsOf } from "../../../src/sync/left-rooms";
import { memberEvents } from "../../../src/sync/members";
import { readPeekAnswer } from "../../../src/sync/peeking";
import { HttpSyncTransport } from "../../../src/sync/transport";

const hostileKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "!r:x", "next_batch");
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.string(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileKey, fc.string()), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Hostile JSON goes through JSON.parse, as it would off the wire (so "__proto__" is an own key). */
const wire = json.map((v) => JSON.parse(JSON.stringify(v) ?? "null") as unknown);

describe("untrusted answers", () => {
  it("memberEvents keeps only member events with a string state_key and object content", () => {
    fc.assert(
      fc.property(fc.array(wire, { maxLength: 6 }), (chunk) => {
        const out = memberEvents({ chunk }, "!r:x");
        for (const e of out) {
          expect(e["type"]).toBe("m.room.member");
          expect(typeof e["state_key"]).toBe("string");
          expect(e["room_id"]).toBe("!r:x");
        }
        expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      }),
    );
  });

  it("leftRoomsOf and readPeekAnswer never throw", () => {
    fc.assert(
      fc.property(wire, (value) => {
        for (const room of leftRoomsOf({ rooms: { leave: value } }).values())
          expect(typeof room).toBe("object");
        leftRoomsOf(value);
        const answer = readPeekAnswer(value, "!r:x");
        expect(Array.isArray(answer.events)).toBe(true);
        readPeekAnswer({ chunk: value, end: value }, "!r:x");
      }),
    );
  });

  it("the transport returns a usable answer or rejects with a ResponseFormatError", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          wire,
          json.map((v) => ({ next_batch: "s1", rooms: v })),
        ),
        async (body) => {
          const http: HttpApi = { request: <T>() => Promise.resolve(body as T) };
          const transport = new HttpSyncTransport({ http, stateAfter: "none" });
          try {
            const response = await transport.sync({
              timeout: 0,
              requestTimeoutMs: 1_000,
              signal: new AbortController().signal,
            });
            expect(typeof response.next_batch).toBe("string");
          } catch (error) {
            expect(error).toBeInstanceOf(ResponseFormatError);
          }
        },
      ),
    );
  });
});
