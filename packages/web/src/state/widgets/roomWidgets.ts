/**
 * The room's widgets read out of its state (SPEC §3): `m.widget` and the
 * legacy `im.vector.modular.widgets` events, validated by widget-api's
 * parser (id from the state key, creator falling back to the sender, a type
 * and an http(s) url, else the event is no widget). A state key present
 * under both types is read from `m.widget`. Each widget carries whether it
 * is trusted: its event's sender (not the content's creatorUserId, which
 * anyone can write) is the user, or holds the power level the room now asks
 * for that event type; an untrusted widget is loaded only after a click.
 */
import { parseRoomWidget, widgetOrigin } from "@lattice/widget-api";
import type { WidgetDefinition } from "@lattice/widget-api";
import type { RoomSnapshot } from "../../sdk";

/** The stable and the legacy widget state event types. */
export const WIDGET_EVENT_TYPES = ["m.widget", "im.vector.modular.widgets"] as const;

/** One of the widget state event types. */
export type WidgetEventType = (typeof WIDGET_EVENT_TYPES)[number];

/** The type new widgets are written as: the one every client of the field reads. */
export const WRITE_WIDGET_EVENT_TYPE: WidgetEventType = "im.vector.modular.widgets";

/** Widget types that may use the camera, the microphone and screen capture. */
export const CALL_WIDGET_TYPES: ReadonlySet<string> = new Set(["m.call", "m.jitsi", "jitsi"]);

/** A widget of the room as the app shows it. */
export interface RoomWidget {
  readonly id: string;
  readonly definition: WidgetDefinition;
  /** The state event type it was read from (edits and removal write the same one). */
  readonly eventType: WidgetEventType;
  /** Who sent the state event. */
  readonly sender: string;
  /** Its name, or its type when it has none. */
  readonly label: string;
  readonly type: string;
  /** The origin of its url, shown to the user next to it. */
  readonly origin: string;
  /** Whether the widget type is a call (the frame may get camera and microphone). */
  readonly isCall: boolean;
  /** Sent by the user, or by someone at the power level the event type needs now. */
  readonly trusted: boolean;
}

/** The room's valid widgets, by id, in state key order. */
export function widgetsOfRoom(room: RoomSnapshot, me: string): RoomWidget[] {
  const byId = new Map<string, RoomWidget>();
  const levels = room.state.powerLevels;
  // Legacy first, so an m.widget under the same state key replaces it.
  for (const eventType of [...WIDGET_EVENT_TYPES].reverse()) {
    for (const entry of room.state.ofType(eventType).values()) {
      const definition = parseRoomWidget(entry);
      if (definition === null) continue;
      const sender = entry.sender;
      const required = levels.requiredForEvent(eventType, true);
      const trusted = sender === me || levels.userLevel(sender) >= required;
      byId.set(definition.id, {
        id: definition.id,
        definition,
        eventType,
        sender,
        label: definition.name !== undefined && definition.name !== "" ? definition.name : definition.type,
        type: definition.type,
        origin: widgetOrigin(definition),
        isCall: CALL_WIDGET_TYPES.has(definition.type),
        trusted,
      });
    }
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Two lists hold the same widgets (so an unrelated state change publishes nothing). */
export function sameWidgets(a: readonly RoomWidget[], b: readonly RoomWidget[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((w, i) => {
    const o = b[i];
    return (
      o !== undefined &&
      o.id === w.id &&
      o.eventType === w.eventType &&
      o.sender === w.sender &&
      o.trusted === w.trusted &&
      o.label === w.label &&
      o.type === w.type &&
      o.definition.url === w.definition.url &&
      o.definition.waitForIframeLoad === w.definition.waitForIframeLoad &&
      JSON.stringify(o.definition.data) === JSON.stringify(w.definition.data)
    );
  });
}
