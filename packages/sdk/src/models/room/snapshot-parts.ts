/**
 * Pure pieces of a Room: the sync summary in the wire form the room-name
 * rules read, the tags of an m.tag event, and the in-place replacement of a
 * late-decrypted event in a list of kept events.
 */
import type { BasicEvent, ClientEventWithoutRoomId } from "../../api/types/events";
import type { ParsedSummary } from "../../sync/validate/types";
import { isJsonObject, own } from "../json";
import { isRedacted } from "../redaction";

/** The summary in its wire form, for room-name.ts. */
export function summaryJson(summary: ParsedSummary): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (summary.heroes !== undefined) out["m.heroes"] = summary.heroes;
  if (summary.joinedMemberCount !== undefined) out["m.joined_member_count"] = summary.joinedMemberCount;
  if (summary.invitedMemberCount !== undefined) out["m.invited_member_count"] = summary.invitedMemberCount;
  return out;
}

/** Tags from m.tag content (untrusted): name -> { order }. */
export function tagsOf(event: BasicEvent | undefined): ReadonlyMap<string, { order?: number }> {
  const out = new Map<string, { order?: number }>();
  const tags = own(event?.content, "tags");
  if (!isJsonObject(tags)) return out;
  for (const [name, data] of Object.entries(tags)) {
    const order = own(data, "order");
    out.set(name, typeof order === "number" && Number.isFinite(order) ? { order } : {});
  }
  return out;
}

/** Replaces the event of the same id in `events` (unless redacted meanwhile); whether it did. */
export function replaceHeldEvent(
  events: ClientEventWithoutRoomId[],
  event: ClientEventWithoutRoomId,
): boolean {
  const i = events.findIndex((e) => e.event_id === event.event_id);
  const old = events[i];
  if (old === undefined || isRedacted(old)) return false;
  events[i] = event;
  return true;
}
