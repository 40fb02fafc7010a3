/**
 * The sync bench fixture: deterministic for a seed, and shaped like the spec's
 * /sync response (checked against the official OpenAPI definitions and event
 * schemas), with the rooms, relations, receipts and account data the bench
 * promises. Not a timing test; it uses the 100-room size.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EventValidator, getSpecValidator } from "@lattice/testserver/spec";
import type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { SyncResponse } from "@lattice/sdk/api/types/sync";
import { BIG_ROOM_MEMBERS, MEMBERS_PER_ROOM, TIMELINE_PER_ROOM, generateFixture } from "./fixture";
import type { Fixture } from "./fixture";

const fixture = generateFixture({ rooms: 100 });

function digest(f: Fixture): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(f.initial));
  for (const batch of f.batches) hash.update(JSON.stringify(batch));
  hash.update(JSON.stringify(f.threads));
  return hash.digest("hex");
}

function relationOf(event: ClientEventWithoutRoomId): {
  rel_type?: string;
  event_id?: string;
  reply?: string;
} {
  const rel = event.content["m.relates_to"] as
    { rel_type?: string; event_id?: string; "m.in_reply_to"?: { event_id?: string } } | undefined;
  return { rel_type: rel?.rel_type, event_id: rel?.event_id, reply: rel?.["m.in_reply_to"]?.event_id };
}

function joined(
  response: SyncResponse,
): Array<[string, NonNullable<NonNullable<SyncResponse["rooms"]>["join"]>[string]]> {
  return Object.entries(response.rooms?.join ?? {});
}

describe("sync bench fixture", () => {
  it("is the same for the same seed and differs for another", () => {
    expect(digest(generateFixture({ rooms: 100 }))).toBe(digest(fixture));
    expect(digest(generateFixture({ rooms: 100, seed: 2 }))).not.toBe(digest(fixture));
  });

  it("has every joined room with full state, members, a limited timeline, receipts and counts", () => {
    const rooms = joined(fixture.initial);
    expect(rooms).toHaveLength(100);
    expect(fixture.meta.rooms).toBe(100);
    const memberCounts = new Set<number>();
    for (const [, room] of rooms) {
      const state = room.state?.events ?? [];
      expect(state.some((e) => e.type === "m.room.create" && e.state_key === "")).toBe(true);
      expect(state.some((e) => e.type === "m.room.power_levels")).toBe(true);
      const members = state.filter((e) => e.type === "m.room.member" && e.content.membership === "join");
      memberCounts.add(members.length);
      expect(room.summary?.["m.joined_member_count"]).toBe(members.length);
      expect(room.timeline?.events).toHaveLength(TIMELINE_PER_ROOM);
      expect(room.timeline?.limited).toBe(true);
      expect(room.ephemeral?.events?.some((e) => e.type === "m.receipt")).toBe(true);
      expect(typeof room.unread_notifications?.notification_count).toBe("number");
    }
    expect(memberCounts.has(MEMBERS_PER_ROOM)).toBe(true);
    expect(memberCounts.has(BIG_ROOM_MEMBERS)).toBe(true);
    expect(fixture.meta.bigRooms).toBeGreaterThanOrEqual(1);
  });

  it("has replies, edits, reactions and thread replies that point at events of the same room", () => {
    const kinds = new Set<string>();
    for (const [, room] of joined(fixture.initial)) {
      const ids = new Set((room.timeline?.events ?? []).map((e) => e.event_id));
      for (const event of room.timeline?.events ?? []) {
        const { rel_type, event_id, reply } = relationOf(event);
        if (rel_type !== undefined) {
          kinds.add(rel_type);
          expect(ids.has(event_id ?? "")).toBe(true);
        } else if (reply !== undefined) {
          kinds.add("reply");
          expect(ids.has(reply)).toBe(true);
        }
      }
    }
    expect([...kinds].sort()).toEqual(["m.annotation", "m.replace", "m.thread", "reply"]);
    const roots = Object.values(fixture.threads);
    expect(roots.length).toBeGreaterThan(0);
    for (const { root, replies } of roots) {
      expect(replies.length).toBeGreaterThan(0);
      for (const r of replies) expect(relationOf(r).event_id).toBe(root.event_id);
    }
  });

  it("has account data (m.direct naming 2-member rooms, m.push_rules, tags) and invites", () => {
    const account = new Map((fixture.initial.account_data?.events ?? []).map((e) => [e.type, e.content]));
    const direct = account.get("m.direct") as Record<string, string[]> | undefined;
    const join = fixture.initial.rooms?.join ?? {};
    const directIds = Object.values(direct ?? {}).flat();
    expect(directIds.length).toBe(fixture.meta.directRooms);
    for (const id of directIds) expect(join[id]?.summary?.["m.joined_member_count"]).toBe(2);
    expect((account.get("m.push_rules") as { global?: unknown } | undefined)?.global).toBeDefined();
    const tagged = joined(fixture.initial).filter(([, r]) =>
      r.account_data?.events?.some((e) => e.type === "m.tag"),
    );
    expect(tagged.length).toBeGreaterThan(0);
    expect(Object.keys(fixture.initial.rooms?.invite ?? {})).toHaveLength(fixture.meta.invites);
  });

  it("has 200 incremental batches with chained tokens, messages, state changes, receipts and typing", () => {
    expect(fixture.batches).toHaveLength(200);
    expect(fixture.initial.next_batch).toBe("s0");
    fixture.batches.forEach((b, i) => expect(b.next_batch).toBe(`s${i + 1}`));
    expect(fixture.meta.finalToken).toBe("s200");
    const rooms = fixture.batches.flatMap((b) => joined(b).map(([, r]) => r));
    const events = rooms.flatMap((r) => r.timeline?.events ?? []);
    expect(events.filter((e) => e.type === "m.room.message").length).toBeGreaterThan(200);
    expect(events.some((e) => e.state_key !== undefined)).toBe(true);
    const ephemeral = new Set(rooms.flatMap((r) => r.ephemeral?.events ?? []).map((e) => e.type));
    expect(ephemeral).toEqual(new Set(["m.receipt", "m.typing"]));
    // Every batch only touches rooms the account has joined.
    const known = new Set(Object.keys(fixture.initial.rooms?.join ?? {}));
    for (const b of fixture.batches) for (const [id] of joined(b)) expect(known.has(id)).toBe(true);
  });

  it("is a valid /sync response and valid events by the official definitions", () => {
    const spec = getSpecValidator();
    const check = (body: SyncResponse): string[] =>
      spec.validateResponse(
        { method: "GET", path: "/_matrix/client/v3/sync" },
        { status: 200, body, contentType: "application/json" },
      ).errors;
    expect(check(fixture.initial)).toEqual([]);
    for (const batch of fixture.batches.slice(0, 20)) expect(check(batch)).toEqual([]);
    const events = new EventValidator();
    const sample = [...joined(fixture.initial).slice(0, 5), ...fixture.batches.slice(0, 20).flatMap(joined)];
    for (const [roomId, room] of sample) {
      for (const event of [...(room.state?.events ?? []), ...(room.timeline?.events ?? [])]) {
        expect(events.validate({ ...event, room_id: roomId })).toEqual([]);
      }
    }
  }, 60_000);
});
