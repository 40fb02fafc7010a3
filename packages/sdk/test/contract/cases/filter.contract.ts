/**
 * Contract cases of the filter family.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/filter";
import type { Filter } from "../../../src/api/types/filter";

const userId = "@alice:example.com";
const U = encodeURIComponent(userId);
const filter: Filter = {
  room: {
    state: { types: ["m.room.*"], not_rooms: ["!726s6s6q:example.com"], lazy_load_members: true },
    timeline: { limit: 10, types: ["m.room.message"], not_senders: ["@spam:example.com"] },
    ephemeral: { types: ["m.receipt", "m.typing"] },
    account_data: { types: ["m.tag"] },
    include_leave: false,
  },
  presence: { types: ["m.presence"], not_senders: ["@alice:example.com"] },
  account_data: { types: ["m.push_rules"] },
  event_format: "client",
  event_fields: ["type", "content", "sender"],
};

export const cases: ContractCase[] = [
  {
    name: "createFilter",
    call: (http) => api.createFilter(http, userId, filter),
    expect: { method: "POST", path: `/_matrix/client/v3/user/${U}/filter`, body: filter },
    response: { body: { filter_id: "66696p746572" } },
  },
  {
    name: "getFilter",
    call: (http) => api.getFilter(http, userId, "66696p746572"),
    expect: { method: "GET", path: `/_matrix/client/v3/user/${U}/filter/66696p746572` },
    response: { body: filter },
  },
];
