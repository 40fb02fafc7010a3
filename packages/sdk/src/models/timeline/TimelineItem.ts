/**
 * TimelineItem: one event as the UI shows it, with its edits applied, its
 * reactions aggregated, its reply target and thread resolved, and the
 * redaction applied. Items are immutable; a change builds a new item.
 */
import type { ClientEventWithoutRoomId, EventContent } from "../../api/types/events";
import { isRedacted } from "../redaction";
import type { ReactionGroup } from "../relations";
import { aggregateReactions, applyEdits } from "../relations";
import { replyTargetOf, threadMembershipOf } from "../replies";
import { AGGREGATED_REL_TYPES, RelationIndex } from "./RelationIndex";

/** One shown event. */
export interface TimelineItem {
  readonly eventId: string;
  readonly type: string;
  readonly sender: string;
  readonly ts: number;
  readonly stateKey?: string;
  /** The content to show: the latest edit's, or the redacted content. */
  readonly content: EventContent;
  readonly edited: boolean;
  readonly redacted: boolean;
  readonly reactions: readonly ReactionGroup[];
  /** The event this one replies to. */
  readonly inReplyTo?: string;
  /** The root of the thread this event belongs to (thread replies only). */
  readonly threadRootId?: string;
  /** The event as stored (redacted in place when a redaction arrived). */
  readonly event: ClientEventWithoutRoomId;
}

/**
 * Whether an event gets an item of its own in the main timeline: edits,
 * reactions and redactions aggregate onto their targets, and thread replies
 * live in their thread's timeline. Redaction strips m.relates_to, so a
 * redacted relation is recognised by what `relations` saw of it before (and
 * a reaction by its type): a removed reaction, edit or thread reply never
 * turns into an item of its own.
 */
export function isShownInMain(event: ClientEventWithoutRoomId, relations?: RelationIndex): boolean {
  if (event.type === "m.room.redaction" || event.type === "m.reaction") return false;
  if (threadMembershipOf(event).threadRootId !== undefined) return false;
  if (RelationIndex.isAggregation(event)) return false;
  const earlier = isRedacted(event) ? relations?.relTypeOf(event.event_id) : undefined;
  return earlier === undefined || !HIDDEN_REL_TYPES.has(earlier);
}

/** Relation types whose events never stand alone in the main timeline. */
const HIDDEN_REL_TYPES: ReadonlySet<string> = new Set([...AGGREGATED_REL_TYPES, "m.thread"]);

/** Builds the item of `event` with the relations known so far. */
export function buildItem(event: ClientEventWithoutRoomId, relations: RelationIndex): TimelineItem {
  const redacted = isRedacted(event);
  const edited = redacted ? undefined : applyEdits(event, relations.editsOf(event.event_id));
  const reactions = redacted
    ? []
    : aggregateReactions(event.event_id, relations.reactionsOf(event.event_id), relations.redactedIds());
  const inReplyTo = redacted ? undefined : replyTargetOf(event);
  const threadRootId = threadMembershipOf(event).threadRootId;
  return {
    eventId: event.event_id,
    type: event.type,
    sender: event.sender,
    ts: event.origin_server_ts,
    ...(event.state_key !== undefined ? { stateKey: event.state_key } : {}),
    content: edited?.content ?? event.content,
    edited: edited?.edited ?? false,
    redacted,
    reactions,
    ...(inReplyTo !== undefined ? { inReplyTo } : {}),
    ...(threadRootId !== undefined ? { threadRootId } : {}),
    event,
  };
}
