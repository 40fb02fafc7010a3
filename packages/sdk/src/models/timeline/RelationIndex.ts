/**
 * The relations of the events a timeline holds: edits (m.replace) and
 * reactions (m.annotation) by target, and which events were redacted. Fed as
 * events arrive in any order (sync, back-pagination, /context), it answers
 * which targets an arrival changes, so only those items are rebuilt. It also
 * remembers the relation type of every related event it saw before a
 * redaction stripped it (redaction removes m.relates_to), so a redacted
 * reaction, edit or thread reply is still known for what it was and never
 * becomes an item of its own.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { isRedacted, redactedEventId } from "../redaction";
import { relationOf } from "../relations";

/** Relation types aggregated onto their target instead of shown on their own. */
export const AGGREGATED_REL_TYPES: ReadonlySet<string> = new Set(["m.replace", "m.annotation"]);

export class RelationIndex {
  private readonly edits = new Map<string, ClientEventWithoutRoomId[]>();
  private readonly reactions = new Map<string, ClientEventWithoutRoomId[]>();
  /** Related event id -> its target, to find the target when the related event is redacted. */
  private readonly targetOf = new Map<string, string>();
  /** Redacted event id -> the redaction, also for targets not seen yet. */
  readonly redactions = new Map<string, ClientEventWithoutRoomId>();
  /** Event id -> the rel_type it declared (any relation), kept past its redaction. */
  private readonly relTypes = new Map<string, string>();

  /**
   * Notes the relation an event declares, before it may be redacted (an
   * event placed after its redaction is stripped first: call this with the
   * original).
   */
  remember(event: ClientEventWithoutRoomId): void {
    const relType = relationOf(event)?.relType;
    if (relType !== undefined && !isRedacted(event)) this.relTypes.set(event.event_id, relType);
  }

  /** Notes what a now-redacted event was (its holder saw it before the redaction). */
  rememberRelType(eventId: string, relType: string): void {
    this.relTypes.set(eventId, relType);
  }

  /** The rel_type an event declared when seen unredacted, if any. */
  relTypeOf(eventId: string): string | undefined {
    return this.relTypes.get(eventId);
  }

  /**
   * Indexes one event. Returns the ids of events whose shown form changes:
   * the target of an edit or reaction, or the target of a redaction (and the
   * target's target when an edit or reaction is redacted).
   */
  add(event: ClientEventWithoutRoomId): string[] {
    if (event.type === "m.room.redaction") {
      const target = redactedEventId(event);
      if (target === undefined) return [];
      this.redactions.set(target, event);
      const changed = [target];
      const parent = this.targetOf.get(target);
      if (parent !== undefined) changed.push(parent);
      return changed;
    }
    if (isRedacted(event)) return [];
    this.remember(event);
    const rel = relationOf(event);
    if (rel?.eventId === undefined || rel.relType === undefined || !AGGREGATED_REL_TYPES.has(rel.relType))
      return [];
    const map = rel.relType === "m.replace" ? this.edits : this.reactions;
    const list = map.get(rel.eventId);
    if (list?.some((e) => e.event_id === event.event_id)) return [];
    if (list === undefined) map.set(rel.eventId, [event]);
    else list.push(event);
    this.targetOf.set(event.event_id, rel.eventId);
    return [rel.eventId];
  }

  /** The edits of a target that are not redacted. */
  editsOf(eventId: string): ClientEventWithoutRoomId[] {
    return (this.edits.get(eventId) ?? []).filter((e) => !this.redactions.has(e.event_id));
  }

  /** The reactions on a target (redacted ones are filtered by the aggregation). */
  reactionsOf(eventId: string): readonly ClientEventWithoutRoomId[] {
    return this.reactions.get(eventId) ?? [];
  }

  /** The ids of redacted events, for the reaction aggregation. */
  redactedIds(): ReadonlySet<string> {
    return new Set(this.redactions.keys());
  }

  /** Whether an event is only an aggregation (edit or reaction) of another. */
  static isAggregation(event: ClientEventWithoutRoomId): boolean {
    const relType = relationOf(event)?.relType;
    return relType !== undefined && AGGREGATED_REL_TYPES.has(relType);
  }
}
