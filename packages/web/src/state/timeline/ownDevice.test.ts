/**
 * The own device's verification feeds the UTD category "your own device is
 * not verified": only a positively unverified device gets it.
 */
import { describe, expect, it } from "vitest";
import {
  ownDeviceVerification,
  ownDeviceVerifiedOf,
  recheckOwnDeviceVerification,
  type OwnDeviceClient,
} from "./ownDevice";
import { undecryptableEvent } from "@lattice/sdk/crypto/decrypt";
import { explainUtd } from "./utd";

function clientWith(devices: { deviceId: string; verification: number }[], enabled = true): OwnDeviceClient {
  return {
    userId: "@alice:example.org",
    deviceId: "ALICEDEV",
    crypto: { enabled, getUserDevices: () => Promise.resolve(devices) },
  };
}

/** A stand-in sent before this device existed (the crypto layer's historical code). */
const historical = undecryptableEvent(
  {
    event_id: "$utd",
    type: "m.room.encrypted",
    sender: "@bob:example.org",
    origin_server_ts: 1000,
    content: { algorithm: "m.megolm.v1.aes-sha2", ciphertext: "AAAA", session_id: "s1" },
  },
  {
    code: "historical_message",
    reason: "This message was sent before this device signed in.",
    expected: true,
  },
).event;

describe("ownDeviceVerifiedOf", () => {
  it("is false for an unverified own device, true for a verified one, undefined when unknown", async () => {
    expect(await ownDeviceVerifiedOf(clientWith([{ deviceId: "ALICEDEV", verification: 0 }]))).toBe(false);
    expect(await ownDeviceVerifiedOf(clientWith([{ deviceId: "ALICEDEV", verification: 1 }]))).toBe(true);
    expect(await ownDeviceVerifiedOf(clientWith([{ deviceId: "OTHER", verification: 1 }]))).toBe(undefined);
    expect(await ownDeviceVerifiedOf(clientWith([], false))).toBe(undefined);
  });

  it("selects the own-unverified UTD category through explainUtd", async () => {
    const verified = await ownDeviceVerifiedOf(clientWith([{ deviceId: "ALICEDEV", verification: 0 }]));
    const ctx = verified !== undefined ? { ownDeviceVerified: verified } : {};
    const kind = explainUtd(historical, ctx)?.kind;
    expect(kind).toBe("own_unverified");
  });
});

describe("ownDeviceVerification", () => {
  it("reads the device list once per client, however many timelines ask", async () => {
    let lookups = 0;
    let verification = 0;
    const client: OwnDeviceClient = {
      userId: "@alice:example.org",
      deviceId: "ALICEDEV",
      crypto: {
        enabled: true,
        getUserDevices: () => {
          lookups++;
          return Promise.resolve([{ deviceId: "ALICEDEV", verification }]);
        },
      },
    };
    const first = ownDeviceVerification(client);
    const second = ownDeviceVerification(client);
    expect(second).toBe(first);
    await new Promise<void>((resolve) => {
      const stop = first.subscribe(() => {
        stop();
        resolve();
      });
    });
    expect(first.getSnapshot()).toBe(false);
    expect(ownDeviceVerification(client).getSnapshot()).toBe(false);
    expect(lookups).toBe(1);
    // A verification of our own sessions finished: read again, every timeline sees it.
    verification = 1;
    recheckOwnDeviceVerification(client);
    await new Promise<void>((resolve) => {
      const stop = first.subscribe(() => {
        stop();
        resolve();
      });
    });
    expect(second.getSnapshot()).toBe(true);
    expect(lookups).toBe(2);
  });
});
