/**
 * Pure guards over presence and account data: the presence state check
 * (SPEC §5, 'Bad presence value', the API layer's rule reused), and readers
 * for presence events, room tags (m.tag) and the ignored users list
 * (m.ignored_user_list). All inputs are untrusted JSON; garbage is dropped.
 */
import { isPresenceState } from "../api/presence";
import type { PresenceState } from "../api/types/presence";
import { isJsonObject, isUserId, own, ownObject, ownString } from "./json";

/** Throws ApiError('Bad presence value') unless the value is offline, online or unavailable (the API layer's rule). */
export { assertPresenceState } from "../api/presence";

/** A user's presence as read from a sync presence event. */
export interface PresenceInfo {
  readonly userId: string;
  readonly presence: PresenceState;
  readonly lastActiveAgo?: number;
  readonly statusMsg?: string;
  readonly currentlyActive?: boolean;
}

/** A presence event, validated; undefined when it names no user or carries a bad presence value. */
export function parsePresenceEvent(event: unknown): PresenceInfo | undefined {
  const userId = ownString(event, "sender");
  const content = ownObject(event, "content");
  const presence = own(content, "presence");
  if (!isUserId(userId) || !isPresenceState(presence)) return undefined;
  const ago = own(content, "last_active_ago");
  const statusMsg = ownString(content, "status_msg");
  const active = own(content, "currently_active");
  return {
    userId,
    presence,
    ...(typeof ago === "number" && Number.isFinite(ago) && ago >= 0 ? { lastActiveAgo: ago } : {}),
    ...(statusMsg !== undefined ? { statusMsg } : {}),
    ...(typeof active === "boolean" ? { currentlyActive: active } : {}),
  };
}

/** The tags the spec defines; user tags start with "u.". */
export const FAVOURITE_TAG = "m.favourite";
export const LOW_PRIORITY_TAG = "m.lowpriority";
export const SERVER_NOTICE_TAG = "m.server_notice";

/** One tag of a room: its order (0 to 1) when valid. */
export interface RoomTag {
  readonly order?: number;
}

/** The tags of an m.tag content; an order outside 0..1 or not a number is dropped, the tag kept. */
export function parseTags(content: unknown): Map<string, RoomTag> {
  const out = new Map<string, RoomTag>();
  const tags = ownObject(content, "tags");
  if (tags === undefined) return out;
  for (const [tag, info] of Object.entries(tags)) {
    if (tag === "" || tag.length > 255 || !isJsonObject(info)) continue;
    const order = own(info, "order");
    out.set(tag, typeof order === "number" && order >= 0 && order <= 1 ? { order } : {});
  }
  return out;
}

/** The users the user ignores, from an m.ignored_user_list content. */
export function parseIgnoredUsers(content: unknown): Set<string> {
  const ignored = ownObject(content, "ignored_users");
  return new Set(ignored === undefined ? [] : Object.keys(ignored).filter(isUserId));
}
