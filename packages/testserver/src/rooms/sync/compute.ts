/**
 * Builds one /sync response for a user's device between `since` and the
 * current stream position: rooms (join, invite, leave, knock), presence,
 * account data, to-device, device lists and one-time key counts.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { plainMatches, roomAllowed } from "../filter";
import { strippedState } from "../format";
import type { Room } from "../room";
import { stateKey } from "../room";
import { encodeToken } from "../tokens";
import { roomSection } from "./joined";
import type { SyncRequestInfo } from "./joined";

export interface SyncResult {
  body: JsonObject;
  /** Whether the response carries anything the client did not have. */
  hasNews: boolean;
}

export function computeSync(ctx: ServerContext, info: SyncRequestInfo): SyncResult {
  const { userId, since, now } = info;
  const f = info.filter.room;
  const join: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  const invite: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  const leave: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  const knock: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  let news = false;

  for (const room of ctx.rooms.rooms.values()) {
    if (!roomAllowed(f.rooms, f.notRooms, room.roomId)) continue;
    const member = room.state.get(stateKey("m.room.member", userId));
    if (!member || member.stream > now) continue;
    const m = member.content["membership"];
    const fresh = since === undefined || member.stream > since;
    if (m === "join") {
      const section = roomSection(ctx, room, info, now, fresh, true);
      if (section.hasNews || info.fullState) join[room.roomId] = section.body;
      news ||= section.hasNews;
    } else if (m === "invite" && (fresh || info.fullState)) {
      invite[room.roomId] = { invite_state: { events: strippedState(room, member) } };
      news ||= fresh;
    } else if (m === "knock" && (fresh || info.fullState)) {
      knock[room.roomId] = { knock_state: { events: strippedState(room, member) } };
      news ||= fresh;
    } else if ((m === "leave" || m === "ban") && !room.forgotten.has(userId)) {
      const show = since !== undefined ? fresh || (info.fullState && f.includeLeave) : f.includeLeave;
      if (!show) continue;
      const section = roomSection(
        ctx,
        room,
        info,
        member.stream,
        since === undefined || fresh || info.fullState,
        false,
      );
      leave[room.roomId] = section.body;
      news ||= fresh;
    }
  }

  const sharing = usersSharingRooms(ctx, userId);
  const presence = ctx.userData
    .presenceSince(userId, since ?? 0, sharing)
    .filter((e) => plainMatches(info.filter.presence, e));
  const accountData = ctx.userData
    .globalAccountDataSince(userId, since ?? 0)
    .filter((e) => plainMatches(info.filter.accountData, e));
  const toDevice = ctx.accounts.toDeviceSince(userId, info.deviceId, since ?? 0);
  const deviceLists =
    since === undefined ? { changed: [], left: [] } : deviceListDelta(ctx, userId, since, now, sharing);

  news ||= presence.length > 0 || accountData.length > 0 || toDevice.length > 0;
  news ||= deviceLists.changed.length > 0 || deviceLists.left.length > 0;
  const fallback = ctx.accounts.unusedFallbackKeyTypes(userId, info.deviceId);
  const body: JsonObject = {
    next_batch: encodeToken(now),
    rooms: { join, invite, leave, knock },
    presence: { events: presence },
    account_data: { events: accountData },
    to_device: { events: toDevice },
    device_lists: deviceLists,
    device_one_time_keys_count: ctx.accounts.oneTimeKeyCounts(userId, info.deviceId),
    device_unused_fallback_key_types: fallback,
    "org.matrix.msc2732.device_unused_fallback_key_types": fallback,
  };
  return { body, hasNews: news };
}

/** Users who share a joined room with the user (the user included). */
export function usersSharingRooms(ctx: ServerContext, userId: string): Set<string> {
  const out = new Set<string>([userId]);
  for (const { roomId, membership } of ctx.rooms.roomsForUser(userId)) {
    if (membership !== "join") continue;
    for (const u of ctx.rooms.joinedMembers(roomId)) out.add(u);
  }
  return out;
}

/**
 * device_lists: users with changed devices who share a room, users who newly
 * share a room, and users who no longer share any room.
 */
export function deviceListDelta(
  ctx: ServerContext,
  userId: string,
  since: number,
  now: number,
  sharing: Set<string>,
): { changed: string[]; left: string[] } {
  const changed = new Set<string>();
  const left = new Set<string>();
  for (const u of ctx.accounts.deviceListChanges(since, now)) if (sharing.has(u)) changed.add(u);
  for (const room of ctx.rooms.rooms.values()) {
    const mine = room.state.get(stateKey("m.room.member", userId));
    if (!mine) continue;
    const iJoinedNow = mine.content["membership"] === "join" && mine.stream > since && mine.stream <= now;
    const iLeftNow = mine.content["membership"] !== "join" && mine.stream > since && mine.stream <= now;
    if (mine.content["membership"] !== "join" && !iLeftNow) continue;
    for (const ev of memberEventsIn(room, since, now)) {
      const other = ev.state_key as string;
      if (other === userId) continue;
      if (ev.content["membership"] === "join" && sharing.has(other)) changed.add(other);
      else if (
        (ev.content["membership"] === "leave" || ev.content["membership"] === "ban") &&
        !sharing.has(other)
      )
        left.add(other);
    }
    if (iJoinedNow) for (const u of ctx.rooms.joinedMembers(room.roomId)) if (u !== userId) changed.add(u);
    if (iLeftNow) {
      for (const ev of room.state.values()) {
        if (
          ev.type === "m.room.member" &&
          ev.content["membership"] === "join" &&
          !sharing.has(ev.state_key as string)
        )
          left.add(ev.state_key as string);
      }
    }
  }
  for (const u of left) changed.delete(u);
  return { changed: [...changed], left: [...left] };
}

function memberEventsIn(
  room: Room,
  since: number,
  now: number,
): Array<{ state_key?: string; content: JsonObject }> {
  return room.stateEvents.filter((e) => e.type === "m.room.member" && e.stream > since && e.stream <= now);
}
