/**
 * Events from /messages, /context, /threads and /relations are untrusted
 * JSON: only objects with the fields the timeline reads are let in, so a
 * hostile or broken answer is dropped rather than crashing a timeline.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { isJsonObject } from "../json";

/** Whether a value has the shape of a room event (event_id, type, sender, origin_server_ts, content). */
export function isUsableEvent(value: unknown): value is ClientEventWithoutRoomId {
  if (!isJsonObject(value)) return false;
  const ts = value["origin_server_ts"];
  const stateKey = value["state_key"];
  const unsigned = value["unsigned"];
  return (
    typeof value["event_id"] === "string" &&
    value["event_id"] !== "" &&
    typeof value["type"] === "string" &&
    typeof value["sender"] === "string" &&
    typeof ts === "number" &&
    Number.isFinite(ts) &&
    isJsonObject(value["content"]) &&
    (stateKey === undefined || typeof stateKey === "string") &&
    (unsigned === undefined || isJsonObject(unsigned))
  );
}

/** The usable events of an answer's list (anything else gives none). */
export function usableEvents(list: unknown): ClientEventWithoutRoomId[] {
  return Array.isArray(list) ? list.filter(isUsableEvent) : [];
}
