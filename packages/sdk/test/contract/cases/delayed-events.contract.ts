/**
 * Contract cases of MSC4140 delayed events (unstable: no spec operation, so
 * the requests are checked against `expect` only).
 */
import type { ContractCase } from "../types";
import { R, ids } from "./contract-fixtures";
import * as api from "../../../src/api/delayed-events";

const noSpec = "MSC4140 unstable";
const prefix = "/_matrix/client/unstable/org.matrix.msc4140";

export const cases: ContractCase[] = [
  {
    name: "sendDelayedEvent",
    call: (http) =>
      api.sendDelayedEvent(
        http,
        ids.roomId,
        "m.room.message",
        "m1700000000000.2",
        { msgtype: "m.text", body: "later" },
        { delayMs: 10000 },
      ),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/send/m.room.message/m1700000000000.2`,
      query: { "org.matrix.msc4140.delay": "10000" },
      body: { msgtype: "m.text", body: "later" },
    },
    response: { body: { delay_id: "syd_abcdef" } },
    noSpec,
  },
  {
    name: "sendDelayedStateEvent",
    call: (http) =>
      api.sendDelayedStateEvent(
        http,
        ids.roomId,
        "org.matrix.msc3401.call.member",
        {},
        { parentDelayId: "syd_abcdef" },
        "_@alice:example.org_DEVICE",
      ),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/rooms/${R}/state/org.matrix.msc3401.call.member/_%40alice%3Aexample.org_DEVICE`,
      query: { "org.matrix.msc4140.parent_delay_id": "syd_abcdef" },
      body: {},
    },
    response: { body: { delay_id: "syd_ghijkl" } },
    noSpec,
  },
  {
    name: "getDelayedEvents",
    call: (http) => api.getDelayedEvents(http),
    expect: { method: "GET", path: `${prefix}/delayed_events` },
    response: {
      body: {
        delayed_events: [
          {
            delay_id: "syd_abcdef",
            room_id: ids.roomId,
            type: "m.room.message",
            delay: 10000,
            running_since: 1700000000000,
            content: { msgtype: "m.text", body: "later" },
          },
        ],
      },
    },
    noSpec,
  },
  {
    name: "updateDelayedEvent",
    call: (http) => api.updateDelayedEvent(http, "syd_abcdef", "restart"),
    expect: { method: "POST", path: `${prefix}/delayed_events/syd_abcdef`, body: { action: "restart" } },
    response: { body: {} },
    noSpec,
  },
];
