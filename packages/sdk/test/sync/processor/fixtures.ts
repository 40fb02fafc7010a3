/**
 * Builders for sync responses and events in the processing tests, plus a
 * logger that records lines.
 */
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";

let counter = 0;

/** A message event with a unique id unless one is given. */
export function message(
  body: string,
  extra: Partial<ClientEventWithoutRoomId> = {},
): ClientEventWithoutRoomId {
  counter += 1;
  return {
    event_id: `$m${counter}`,
    type: "m.room.message",
    sender: "@alice:example.org",
    origin_server_ts: 1_000 + counter,
    content: { msgtype: "m.text", body },
    ...extra,
  };
}

/** A state event. */
export function stateEvent(
  type: string,
  stateKey: string,
  content: Record<string, unknown>,
  extra: Partial<ClientEventWithoutRoomId> = {},
): ClientEventWithoutRoomId {
  counter += 1;
  return {
    event_id: `$s${counter}`,
    type,
    state_key: stateKey,
    sender: "@alice:example.org",
    origin_server_ts: 1_000 + counter,
    content,
    ...extra,
  };
}

/** A member event. */
export function member(userId: string, membership = "join"): ClientEventWithoutRoomId {
  return stateEvent("m.room.member", userId, { membership }, { sender: userId });
}

/** A recording logger. */
export function recordingLogger() {
  const lines: string[] = [];
  const record = (message: string): void => {
    lines.push(message);
  };
  return { lines, info: record, warn: record, error: record };
}
