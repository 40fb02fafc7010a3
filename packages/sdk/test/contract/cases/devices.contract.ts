/**
 * Contract cases of the devices family.
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/devices";

const auth = { type: "m.login.password", session: "xxxxx", password: "hunter2" };

export const cases: ContractCase[] = [
  {
    name: "getDevices",
    call: (http) => api.getDevices(http),
    expect: { method: "GET", path: "/_matrix/client/v3/devices" },
    response: {
      body: {
        devices: [
          {
            device_id: "QBUAZIFURK",
            display_name: "android",
            last_seen_ip: "1.2.3.4",
            last_seen_ts: 1474491775024,
          },
        ],
      },
    },
  },
  {
    name: "getDevice",
    call: (http) => api.getDevice(http, "QBUAZIFURK"),
    expect: { method: "GET", path: "/_matrix/client/v3/devices/QBUAZIFURK" },
    response: { body: { device_id: "QBUAZIFURK", display_name: "android", last_seen_ts: 1474491775024 } },
  },
  {
    name: "updateDevice",
    call: (http) => api.updateDevice(http, "QBUAZIFURK", { display_name: "My other phone" }),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/devices/QBUAZIFURK",
      body: { display_name: "My other phone" },
    },
    response: { body: {} },
  },
  {
    name: "deleteDevice",
    call: (http) => api.deleteDevice(http, "QBUAZIFURK", auth),
    expect: { method: "DELETE", path: "/_matrix/client/v3/devices/QBUAZIFURK", body: { auth } },
    response: { body: {} },
  },
  {
    name: "deleteDevice",
    call: (http) => api.deleteDevice(http, "QBUAZIFURK"),
    expect: { method: "DELETE", path: "/_matrix/client/v3/devices/QBUAZIFURK", body: {} },
    response: { body: {} },
  },
  {
    name: "deleteDevices",
    call: (http) => api.deleteDevices(http, ["QBUAZIFURK", "AUIECTSRND"], auth),
    expect: {
      method: "POST",
      path: "/_matrix/client/v3/delete_devices",
      body: { devices: ["QBUAZIFURK", "AUIECTSRND"], auth },
    },
    response: { body: {} },
  },
];
