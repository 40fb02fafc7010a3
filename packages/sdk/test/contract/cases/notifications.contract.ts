/**
 * Contract cases of the notification list.
 */
import type { ContractCase } from "../types";
import { ids, messageEvent } from "./contract-fixtures";
import * as api from "../../../src/api/notifications";

const { room_id: _roomId, ...event } = messageEvent();

export const cases: ContractCase[] = [
  {
    name: "notifications",
    call: (http) => api.notifications(http, { from: "abcdef", limit: 30, only: "highlight" }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v3/notifications",
      query: { from: "abcdef", limit: "30", only: "highlight" },
    },
    response: {
      body: {
        next_token: "abcdeg",
        notifications: [
          {
            actions: ["notify"],
            profile_tag: "hcbvkzxhcvb",
            read: true,
            room_id: ids.roomId,
            ts: 1475508881945,
            event,
          },
        ],
      },
    },
  },
];
