/**
 * The incremental syncs of the fixture: each batch brings new messages (with
 * relations) across a few random rooms, receipts and typing for them, and
 * now and then a state change (topic, name, a member joining or leaving) or
 * an account data change (tags, m.direct).
 */
import type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { JoinedRoom, SyncResponse } from "@lattice/sdk/api/types/sync";
import { receipts, unreadCounts } from "./fixture-rooms";
import { timelineEvent } from "./fixture-timeline";
import { displayName } from "./fixture-world";
import type { RoomMemory, World } from "./fixture-world";

/** The next_batch token after `index` incremental batches (0 = after the initial sync). */
export function batchToken(index: number): string {
  return `s${index}`;
}

/** Builds incremental batch number `index` (1-based). `direct` is the current m.direct content, updated in place. */
export function buildBatch(
  world: World,
  index: number,
  rooms: RoomMemory[],
  direct: Record<string, string[]>,
): SyncResponse {
  const { rng } = world;
  const join: Record<string, JoinedRoom> = {};
  const touched = rng.int(1, Math.min(8, rooms.length));
  for (let i = 0; i < touched; i++) {
    const room = rng.pick(rooms);
    const existing = join[room.roomId];
    const entry: JoinedRoom = existing ?? {
      timeline: { events: [], limited: false, prev_batch: `p_${batchToken(index - 1)}_${i}` },
    };
    join[room.roomId] = entry;
    const events = entry.timeline?.events ?? [];
    const count = rng.int(1, 4);
    for (let n = 0; n < count; n++) events.push(timelineEvent(world, room));
    if (rng.chance(0.12)) events.push(stateChange(world, room));
    entry.ephemeral = { events: [receipts(world, room, events)] };
    if (rng.chance(0.3)) {
      const typists = room.members.slice(1, 1 + rng.int(0, 3));
      entry.ephemeral.events?.push({ type: "m.typing", content: { user_ids: typists } });
    }
    entry.unread_notifications = unreadCounts(world);
  }

  const response: SyncResponse = { next_batch: batchToken(index), rooms: { join } };
  if (rng.chance(0.05)) {
    const room = rng.pick(rooms);
    const tagged = join[room.roomId] ?? (join[room.roomId] = {});
    tagged.account_data = {
      events: [{ type: "m.tag", content: { tags: { "m.favourite": { order: rng.next() } } } }],
    };
  }
  if (rng.chance(0.02)) {
    const room = rng.pick(rooms.filter((r) => !r.isDirect));
    const partner = room.members[1];
    if (partner !== undefined) {
      direct[partner] = [...(direct[partner] ?? []), room.roomId];
      response.account_data = { events: [{ type: "m.direct", content: structuredClone(direct) }] };
    }
  }
  return response;
}

/** A state event in the timeline: a topic or name change, or a member joining or leaving. */
function stateChange(world: World, room: RoomMemory): ClientEventWithoutRoomId {
  const { rng } = world;
  const admin = room.members[1] ?? room.members[0] ?? "";
  const roll = rng.next();
  if (roll < 0.3) return world.event("m.room.topic", admin, { topic: world.sentence() }, "");
  if (roll < 0.45 && !room.isDirect)
    return world.event("m.room.name", admin, { name: `Room ${world.sentence(1, 3)}` }, "");
  if (roll < 0.8 || room.members.length < 4) {
    const userId = world.freshUser();
    room.members.push(userId);
    return world.event(
      "m.room.member",
      userId,
      { membership: "join", displayname: displayName(userId) },
      userId,
    );
  }
  // Someone other than the bench user (index 0) and the admin leaves.
  const leaving = room.members.splice(rng.int(2, room.members.length - 1), 1)[0] ?? admin;
  return world.event("m.room.member", leaving, { membership: "leave" }, leaving);
}
