/**
 * Contract cases of sending: a timeline event, a state event (with and
 * without a state key) and a redaction.
 */
import type { ContractCase } from "../types";
import { R, enc, ids } from "./contract-fixtures";
import * as api from "../../../src/api/send";

export const cases: ContractCase[] = [
  {
    name: "sendEvent",
    call: (http) =>
      api.sendEvent(http, ids.roomId, "m.room.message", "m1700000000000.0", {
        msgtype: "m.text",
        body: "hello",
      }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/send/m.room.message/m1700000000000.0`,
      body: { msgtype: "m.text", body: "hello" },
    },
    response: { body: { event_id: "$YUwRidLecu:example.org" } },
  },
  {
    name: "sendStateEvent",
    call: (http) =>
      api.sendStateEvent(
        http,
        ids.roomId,
        "m.room.member",
        { membership: "join", displayname: "Alice" },
        ids.userId,
      ),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/state/m.room.member/${enc(ids.userId)}`,
      body: { membership: "join", displayname: "Alice" },
    },
    response: { body: { event_id: "$YUwRidLecu:example.org" } },
  },
  {
    name: "sendStateEvent (empty state key)",
    call: (http) => api.sendStateEvent(http, ids.roomId, "m.room.name", { name: "Lattice" }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/state/m.room.name/`,
      body: { name: "Lattice" },
    },
    response: { body: { event_id: "$YUwRidLecu:example.org" } },
  },
  {
    name: "redactEvent",
    call: (http) =>
      api.redactEvent(http, ids.roomId, ids.eventId, "m1700000000000.1", { reason: "Indecent material" }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/redact/${enc(ids.eventId)}/m1700000000000.1`,
      body: { reason: "Indecent material" },
    },
    response: { body: { event_id: "$YUwQidLecu:example.org" } },
  },
];
