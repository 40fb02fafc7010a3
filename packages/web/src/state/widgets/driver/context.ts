/**
 * What the driver's parts share: the SDK client, the room a request
 * without room_id goes to, and a transaction id source. The parts are
 * plain functions over this context (one file per family of actions), so
 * SdkWidgetDriver stays a thin table.
 */
import type { RoomEvent } from "@lattice/widget-api";
import type { Client, ClientEventWithoutRoomId } from "../../../sdk";
import { WidgetHostError } from "../errors";

/** The parts of the SDK client a widget driver uses. */
export type WidgetClient = Pick<
  Client,
  | "userId"
  | "deviceId"
  | "http"
  | "rooms"
  | "sendQueue"
  | "toDevice"
  | "crypto"
  | "voip"
  | "rtc"
  | "sync"
  | "onToDevice"
  | "versions"
  | "serverFeatures"
>;

/** Shared by the driver's parts. */
export interface DriverContext {
  readonly client: WidgetClient;
  /** The widget's room; null for an account widget. */
  readonly roomId: string | null;
  /** The room the user views (where an account widget's sends go). */
  viewedRoomId(): string | null;
  /** A fresh transaction id. */
  txnId(): string;
  /** Aborted when the widget's session ends: background work for it (to-device retries) stops. */
  readonly closed: AbortSignal;
}

/** The room a request without room_id is about: the widget's own, else the viewed one. */
export function defaultRoom(ctx: DriverContext): string {
  const roomId = ctx.roomId ?? ctx.viewedRoomId();
  if (roomId === null) throw new WidgetHostError("no_room", "No room to act in");
  return roomId;
}

/** A JSON copy: what crosses to the widget is plain data, never a live SDK object. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** An SDK event in the widget API's shape (room_id added, only the client-server fields). */
export function toWidgetEvent(event: ClientEventWithoutRoomId, roomId: string): RoomEvent {
  const out: RoomEvent = {
    type: event.type,
    sender: event.sender,
    event_id: event.event_id,
    room_id: roomId,
    origin_server_ts: event.origin_server_ts,
    content: plain(event.content),
  };
  if (typeof event.state_key === "string") out.state_key = event.state_key;
  if (event.unsigned !== undefined) out.unsigned = plain(event.unsigned);
  // Without it a widget cannot tell what a redaction removed (Element Call's lowered hands stayed up).
  if (typeof event.redacts === "string") out.redacts = event.redacts;
  return out;
}

/** Whether an event is still ciphertext (undecryptable so far): never shown to a widget. */
export function isCiphertext(event: { type: string }): boolean {
  return event.type === "m.room.encrypted";
}
