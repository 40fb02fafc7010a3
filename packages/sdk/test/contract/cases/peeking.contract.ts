/**
 * Contract cases of peeking: the room initial sync and GET /events.
 */
import type { ContractCase } from "../types";
import { R, createEvent, ids, memberEvent, messageEvent } from "./contract-fixtures";
import * as api from "../../../src/api/peeking";

export const cases: ContractCase[] = [
  {
    name: "roomInitialSync",
    call: (http) => api.roomInitialSync(http, ids.roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/rooms/${R}/initialSync` },
    response: {
      body: {
        room_id: ids.roomId,
        membership: "join",
        visibility: "private",
        messages: { start: "t44-3453_9_0", end: "s3456_9_0", chunk: [messageEvent()] },
        state: [createEvent(), memberEvent()],
        account_data: [{ type: "m.tag", content: { tags: { work: { order: 1 } } } }],
      },
    },
  },
  {
    name: "peekEvents",
    call: (http) => api.peekEvents(http, { roomId: ids.roomId, from: "s3456_9_0" }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/events",
      query: { room_id: ids.roomId, timeout: "30000", from: "s3456_9_0" },
    },
    response: { body: { start: "s3456_9_0", end: "s3457_9_0", chunk: [messageEvent()] } },
  },
];
