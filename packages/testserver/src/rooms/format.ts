/**
 * Client-facing projections of stored events: the ClientEvent shape with
 * unsigned (age, transaction_id only for the sending device, prev_content,
 * redacted_because) and the bundled aggregations of m.thread, m.replace and
 * m.reference; stripped state for invites and knocks.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject, StoredEvent } from "../core/events";
import type { Room } from "./room";
import { relatesTo } from "./room";
import { redactContent } from "./versions";
import { canSee, membershipAtEvent } from "./visibility";

export interface Viewer {
  userId: string;
  deviceId?: string;
}

export interface FormatOptions {
  /** Sync's ClientEventWithoutRoomID. */
  omitRoomId?: boolean;
  /** Bundle aggregations into unsigned.m.relations (default true). */
  bundle?: boolean;
}

/** The content the client sees: pruned by the room version's algorithm once redacted. */
export function visibleContent(room: Room, ev: StoredEvent): JsonObject {
  return ev.redactedBy ? redactContent(ev.type, ev.content, room.version) : ev.content;
}

/** The ClientEvent for a viewer. */
export function formatEvent(
  ctx: ServerContext,
  room: Room,
  ev: StoredEvent,
  viewer: Viewer,
  options: FormatOptions = {},
): JsonObject {
  const out: JsonObject = {
    content: visibleContent(room, ev),
    event_id: ev.event_id,
    origin_server_ts: ev.origin_server_ts,
    sender: ev.sender,
    type: ev.type,
  };
  if (!options.omitRoomId) out["room_id"] = ev.room_id;
  if (ev.state_key !== undefined) out["state_key"] = ev.state_key;
  if (ev.redacts !== undefined) out["redacts"] = ev.redacts;
  const unsigned: JsonObject = { age: Math.max(0, ctx.clock.now() - ev.origin_server_ts) };
  if (ev.txn && ev.txn.userId === viewer.userId && ev.txn.deviceId === viewer.deviceId) {
    unsigned["transaction_id"] = ev.txn.txnId;
  }
  // MSC4115 (v1.11); the legacy profile (Synapse 1.67) never sends it.
  if (ctx.config.profile !== "legacy")
    unsigned["membership"] = membershipAtEvent(room, viewer.userId, ev) ?? "leave";
  const replaced = room.replaces.get(ev.event_id);
  if (replaced !== undefined) unsigned["replaces_state"] = replaced;
  if (ev.state_key !== undefined && ev.prevContent !== undefined) {
    unsigned["prev_content"] = ev.prevContent;
    if (ev.prevSender !== undefined) unsigned["prev_sender"] = ev.prevSender;
  }
  if (ev.redactedBy) {
    unsigned["redacted_because"] = formatEvent(ctx, room, ev.redactedBy, viewer, {
      ...options,
      bundle: false,
    });
  } else if (options.bundle !== false) {
    const relations = bundledRelations(ctx, room, ev, viewer, options);
    if (relations) unsigned["m.relations"] = relations;
  }
  out["unsigned"] = unsigned;
  return out;
}

/** Children of an event that are live (not redacted) and visible to the viewer. */
export function liveChildren(room: Room, parentId: string, viewer: Viewer): StoredEvent[] {
  return (room.children.get(parentId) ?? []).filter((c) => !c.redactedBy && canSee(room, viewer.userId, c));
}

/** The latest edit of an event by its own sender (by origin_server_ts, then event id). */
export function latestEdit(room: Room, ev: StoredEvent, viewer: Viewer): StoredEvent | undefined {
  let best: StoredEvent | undefined;
  for (const c of liveChildren(room, ev.event_id, viewer)) {
    if (relatesTo(c.content)?.relType !== "m.replace" || c.sender !== ev.sender || c.type !== ev.type)
      continue;
    if (
      !best ||
      c.origin_server_ts > best.origin_server_ts ||
      (c.origin_server_ts === best.origin_server_ts && c.event_id > best.event_id)
    )
      best = c;
  }
  return best;
}

/** A thread summary for a thread root, or undefined when it has no replies. */
export function threadSummary(
  ctx: ServerContext,
  room: Room,
  root: StoredEvent,
  viewer: Viewer,
  options: FormatOptions = {},
): JsonObject | undefined {
  const replies = liveChildren(room, root.event_id, viewer).filter(
    (c) => relatesTo(c.content)?.relType === "m.thread",
  );
  const latest = replies[replies.length - 1];
  if (!latest) return undefined;
  return {
    latest_event: formatEvent(ctx, room, latest, viewer, { ...options, bundle: true }),
    count: replies.length,
    current_user_participated:
      root.sender === viewer.userId || replies.some((r) => r.sender === viewer.userId),
  };
}

function bundledRelations(
  ctx: ServerContext,
  room: Room,
  ev: StoredEvent,
  viewer: Viewer,
  options: FormatOptions,
): JsonObject | undefined {
  if (!room.children.has(ev.event_id)) return undefined;
  const out: JsonObject = {};
  const thread = threadSummary(ctx, room, ev, viewer, options);
  if (thread) out["m.thread"] = thread;
  const edit = latestEdit(room, ev, viewer);
  if (edit) out["m.replace"] = formatEvent(ctx, room, edit, viewer, { ...options, bundle: false });
  const refs = liveChildren(room, ev.event_id, viewer).filter(
    (c) => relatesTo(c.content)?.relType === "m.reference",
  );
  if (refs.length > 0) out["m.reference"] = { chunk: refs.map((r) => ({ event_id: r.event_id })) };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Stripped state event ({type, state_key, content, sender}) for invite_state and knock_state. */
export function stripped(ev: StoredEvent): JsonObject {
  return { type: ev.type, state_key: ev.state_key ?? "", content: ev.content, sender: ev.sender };
}

/** The state a user sees about a room they are invited to or knocking on. */
export const STRIPPED_TYPES = [
  "m.room.create",
  "m.room.join_rules",
  "m.room.name",
  "m.room.avatar",
  "m.room.canonical_alias",
  "m.room.encryption",
  "m.room.topic",
];

export function strippedState(room: Room, member: StoredEvent | undefined): JsonObject[] {
  const out: JsonObject[] = [];
  for (const type of STRIPPED_TYPES) {
    const ev = room.state.get(`${type}\u0000`);
    if (ev) out.push(stripped(ev));
  }
  if (member) out.push(stripped(member));
  return out;
}
