/**
 * Shared data of the API part 1 contract cases (*.contract.ts): ids and
 * realistic events shaped after the examples of the Matrix specification, so
 * every canned response validates against its operation's schema.
 */
import type { ClientEvent, StateEvent } from "../../../src/api/types/events";

/** Ids used throughout the cases, with their encoded path forms. */
export const ids = {
  userId: "@alice:example.org",
  otherUserId: "@bob:example.org",
  roomId: "!636q39766251:example.org",
  alias: "#monkeys:example.org",
  eventId: "$143273582443PhrSn:example.org",
  threadRootId: "$thread_root:example.org",
} as const;

/** encodeURIComponent, named for reading paths in cases. */
export const enc = encodeURIComponent;

/** Encoded room id, the commonest path segment. */
export const R = enc(ids.roomId);

/** An m.room.message event. */
export function messageEvent(overrides: Partial<ClientEvent> = {}): ClientEvent {
  return {
    type: "m.room.message",
    event_id: ids.eventId,
    room_id: ids.roomId,
    sender: ids.otherUserId,
    origin_server_ts: 1432735824653,
    content: { msgtype: "m.text", body: "This is an example text message" },
    unsigned: { age: 1234 },
    ...overrides,
  };
}

/** An m.room.member state event (join). */
export function memberEvent(userId: string = ids.userId, membership = "join"): StateEvent {
  return {
    type: "m.room.member",
    event_id: "$143273976499sgjks:example.org",
    room_id: ids.roomId,
    sender: userId,
    state_key: userId,
    origin_server_ts: 1432735824653,
    content: {
      membership,
      displayname: "Alice Margatroid",
      avatar_url: "mxc://example.org/SEsfnsuifSDFSSEF",
    },
    unsigned: { age: 1234 },
  };
}

/** An m.room.create state event. */
export function createEvent(): StateEvent {
  return {
    type: "m.room.create",
    event_id: "$143273582443PhrSn:example.org",
    room_id: ids.roomId,
    sender: ids.userId,
    state_key: "",
    origin_server_ts: 1432735824653,
    content: { room_version: "11" },
  };
}

/** An m.room.name state event. */
export function nameEvent(): StateEvent {
  return {
    type: "m.room.name",
    event_id: "$143273582443PhrSm:example.org",
    room_id: ids.roomId,
    sender: ids.userId,
    state_key: "",
    origin_server_ts: 1432735824653,
    content: { name: "The room name" },
  };
}
