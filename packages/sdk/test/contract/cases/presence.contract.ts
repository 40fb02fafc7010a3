/**
 * Contract cases of the presence family.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/presence";

const userId = "@alice:example.com";
const U = encodeURIComponent(userId);

export const cases: ContractCase[] = [
  {
    name: "setPresence",
    call: (http) => api.setPresence(http, userId, "online", "I am here."),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/presence/${U}/status`,
      body: { presence: "online", status_msg: "I am here." },
    },
    response: { body: {} },
  },
  {
    name: "getPresence",
    call: (http) => api.getPresence(http, userId),
    expect: { method: "GET", path: `/_matrix/client/v3/presence/${U}/status` },
    response: { body: { presence: "unavailable", last_active_ago: 420845 } },
  },
];
