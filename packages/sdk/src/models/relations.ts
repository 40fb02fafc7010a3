/**
 * Relations between events: reading m.relates_to from untrusted content,
 * applying edits (m.replace) and aggregating reactions (m.annotation). An
 * edit counts only if it comes from the original's sender, keeps its type,
 * carries m.new_content and neither event is a state event or redacted; the
 * latest valid edit wins (origin_server_ts, then the greater event id).
 * Reactions are counted once per sender and key, and vanish when redacted.
 */
import type { ClientEventWithoutRoomId, EventContent } from "../api/types/events";
import { copyObject, isJsonObject, own, ownObject, ownString } from "./json";
import { isRedacted } from "./redaction";

/** The relation an event declares in content["m.relates_to"], validated. */
export interface Relation {
  readonly relType?: string;
  readonly eventId?: string;
  /** The annotation key (reactions). */
  readonly key?: string;
  /** The event this one replies to (m.in_reply_to). */
  readonly inReplyTo?: string;
  /** On m.thread: whether m.in_reply_to is only a fallback for clients without threads. */
  readonly isFallingBack: boolean;
}

/** The relation of an event, or undefined when it declares none. */
export function relationOf(event: { content?: unknown }): Relation | undefined {
  const rel = ownObject(event.content, "m.relates_to");
  if (rel === undefined) return undefined;
  const relation: {
    relType?: string;
    eventId?: string;
    key?: string;
    inReplyTo?: string;
    isFallingBack: boolean;
  } = { isFallingBack: own(rel, "is_falling_back") === true };
  const relType = ownString(rel, "rel_type");
  const eventId = ownString(rel, "event_id");
  const key = ownString(rel, "key");
  const inReplyTo = ownString(ownObject(rel, "m.in_reply_to"), "event_id");
  if (relType !== undefined) relation.relType = relType;
  if (eventId !== undefined) relation.eventId = eventId;
  if (key !== undefined) relation.key = key;
  if (inReplyTo !== undefined) relation.inReplyTo = inReplyTo;
  return relation;
}

/** Why an edit does not apply to an original, or null when it does. */
export function whyEditInvalid(
  original: ClientEventWithoutRoomId,
  edit: ClientEventWithoutRoomId,
): string | null {
  const rel = relationOf(edit);
  if (rel?.relType !== "m.replace" || rel.eventId !== original.event_id) return "not an edit of this event";
  if (edit.sender !== original.sender) return "edit from another sender";
  if (edit.type !== original.type) return "edit changes the event type";
  if (edit.state_key !== undefined || original.state_key !== undefined)
    return "state events cannot be edited";
  if (!isJsonObject(own(edit.content, "m.new_content"))) return "edit without m.new_content";
  if (relationOf(original)?.relType === "m.replace") return "an edit cannot itself be edited";
  if (isRedacted(edit)) return "edit was redacted";
  return null;
}

/** The result of applying edits to one event. */
export interface EditedEvent {
  /** The content to display: the latest edit's m.new_content with the original's relation. */
  readonly content: EventContent;
  /** Whether an edit applied (the UI shows "(edited)"). */
  readonly edited: boolean;
  /** The edit whose content is shown, if any. */
  readonly latestEdit?: ClientEventWithoutRoomId;
  /** The valid edits, oldest first (the edit history). */
  readonly history: readonly ClientEventWithoutRoomId[];
}

function compareEdits(a: ClientEventWithoutRoomId, b: ClientEventWithoutRoomId): number {
  if (a.origin_server_ts !== b.origin_server_ts) return a.origin_server_ts - b.origin_server_ts;
  return a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0;
}

/**
 * Applies the valid edits among `candidates` to `original`. A redacted
 * original shows no edits. The original's m.relates_to is kept, since an
 * edit may not change what the event relates to.
 */
export function applyEdits(
  original: ClientEventWithoutRoomId,
  candidates: readonly ClientEventWithoutRoomId[],
): EditedEvent {
  if (isRedacted(original)) return { content: original.content, edited: false, history: [] };
  const history = candidates.filter((e) => whyEditInvalid(original, e) === null).sort(compareEdits);
  const latestEdit = history[history.length - 1];
  if (latestEdit === undefined) return { content: original.content, edited: false, history };
  const content = copyObject(own(latestEdit.content, "m.new_content") as Record<string, unknown>);
  delete content["m.relates_to"];
  const originalRelation = own(original.content, "m.relates_to");
  if (originalRelation !== undefined) content["m.relates_to"] = originalRelation;
  return { content, edited: true, latestEdit, history };
}

/** One reaction key on an event, with who reacted. */
export interface ReactionGroup {
  readonly key: string;
  /** Distinct senders, in the order they first reacted. */
  readonly senders: readonly string[];
  /** The reaction events counted (one per sender). */
  readonly events: readonly ClientEventWithoutRoomId[];
  readonly count: number;
}

/**
 * Aggregates the reactions (m.annotation) on `targetEventId`: grouped by
 * key in order of first appearance, one per sender per key. Redacted
 * reactions (by flag or by id in `redactedIds`) are left out, so a sender's
 * reaction disappears once redacted unless they reacted with the key again.
 */
export function aggregateReactions(
  targetEventId: string,
  reactions: readonly ClientEventWithoutRoomId[],
  redactedIds: ReadonlySet<string> = new Set(),
): ReactionGroup[] {
  const groups = new Map<string, { senders: string[]; events: ClientEventWithoutRoomId[] }>();
  for (const event of reactions) {
    if (isRedacted(event) || redactedIds.has(event.event_id)) continue;
    const rel = relationOf(event);
    if (rel?.relType !== "m.annotation" || rel.eventId !== targetEventId || rel.key === undefined) continue;
    let group = groups.get(rel.key);
    if (group === undefined) {
      group = { senders: [], events: [] };
      groups.set(rel.key, group);
    }
    if (group.senders.includes(event.sender)) continue;
    group.senders.push(event.sender);
    group.events.push(event);
  }
  return [...groups].map(([key, g]) => ({
    key,
    senders: g.senders,
    events: g.events,
    count: g.senders.length,
  }));
}
