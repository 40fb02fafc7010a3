/**
 * Contract cases of receipts, read markers and typing.
 */
import type { ContractCase } from "../types";
import { R, enc, ids } from "./contract-fixtures";
import * as api from "../../../src/api/receipts";

export const cases: ContractCase[] = [
  {
    name: "sendReceipt",
    call: (http) => api.sendReceipt(http, ids.roomId, "m.read", ids.eventId, ids.threadRootId),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/receipt/m.read/${enc(ids.eventId)}`,
      body: { thread_id: ids.threadRootId },
    },
    response: { body: {} },
  },
  {
    name: "sendReceipt (unthreaded, private)",
    call: (http) => api.sendReceipt(http, ids.roomId, "m.read.private", ids.eventId),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/receipt/m.read.private/${enc(ids.eventId)}`,
      body: {},
    },
    response: { body: {} },
  },
  {
    name: "setReadMarkers",
    call: (http) =>
      api.setReadMarkers(http, ids.roomId, {
        "m.fully_read": "$somewhere:example.org",
        "m.read": ids.eventId,
        "m.read.private": ids.eventId,
      }),
    expect: {
      method: "POST",
      path: `/_matrix/client/v3/rooms/${R}/read_markers`,
      body: {
        "m.fully_read": "$somewhere:example.org",
        "m.read": ids.eventId,
        "m.read.private": ids.eventId,
      },
    },
    response: { body: {} },
  },
  {
    name: "sendTyping",
    call: (http) => api.sendTyping(http, ids.roomId, ids.userId, true),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/typing/${enc(ids.userId)}`,
      body: { typing: true, timeout: 20000 },
    },
    response: { body: {} },
  },
];
