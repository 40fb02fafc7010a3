/**
 * SAS emoji verification between two devices of one user over the test
 * homeserver's to-device messages: the request arrives, is accepted, SAS
 * starts, both sides show the same 7 emojis (names from the spec's table),
 * both confirm, and then each side shows the other device verified (1).
 * The device with the private cross-signing keys signs the new device
 * (an upload to /keys/signatures/upload).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryKeys } from "../../../src/api/keys";
import { CrossSigning } from "../../../src/crypto/cross-signing";
import { DeviceVerification } from "../../../src/crypto/devices";
import { SAS_EMOJI } from "../../../src/crypto/verification/emoji";
import type { VerificationFlow, VerificationPhase } from "../../../src/crypto/verification/VerificationFlow";
import { Verifications } from "../../../src/crypto/verification/Verifications";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { login, openDevice, register, startServer } from "../helpers";
import { pump } from "./pump";

let server: TestServerHandle;
let aliceAccount: Account;
let alice: TestDevice;
let alice2: TestDevice;
let verifs1: Verifications;
let verifs2: Verifications;
const devices: TestDevice[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

beforeAll(async () => {
  server = await startServer(92);
  aliceAccount = await register(server, "alice");
  alice = await open(aliceAccount);
  await new CrossSigning(alice.crypto.internals).bootstrap();
  alice2 = await open(await login(server, aliceAccount));
  verifs1 = new Verifications(alice.crypto);
  verifs2 = new Verifications(alice2.crypto);
  // Each device learns of the other through a device-list change and a key query.
  await pump([alice, alice2], async () => {
    const seen1 = await alice.crypto.getUserDevices(aliceAccount.userId);
    const seen2 = await alice2.crypto.getUserDevices(aliceAccount.userId);
    return seen1.length === 2 && seen2.length === 2;
  });
}, 60_000);

afterAll(async () => {
  verifs1.dispose();
  verifs2.dispose();
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

function phaseIs(flow: VerificationFlow | undefined, ...phases: VerificationPhase[]): boolean {
  return flow !== undefined && phases.includes(flow.state.phase);
}

describe("SAS between two devices of one user", () => {
  it("the same 7 emojis on both sides; both confirm; each shows the other verified (1)", async () => {
    const d1 = aliceAccount.deviceId;
    const d2 = alice2.account.deviceId;
    expect(
      (await alice.crypto.getUserDevices(aliceAccount.userId)).find((d) => d.deviceId === d2)?.verification,
    ).toBe(DeviceVerification.Unverified);
    let incoming: VerificationFlow | undefined;
    verifs2.onRequest((flow) => (incoming = flow));
    const phases1: VerificationPhase[] = [];
    const outgoing = await verifs1.requestDevice(aliceAccount.userId, d2);
    outgoing.subscribe((s) => phases1.push(s.phase));
    expect(outgoing.state).toMatchObject({ phase: "requested", weStarted: true, selfVerification: true });

    await pump([alice2], () => incoming !== undefined);
    const theirs = incoming as VerificationFlow;
    expect(theirs.state).toMatchObject({ phase: "requested", weStarted: false, otherDeviceId: d1 });
    await theirs.accept();
    expect(theirs.state.phase).toBe("ready");
    await pump([alice], () => phaseIs(outgoing, "ready"));

    await outgoing.startSas();
    await pump([alice2], () => phaseIs(theirs, "started"));
    await theirs.startSas();
    await pump([alice, alice2], () => phaseIs(outgoing, "showing_sas") && phaseIs(theirs, "showing_sas"));

    const emojis1 = outgoing.state.emojis ?? [];
    const emojis2 = theirs.state.emojis ?? [];
    expect(emojis1).toHaveLength(7);
    expect(emojis2).toEqual(emojis1);
    for (const e of emojis1) expect(SAS_EMOJI[e.index]).toEqual(e);

    await outgoing.confirm();
    expect(outgoing.state.phase).toBe("confirmed");
    await theirs.confirm();
    await pump([alice, alice2], () => phaseIs(outgoing, "done") && phaseIs(theirs, "done"));
    expect(phases1).toEqual(["ready", "started", "showing_sas", "confirmed", "done"]);

    const seenBy1 = await alice.crypto.getUserDevices(aliceAccount.userId);
    const seenBy2 = await alice2.crypto.getUserDevices(aliceAccount.userId);
    expect(seenBy1.find((d) => d.deviceId === d2)?.verification).toBe(DeviceVerification.Verified);
    expect(seenBy2.find((d) => d.deviceId === d1)?.verification).toBe(DeviceVerification.Verified);

    // The device holding the self-signing key signed the new device on the server.
    await alice.crypto.flush();
    const res = await queryKeys(alice.http, { device_keys: { [aliceAccount.userId]: [d2] } });
    const selfSigning = Object.keys(res.self_signing_keys?.[aliceAccount.userId]?.keys ?? {})[0] ?? "none";
    const sigs = res.device_keys?.[aliceAccount.userId]?.[d2]?.signatures?.[aliceAccount.userId] ?? {};
    expect(Object.keys(sigs)).toContain(selfSigning);
  });
});
