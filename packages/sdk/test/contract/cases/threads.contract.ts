/**
 * Contract cases of the thread list.
 */
import type { ContractCase } from "../types";
import { R, ids, messageEvent } from "./contract-fixtures";
import * as api from "../../../src/api/threads";

export const cases: ContractCase[] = [
  {
    name: "threads",
    call: (http) =>
      api.threads(http, ids.roomId, { include: "participated", limit: 30, from: "next_batch_token" }),
    expect: {
      method: "GET",
      path: `/_matrix/client/v1/rooms/${R}/threads`,
      query: { include: "participated", limit: "30", from: "next_batch_token" },
    },
    response: {
      body: {
        chunk: [
          messageEvent({
            unsigned: {
              "m.relations": {
                "m.thread": { latest_event: messageEvent(), count: 7, current_user_participated: true },
              },
            },
          }),
        ],
        next_batch: "next_batch_token2",
      },
    },
  },
];
