/** Room events, state events and to-device messages as they cross the widget boundary. */

/** A room (or state) event in client-server API shape. */
export interface RoomEvent {
  type: string;
  sender: string;
  event_id: string;
  room_id: string;
  state_key?: string;
  origin_server_ts: number;
  content: Record<string, unknown>;
  unsigned?: Record<string, unknown>;
  /** A redaction's target, top-level in room versions before 11 (widgets such as Element Call read it there). */
  redacts?: string;
}

/** A to-device message as fed to the widget. */
export interface ToDeviceMessage {
  type: string;
  sender: string;
  content: Record<string, unknown>;
  encrypted?: boolean;
}

/** A room account data entry. */
export interface RoomAccountData {
  type: string;
  room_id: string;
  content: Record<string, unknown>;
}
