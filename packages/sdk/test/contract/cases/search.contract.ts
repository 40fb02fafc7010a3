/**
 * Contract cases of server-side search.
 */
import type { ContractCase } from "../types";
import { ids, memberEvent, messageEvent } from "./contract-fixtures";
import * as api from "../../../src/api/search";
import type { SearchRequest } from "../../../src/api/types/search";

const request: SearchRequest = {
  search_categories: {
    room_events: {
      search_term: "martians and men",
      keys: ["content.body"],
      order_by: "recent",
      event_context: { before_limit: 1, after_limit: 1, include_profile: true },
      filter: { limit: 10, rooms: [ids.roomId] },
    },
  },
};

export const cases: ContractCase[] = [
  {
    name: "search",
    call: (http) => api.search(http, request, "YWxsCgpOb25lLDM1ODcwOA"),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/search",
      query: { next_batch: "YWxsCgpOb25lLDM1ODcwOA" },
      body: request,
    },
    response: {
      body: {
        search_categories: {
          room_events: {
            count: 1224,
            highlights: ["martians", "men"],
            next_batch: "BdgFsdfHSf-dsFD",
            results: [
              {
                rank: 0.00424866,
                result: messageEvent({
                  content: {
                    msgtype: "m.text",
                    body: "This is an example text message about martians and men",
                  },
                }),
                context: {
                  start: "t1-2",
                  end: "t3-4",
                  profile_info: {
                    [ids.otherUserId]: { displayname: "Bob", avatar_url: "mxc://example.org/bob" },
                  },
                  events_before: [],
                  events_after: [],
                },
              },
            ],
            state: { [ids.roomId]: [memberEvent()] },
          },
        },
      },
    },
  },
];
