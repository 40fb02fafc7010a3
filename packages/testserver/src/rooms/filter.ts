/**
 * Event filters (the spec's Filter and RoomEventFilter): parsing a stored or
 * inline filter defensively, and matching events against types, not_types,
 * senders, not_senders, rooms, not_rooms and contains_url, with `*`
 * wildcards in types.
 */
import type { JsonObject, StoredEvent } from "../core/events";
import { errors } from "../http/errors";
import { isJsonObject } from "../http/types";

export interface EventFilter {
  limit?: number;
  types?: string[];
  notTypes: string[];
  senders?: string[];
  notSenders: string[];
  rooms?: string[];
  notRooms: string[];
  containsUrl?: boolean;
  lazyLoadMembers: boolean;
  includeRedundantMembers: boolean;
  unreadThreadNotifications: boolean;
}

export interface SyncFilter {
  room: {
    rooms?: string[];
    notRooms: string[];
    includeLeave: boolean;
    timeline: EventFilter;
    state: EventFilter;
    ephemeral: EventFilter;
    accountData: EventFilter;
  };
  presence: EventFilter;
  accountData: EventFilter;
}

function strings(obj: JsonObject, key: string): string[] | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string"))
    throw errors.invalidParam(`Filter: ${key} must be a list of strings`);
  return v as string[];
}

/** Parses an EventFilter / RoomEventFilter object (anything else is M_INVALID_PARAM). */
export function parseEventFilter(raw: unknown): EventFilter {
  if (raw === undefined || raw === null) raw = {};
  if (!isJsonObject(raw)) throw errors.invalidParam("Filter must be an object");
  const limit = raw["limit"];
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0))
    throw errors.invalidParam("Filter: limit must be a non-negative integer");
  const containsUrl = raw["contains_url"];
  if (containsUrl !== undefined && typeof containsUrl !== "boolean")
    throw errors.invalidParam("Filter: contains_url must be a boolean");
  const f: EventFilter = {
    notTypes: strings(raw, "not_types") ?? [],
    notSenders: strings(raw, "not_senders") ?? [],
    notRooms: strings(raw, "not_rooms") ?? [],
    lazyLoadMembers: raw["lazy_load_members"] === true,
    includeRedundantMembers: raw["include_redundant_members"] === true,
    unreadThreadNotifications: raw["unread_thread_notifications"] === true,
  };
  if (typeof limit === "number") f.limit = limit;
  const types = strings(raw, "types");
  if (types) f.types = types;
  const senders = strings(raw, "senders");
  if (senders) f.senders = senders;
  const rooms = strings(raw, "rooms");
  if (rooms) f.rooms = rooms;
  if (typeof containsUrl === "boolean") f.containsUrl = containsUrl;
  return f;
}

/** Parses a sync Filter. */
export function parseSyncFilter(raw: unknown): SyncFilter {
  if (!isJsonObject(raw)) throw errors.invalidParam("Filter must be an object");
  const room = raw["room"] ?? {};
  if (!isJsonObject(room)) throw errors.invalidParam("Filter: room must be an object");
  const notRooms = strings(room, "not_rooms") ?? [];
  const out: SyncFilter = {
    room: {
      notRooms,
      includeLeave: room["include_leave"] === true,
      timeline: parseEventFilter(room["timeline"]),
      state: parseEventFilter(room["state"]),
      ephemeral: parseEventFilter(room["ephemeral"]),
      accountData: parseEventFilter(room["account_data"]),
    },
    presence: parseEventFilter(raw["presence"]),
    accountData: parseEventFilter(raw["account_data"]),
  };
  const rooms = strings(room, "rooms");
  if (rooms) out.room.rooms = rooms;
  return out;
}

function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes("*")) return pattern === value;
  const re = new RegExp(
    "^" +
      pattern
        .split("*")
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      "$",
  );
  return re.test(value);
}

/** Whether a type passes types / not_types. */
export function typeAllowed(f: EventFilter, type: string): boolean {
  if (f.notTypes.some((p) => globMatch(p, type))) return false;
  return !f.types || f.types.some((p) => globMatch(p, type));
}

/** Whether a room passes a filter's rooms / not_rooms. */
export function roomAllowed(rooms: string[] | undefined, notRooms: string[], roomId: string): boolean {
  if (notRooms.includes(roomId)) return false;
  return !rooms || rooms.includes(roomId);
}

/** Whether an event passes a RoomEventFilter. */
export function eventMatches(
  f: EventFilter,
  ev: Pick<StoredEvent, "type" | "sender" | "room_id" | "content">,
): boolean {
  if (!typeAllowed(f, ev.type)) return false;
  if (f.notSenders.includes(ev.sender)) return false;
  if (f.senders && !f.senders.includes(ev.sender)) return false;
  if (!roomAllowed(f.rooms, f.notRooms, ev.room_id)) return false;
  if (f.containsUrl !== undefined) {
    const has = typeof ev.content["url"] === "string";
    if (has !== f.containsUrl) return false;
  }
  return true;
}

/** Whether a plain {type, sender?} event (account data, presence) passes a filter. */
export function plainMatches(f: EventFilter, ev: JsonObject): boolean {
  const type = typeof ev["type"] === "string" ? ev["type"] : "";
  if (!typeAllowed(f, type)) return false;
  const sender = ev["sender"];
  if (typeof sender === "string") {
    if (f.notSenders.includes(sender)) return false;
    if (f.senders && !f.senders.includes(sender)) return false;
  }
  return true;
}

/**
 * Reads a `filter` query parameter: inline JSON (starting with "{") or a
 * stored filter id. Undefined when absent.
 */
export function readFilterParam(
  value: string | null,
  lookup: (id: string) => JsonObject | undefined,
): unknown {
  if (value === null || value === "") return undefined;
  if (value.trimStart().startsWith("{")) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw errors.invalidParam("filter JSON was invalid");
    }
  }
  const stored = lookup(value);
  if (!stored) throw errors.invalidParam("No such filter");
  return stored;
}
