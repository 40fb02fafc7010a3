/**
 * Contract cases of reading a room: messages, context, one event, state, one
 * state event, members, joined members and timestamp_to_event.
 */
import type { ContractCase } from "../types";
import { R, createEvent, enc, ids, memberEvent, messageEvent, nameEvent } from "./contract-fixtures";
import * as api from "../../../src/api/timeline";

const lazyFilter = { lazy_load_members: true, types: ["m.room.message"] };

export const cases: ContractCase[] = [
  {
    name: "messages",
    call: (http) =>
      api.messages(http, ids.roomId, {
        from: "t47429-4392820",
        to: "t1-2",
        dir: "b",
        limit: 30,
        filter: lazyFilter,
      }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v3/rooms/${R}/messages`,
      query: {
        from: "t47429-4392820",
        to: "t1-2",
        dir: "b",
        limit: "30",
        filter: JSON.stringify(lazyFilter),
      },
    },
    response: {
      body: {
        start: "t47429-4392820",
        end: "t47409-4357353",
        chunk: [messageEvent()],
        state: [memberEvent(ids.otherUserId)],
      },
    },
  },
  {
    name: "eventContext",
    call: (http) => api.eventContext(http, ids.roomId, ids.eventId, { limit: 2, filter: lazyFilter }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v3/rooms/${R}/context/${enc(ids.eventId)}`,
      query: { limit: "2", filter: JSON.stringify(lazyFilter) },
    },
    response: {
      body: {
        start: "t27-54_2_0_2",
        end: "t29-57_2_0_2",
        events_before: [messageEvent({ event_id: "$before:example.org" })],
        event: messageEvent(),
        events_after: [messageEvent({ event_id: "$after:example.org" })],
        state: [createEvent(), memberEvent()],
      },
    },
  },
  {
    name: "getEvent",
    call: (http) => api.getEvent(http, ids.roomId, ids.eventId),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/event/${enc(ids.eventId)}` },
    response: { body: messageEvent() },
  },
  {
    name: "roomState",
    call: (http) => api.roomState(http, ids.roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/state` },
    response: { body: [createEvent(), memberEvent(), nameEvent()] },
  },
  {
    name: "getStateEvent",
    call: (http) => api.getStateEvent(http, ids.roomId, "m.room.name"),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/state/m.room.name/` },
    response: { body: { name: "Example room name" } },
  },
  {
    name: "members",
    call: (http) =>
      api.members(http, ids.roomId, { at: "t1-2", membership: "join", not_membership: "leave" }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v3/rooms/${R}/members`,
      query: { at: "t1-2", membership: "join", not_membership: "leave" },
    },
    response: { body: { chunk: [memberEvent(), memberEvent(ids.otherUserId)] } },
  },
  {
    name: "joinedMembers",
    call: (http) => api.joinedMembers(http, ids.roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/joined_members` },
    response: {
      body: {
        joined: { [ids.userId]: { display_name: "Alice", avatar_url: "mxc://example.org/SEsfnsuifSDFSSEF" } },
      },
    },
  },
  {
    name: "timestampToEvent",
    call: (http) => api.timestampToEvent(http, ids.roomId, 1432684800000, "b"),
    expect: {
      method: "GET",
      path: `/_matrix/client/v1/rooms/${R}/timestamp_to_event`,
      query: { ts: "1432684800000", dir: "b" },
    },
    response: { body: { event_id: ids.eventId, origin_server_ts: 1432735824653 } },
  },
];
