/**
 * Contract cases of relations, one per path shape.
 */
import type { ContractCase } from "../types";
import { R, enc, ids, messageEvent } from "./contract-fixtures";
import * as api from "../../../src/api/relations";

const base = `/_matrix/client/v1/rooms/${R}/relations/${enc(ids.eventId)}`;
const reply = messageEvent({
  event_id: "$reply:example.org",
  content: {
    msgtype: "m.text",
    body: "in thread",
    "m.relates_to": { rel_type: "m.thread", event_id: ids.eventId },
  },
});
const body = { chunk: [reply], next_batch: "page2_token", prev_batch: "page1_token" };

export const cases: ContractCase[] = [
  {
    name: "relations",
    call: (http) => api.relations(http, ids.roomId, ids.eventId, { limit: 10, dir: "b", recurse: true }),
    expect: { method: "GET", path: base, query: { limit: "10", dir: "b", recurse: "true" } },
    response: { body: { ...body, recursion_depth: 1 } },
  },
  {
    name: "relations (relType)",
    call: (http) =>
      api.relations(http, ids.roomId, ids.eventId, { relType: "m.thread", from: "page1_token" }),
    expect: { method: "GET", path: `${base}/m.thread`, query: { from: "page1_token" } },
    response: { body },
  },
  {
    name: "relations (relType, eventType)",
    call: (http) =>
      api.relations(http, ids.roomId, ids.eventId, {
        relType: "m.thread",
        eventType: "m.room.message",
        to: "page3_token",
        dir: "f",
      }),
    expect: {
      method: "GET",
      path: `${base}/m.thread/m.room.message`,
      query: { to: "page3_token", dir: "f" },
    },
    response: { body },
  },
];
