/**
 * Contract case of send-to-device (to_device.yaml).
 */
import type { ContractCase } from "../types";
import * as toDevice from "../../../src/api/to-device";

const messages = {
  "@alice:example.com": { TLLBEANAAG: { example_content_key: "value" }, "*": { all: true } },
};

export const cases: ContractCase[] = [
  {
    name: "sendToDevice",
    call: (http) => toDevice.sendToDevice(http, "m.new_device", "m1700000000000.0", messages),
    expect: {
      method: "PUT",
      path: "/_matrix/client/v3/sendToDevice/m.new_device/m1700000000000.0",
      body: { messages },
    },
    response: { body: {} },
  },
];
