/**
 * Property tests: the pure rules never throw on arbitrary JSON, whatever the
 * server sends, and keep their algebraic promises (redaction is idempotent
 * and only ever removes keys; setUserLevel never mutates its input).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { parseDirect } from "../../src/models/direct";
import { PowerLevels } from "../../src/models/power-levels";
import { evaluatePushRules } from "../../src/models/push-rules";
import { redactEvent } from "../../src/models/redaction";
import { aggregateReactions, applyEdits, relationOf } from "../../src/models/relations";
import { stripReplyFallback } from "../../src/models/replies";
import { roomName } from "../../src/models/room-name";
import { roomVersionRules } from "../../src/models/room-versions";

const json = fc.jsonValue({ maxDepth: 4 });
const version = fc.constantFrom("1", "5", "6", "8", "9", "10", "11", "12", "org.matrix.hydra.11", "x");
const eventType = fc.constantFrom(
  "m.room.member",
  "m.room.create",
  "m.room.join_rules",
  "m.room.power_levels",
  "m.room.aliases",
  "m.room.history_visibility",
  "m.room.redaction",
  "m.room.message",
);
const event = fc.record({
  event_id: fc.string(),
  type: eventType,
  sender: fc.string(),
  origin_server_ts: fc.integer(),
  content: fc.dictionary(fc.string(), json),
  unsigned: fc.option(fc.dictionary(fc.string(), json), { nil: undefined }),
  extra: json,
}) as unknown as fc.Arbitrary<ClientEventWithoutRoomId>;

const redaction: ClientEventWithoutRoomId = {
  event_id: "$r",
  type: "m.room.redaction",
  sender: "@m:hs",
  origin_server_ts: 1,
  content: {},
};

describe("pure rules on hostile JSON", () => {
  it("redaction is idempotent and only removes content keys", () => {
    fc.assert(
      fc.property(event, version, (e, v) => {
        const rules = roomVersionRules(v);
        const once = redactEvent(e, redaction, rules);
        expect(redactEvent(once, redaction, rules)).toEqual(once);
        for (const key of Object.keys(once.content)) expect(Object.keys(e.content)).toContain(key);
      }),
    );
  });

  it("PowerLevels never throws and setUserLevel never mutates", () => {
    fc.assert(
      fc.property(json, json, version, (content, create, v) => {
        const frozen = JSON.stringify(content);
        const pl = PowerLevels.from({ content, createEvent: create, roomVersion: v });
        pl.userLevel("@a:hs");
        pl.canRedact("@a:hs", "@b:hs");
        pl.canNotifyRoom("@a:hs");
        try {
          pl.setUserLevel("@a:hs", "@b:hs", 0);
        } catch {
          // refusals are expected; crashes are not
        }
        expect(JSON.stringify(content)).toBe(frozen);
      }),
    );
  });

  it("push rule evaluation never throws", () => {
    fc.assert(
      fc.property(json, json, fc.integer({ min: 0, max: 100 }), (ev, rules, count) => {
        const out = evaluatePushRules(ev, rules, { userId: "@me:hs", displayName: "Me", memberCount: count });
        expect(typeof out.notify).toBe("boolean");
      }),
    );
  });

  it("relations, replies, names and m.direct never throw", () => {
    fc.assert(
      fc.property(event, fc.array(event, { maxLength: 5 }), json, (e, others, summary) => {
        relationOf(e);
        applyEdits(e, others);
        aggregateReactions(e.event_id, others);
        stripReplyFallback(e.content);
        roomName({ userId: "@me:hs", summary, nameContent: summary, canonicalAliasContent: summary });
        parseDirect(summary);
      }),
    );
  });
});
