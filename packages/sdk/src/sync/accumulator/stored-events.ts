/**
 * Reading events back from our own stored snapshot. They were validated
 * (parseSync) before the accumulator kept them, and the snapshot was written
 * by us, so restoring does only a cheap structural check of each event's
 * top-level fields (enough that nothing downstream can trip over a wrong
 * type) instead of walking every content value again. A failing event is
 * dropped with a log line, as validation would. The stored object itself is
 * kept (deep-frozen, not copied), so a restored snapshot holds one copy of
 * each event.
 */
import type { BasicEvent, ClientEventWithoutRoomId, StrippedStateEvent } from "../../api/types/events";
import type { ParseContext } from "../validate/events";
import { freezeJson, isJsonObject } from "../validate/json";

function drop(ctx: ParseContext, where: string, reason: string, id?: unknown): null {
  ctx.drops.drop(where, reason, id);
  return null;
}

/** A stored timeline or state event; `needsStateKey` for the state list. */
export function storedRoomEvent(
  raw: unknown,
  ctx: ParseContext,
  where: string,
  needsStateKey = false,
): ClientEventWithoutRoomId | null {
  if (!isJsonObject(raw)) return drop(ctx, where, "not an object");
  const id = raw["event_id"];
  if (typeof id !== "string" || !id.startsWith("$")) return drop(ctx, where, "missing or invalid event_id");
  const stateKey = raw["state_key"];
  if (needsStateKey ? typeof stateKey !== "string" : stateKey !== undefined && typeof stateKey !== "string") {
    return drop(ctx, where, "invalid state_key", id);
  }
  if (
    typeof raw["type"] !== "string" ||
    typeof raw["sender"] !== "string" ||
    typeof raw["origin_server_ts"] !== "number" ||
    !isJsonObject(raw["content"]) ||
    (raw["unsigned"] !== undefined && !isJsonObject(raw["unsigned"]))
  ) {
    return drop(ctx, where, "not a stored event", id);
  }
  return freezeJson(raw) as unknown as ClientEventWithoutRoomId;
}

/** A stored account data event (global or of a room). */
export function storedBasicEvent(raw: unknown, ctx: ParseContext, where: string): BasicEvent | null {
  if (!isJsonObject(raw) || typeof raw["type"] !== "string" || !isJsonObject(raw["content"])) {
    return drop(ctx, where, "not a stored event", isJsonObject(raw) ? raw["type"] : undefined);
  }
  return freezeJson(raw) as unknown as BasicEvent;
}

/** A stored invite_state or knock_state event. */
export function storedStrippedEvent(
  raw: unknown,
  ctx: ParseContext,
  where: string,
): StrippedStateEvent | null {
  if (
    !isJsonObject(raw) ||
    typeof raw["type"] !== "string" ||
    typeof raw["state_key"] !== "string" ||
    typeof raw["sender"] !== "string" ||
    !isJsonObject(raw["content"])
  ) {
    return drop(ctx, where, "not a stored event", isJsonObject(raw) ? raw["type"] : undefined);
  }
  return freezeJson(raw) as unknown as StrippedStateEvent;
}
