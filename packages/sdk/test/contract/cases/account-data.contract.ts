/**
 * Contract cases of the account data and tags family: what the server must
 * receive for each call and a spec-valid answer.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/account-data";

const userId = "@alice:example.com";
const roomId = "!726s6s6q:example.com";
const U = encodeURIComponent(userId);
const R = encodeURIComponent(roomId);

export const cases: ContractCase[] = [
  {
    name: "setAccountData",
    call: (http) => api.setAccountData(http, userId, "org.example.custom.config", { custom_key: "value" }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/user/${U}/account_data/org.example.custom.config`,
      body: { custom_key: "value" },
    },
    response: { body: {} },
  },
  {
    name: "getAccountData",
    call: (http) => api.getAccountData(http, userId, "org.example.custom.config"),
    expect: { method: "GET", path: `/_matrix/client/v3/user/${U}/account_data/org.example.custom.config` },
    response: { body: { custom_account_data_key: "custom_config_value" } },
    check: (result) => {
      if ((result as Record<string, unknown>)["custom_account_data_key"] !== "custom_config_value") {
        throw new Error("account data content not returned");
      }
    },
  },
  {
    name: "deleteAccountData",
    call: (http) => api.deleteAccountData(http, userId, "org.example.custom.config"),
    expect: {
      method: "DELETE",
      path: `/_matrix/client/unstable/org.matrix.msc3391/user/${U}/account_data/org.example.custom.config`,
    },
    response: { body: {} },
    noSpec: "MSC3391 account data deletion: unstable endpoint, not in the spec",
  },
  {
    name: "setRoomAccountData",
    call: (http) =>
      api.setRoomAccountData(http, userId, roomId, "m.fully_read", { event_id: "$abc:example.com" }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/user/${U}/rooms/${R}/account_data/m.fully_read`,
      body: { event_id: "$abc:example.com" },
    },
    response: { body: {} },
  },
  {
    name: "getRoomAccountData",
    call: (http) => api.getRoomAccountData(http, userId, roomId, "org.example.room.config"),
    expect: {
      method: "GET",
      path: `/_matrix/client/v3/user/${U}/rooms/${R}/account_data/org.example.room.config`,
    },
    response: { body: { colour: "blue" } },
  },
  {
    name: "getRoomTags",
    call: (http) => api.getRoomTags(http, userId, roomId),
    expect: { method: "GET", path: `/_matrix/client/v3/user/${U}/rooms/${R}/tags` },
    response: {
      body: { tags: { "m.favourite": { order: 0.1 }, "u.Work": { order: 0.7 }, "u.Customers": {} } },
    },
  },
  {
    name: "setRoomTag",
    call: (http) => api.setRoomTag(http, userId, roomId, "u.work", { order: 0.25 }),
    expect: {
      method: "PUT",
      path: `/_matrix/client/v3/user/${U}/rooms/${R}/tags/u.work`,
      body: { order: 0.25 },
    },
    response: { body: {} },
  },
  {
    name: "deleteRoomTag",
    call: (http) => api.deleteRoomTag(http, userId, roomId, "u.work"),
    expect: { method: "DELETE", path: `/_matrix/client/v3/user/${U}/rooms/${R}/tags/u.work` },
    response: { body: {} },
  },
];
