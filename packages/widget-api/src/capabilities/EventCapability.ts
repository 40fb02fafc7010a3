/**
 * Event capabilities: permission to send or receive room events, state
 * events, to-device messages and room account data, by event type.
 *
 * Wire format (MSC2762, MSC3819, Beeper's room account data):
 *   org.matrix.msc2762.{send|receive}.event:<type>
 *   org.matrix.msc2762.{send|receive}.event:m.room.message#<msgtype>
 *   org.matrix.msc2762.{send|receive}.state_event:<type>[#<state key>]
 *   org.matrix.msc3819.{send|receive}.to_device:<type>
 *   com.beeper.capabilities.receive.room_account_data:<type>
 *
 * `#` separates the event type from the state key or msgtype; a `#` inside
 * the event type is written `\#`. Everything after the first unescaped `#`
 * is the key, taken literally (so `m.room.message##m.text` is msgtype `#m.text`).
 *
 * Matching:
 * - a bare `m.room.message` capability (no `#`) covers every msgtype, and
 *   messages without a msgtype;
 * - `m.room.message#` (an empty msgtype) covers only messages whose msgtype
 *   is exactly the empty string: it does NOT widen to all msgtypes, and does
 *   not cover messages with no msgtype at all;
 * - `m.room.message#m.text` covers only msgtype `m.text`;
 * - other room event types ignore msgtype (a `#` in them is part of the type);
 * - a state capability without `#` covers every state key; `type#` covers
 *   only the empty state key; `type#key` only that key.
 */

/** send or receive. */
export type EventDirection = "send" | "receive";

/** What kind of event a capability governs. */
export type EventKind = "event" | "state_event" | "to_device" | "room_account";

/** A parsed event capability. keyStr null means "any state key / any msgtype". */
export interface EventCapability {
  readonly direction: EventDirection;
  readonly kind: EventKind;
  readonly eventType: string;
  readonly keyStr: string | null;
  readonly raw: string;
}

const PREFIXES: readonly [string, EventDirection, EventKind][] = [
  ["org.matrix.msc2762.send.event:", "send", "event"],
  ["org.matrix.msc2762.receive.event:", "receive", "event"],
  ["org.matrix.msc2762.send.state_event:", "send", "state_event"],
  ["org.matrix.msc2762.receive.state_event:", "receive", "state_event"],
  ["org.matrix.msc3819.send.to_device:", "send", "to_device"],
  ["org.matrix.msc3819.receive.to_device:", "receive", "to_device"],
  ["com.beeper.capabilities.receive.room_account_data:", "receive", "room_account"],
];

const ROOM_MESSAGE = "m.room.message";

/** Splits `type#key` at the first unescaped `#`, unescaping `\#` in the type. */
function splitKey(segment: string): { type: string; key: string | null } {
  let type = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "\\" && segment[i + 1] === "#") {
      type += "#";
      i++;
    } else if (c === "#") {
      return { type, key: segment.slice(i + 1) };
    } else {
      type += c;
    }
  }
  return { type, key: null };
}

/** Parses one capability string; null when it is not an event capability. */
export function parseEventCapability(raw: string): EventCapability | null {
  for (const [prefix, direction, kind] of PREFIXES) {
    if (!raw.startsWith(prefix)) continue;
    const segment = raw.slice(prefix.length);
    if (kind === "state_event") {
      const { type, key } = splitKey(segment);
      return { direction, kind, eventType: type, keyStr: key, raw };
    }
    if (kind === "event" && segment.startsWith(`${ROOM_MESSAGE}#`)) {
      return {
        direction,
        kind,
        eventType: ROOM_MESSAGE,
        keyStr: segment.slice(ROOM_MESSAGE.length + 1),
        raw,
      };
    }
    return { direction, kind, eventType: segment, keyStr: null, raw };
  }
  return null;
}

/** Every event capability among `capabilities`. */
export function findEventCapabilities(capabilities: Iterable<string>): EventCapability[] {
  const out: EventCapability[] = [];
  for (const c of capabilities) {
    const parsed = parseEventCapability(c);
    if (parsed) out.push(parsed);
  }
  return out;
}

/** Does `cap` allow a room event of `eventType` (with `msgtype` for m.room.message)? */
export function matchesRoomEvent(
  cap: EventCapability,
  direction: EventDirection,
  eventType: string,
  msgtype: unknown,
): boolean {
  if (cap.kind !== "event" || cap.direction !== direction || cap.eventType !== eventType) return false;
  if (eventType !== ROOM_MESSAGE || cap.keyStr === null) return true;
  return typeof msgtype === "string" && cap.keyStr === msgtype;
}

/** Does `cap` allow a state event of `eventType` with `stateKey` (null: any key asked for)? */
export function matchesStateEvent(
  cap: EventCapability,
  direction: EventDirection,
  eventType: string,
  stateKey: string | null,
): boolean {
  if (cap.kind !== "state_event" || cap.direction !== direction || cap.eventType !== eventType) return false;
  return cap.keyStr === null || cap.keyStr === stateKey;
}

/** Does `cap` allow a to-device message or room account data of `eventType`? */
export function matchesTypeOnly(
  cap: EventCapability,
  kind: "to_device" | "room_account",
  direction: EventDirection,
  eventType: string,
): boolean {
  return cap.kind === kind && cap.direction === direction && cap.eventType === eventType;
}

function escapeType(eventType: string): string {
  return eventType.replace(/#/g, "\\#");
}

/** Capability string for state events of a type, optionally one state key. */
export function stateEventCapability(
  direction: EventDirection,
  eventType: string,
  stateKey?: string,
): string {
  const key = stateKey === undefined ? "" : `#${stateKey}`;
  return `org.matrix.msc2762.${direction}.state_event:${escapeType(eventType)}${key}`;
}

/** Capability string for room events of a type (any msgtype for m.room.message). */
export function roomEventCapability(direction: EventDirection, eventType: string): string {
  return `org.matrix.msc2762.${direction}.event:${eventType}`;
}

/** Capability string for m.room.message with one msgtype (undefined: the bare capability). */
export function roomMessageCapability(direction: EventDirection, msgtype?: string): string {
  return msgtype === undefined
    ? roomEventCapability(direction, ROOM_MESSAGE)
    : `org.matrix.msc2762.${direction}.event:${ROOM_MESSAGE}#${msgtype}`;
}

/** Capability string for to-device messages of a type. */
export function toDeviceCapability(direction: EventDirection, eventType: string): string {
  return `org.matrix.msc3819.${direction}.to_device:${eventType}`;
}

/** Capability string for reading room account data of a type. */
export function roomAccountDataCapability(eventType: string): string {
  return `com.beeper.capabilities.receive.room_account_data:${eventType}`;
}
