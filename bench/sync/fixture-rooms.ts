/**
 * One joined room of the initial sync: full state (create, power levels,
 * join rules, history visibility, name, topic, alias, avatar, and one
 * m.room.member per member), a limited timeline of 50 events with relations,
 * receipts, room account data (tags, m.fully_read), unread counts (with
 * per-thread counts) and the room summary.
 */
import type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { JoinedRoom, UnreadNotificationCounts } from "@lattice/sdk/api/types/sync";
import { timelineEvent } from "./fixture-timeline";
import { BENCH_USER_ID, SERVER_NAME, displayName } from "./fixture-world";
import type { RoomMemory, World } from "./fixture-world";

/** The shape of one room in the fixture. */
export interface RoomPlan {
  memberCount: number;
  timelineCount: number;
  isDirect: boolean;
  /** Size of the pool members are drawn from (users recur across rooms). */
  userPool: number;
}

/** Builds a joined room and what the generator remembers of it. */
export function buildRoom(world: World, plan: RoomPlan): { room: JoinedRoom; memory: RoomMemory } {
  const { rng } = world;
  const roomId = world.roomId();
  const members = pickMembers(world, plan);
  const creator = members[1] ?? BENCH_USER_ID;
  const memory: RoomMemory = { roomId, members, messages: [], threadRoots: [], isDirect: plan.isDirect };

  const state: ClientEventWithoutRoomId[] = [
    world.event("m.room.create", creator, { room_version: "10", creator }, ""),
    world.event("m.room.power_levels", creator, powerLevels(creator, members), ""),
    world.event("m.room.join_rules", creator, { join_rule: plan.isDirect ? "invite" : "public" }, ""),
    world.event("m.room.history_visibility", creator, { history_visibility: "shared" }, ""),
    world.event("m.room.guest_access", creator, { guest_access: "can_join" }, ""),
  ];
  if (!plan.isDirect) {
    state.push(world.event("m.room.name", creator, { name: `Room ${world.sentence(1, 3)}` }, ""));
    if (rng.chance(0.7)) state.push(world.event("m.room.topic", creator, { topic: world.sentence() }, ""));
    if (rng.chance(0.3)) {
      const alias = `#${rng.string(10).toLowerCase()}:${SERVER_NAME}`;
      state.push(world.event("m.room.canonical_alias", creator, { alias }, ""));
    }
    if (rng.chance(0.4)) {
      const url = `mxc://${SERVER_NAME}/${rng.string(24)}`;
      state.push(world.event("m.room.avatar", creator, { url }, ""));
    }
  }
  for (const userId of members) {
    const content: Record<string, unknown> = { membership: "join", displayname: displayName(userId) };
    if (rng.chance(0.5)) content.avatar_url = `mxc://${SERVER_NAME}/${rng.string(24)}`;
    state.push(world.event("m.room.member", userId, content, userId));
  }

  const timeline: ClientEventWithoutRoomId[] = [];
  for (let i = 0; i < plan.timelineCount; i++) timeline.push(timelineEvent(world, memory));

  const room: JoinedRoom = {
    summary: {
      "m.heroes": members.slice(1, 6),
      "m.joined_member_count": members.length,
      "m.invited_member_count": 0,
    },
    state: { events: state },
    timeline: { events: timeline, limited: true, prev_batch: `p_${rng.string(12)}` },
    ephemeral: { events: [receipts(world, memory, timeline)] },
    account_data: { events: roomAccountData(world, timeline) },
    unread_notifications: unreadCounts(world),
  };
  if (memory.threadRoots.length > 0) {
    const perThread: Record<string, UnreadNotificationCounts> = {};
    for (const root of memory.threadRoots) perThread[root] = unreadCounts(world);
    room.unread_thread_notifications = perThread;
  }
  return { room, memory };
}

function pickMembers(world: World, plan: RoomPlan): string[] {
  const members = new Set<string>([BENCH_USER_ID]);
  // Big rooms draw from beyond the pool too, so their members are mostly unique.
  const pool = Math.max(plan.userPool, plan.memberCount * 2);
  while (members.size < plan.memberCount) members.add(world.poolUser(pool));
  return [...members];
}

function powerLevels(creator: string, members: string[]): Record<string, unknown> {
  const users: Record<string, number> = { [creator]: 100 };
  for (const userId of members.slice(2, 4)) users[userId] = 50;
  return {
    users,
    users_default: 0,
    events: { "m.room.name": 50, "m.room.power_levels": 100, "m.room.history_visibility": 100 },
    events_default: 0,
    state_default: 50,
    ban: 50,
    kick: 50,
    redact: 50,
    invite: 0,
    notifications: { room: 50 },
  };
}

/** Read receipts of a few members on recent events, one of them in a thread. */
export function receipts(
  world: World,
  room: RoomMemory,
  timeline: ClientEventWithoutRoomId[],
): { type: string; content: Record<string, unknown> } {
  const { rng } = world;
  const content: Record<string, Record<string, Record<string, Record<string, unknown>>>> = {};
  const readers = Math.min(room.members.length, rng.int(1, 6));
  for (let i = 0; i < readers; i++) {
    const target = timeline[timeline.length - 1 - rng.int(0, Math.min(5, timeline.length - 1))];
    if (!target) continue;
    const receipt: Record<string, unknown> = { ts: target.origin_server_ts + rng.int(100, 10_000) };
    if (rng.chance(0.2) && room.threadRoots.length > 0) receipt.thread_id = rng.pick(room.threadRoots);
    else receipt.thread_id = "main";
    const byType = (content[target.event_id] ??= {});
    const reads = (byType["m.read"] ??= {});
    reads[room.members[i] ?? BENCH_USER_ID] = receipt;
  }
  return { type: "m.receipt", content };
}

function roomAccountData(
  world: World,
  timeline: ClientEventWithoutRoomId[],
): Array<{ type: string; content: Record<string, unknown> }> {
  const { rng } = world;
  const events: Array<{ type: string; content: Record<string, unknown> }> = [];
  const last = timeline[timeline.length - 1 - rng.int(0, 10)];
  if (last) events.push({ type: "m.fully_read", content: { event_id: last.event_id } });
  if (rng.chance(0.15)) {
    const tag = rng.pick(["m.favourite", "m.lowpriority", "u.work", "u.family"]);
    events.push({ type: "m.tag", content: { tags: { [tag]: { order: rng.next() } } } });
  }
  return events;
}

/** Unread counts: most rooms read, some with notifications and a few highlights. */
export function unreadCounts(world: World): UnreadNotificationCounts {
  const { rng } = world;
  const notifications = rng.chance(0.3) ? rng.int(1, 40) : 0;
  return {
    notification_count: notifications,
    highlight_count: notifications > 0 && rng.chance(0.2) ? rng.int(1, notifications) : 0,
  };
}
