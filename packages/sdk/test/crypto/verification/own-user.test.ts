/**
 * Cross-signing bootstrap over the test homeserver: the keys land on the
 * server (POST /keys/device_signing/upload, then /keys/signatures/upload),
 * our own device becomes verified (1), a second bootstrap is a no-op, a
 * device without the private keys is refused, and a reset goes through
 * interactive auth with the password stage (a wrong password is asked again).
 * Between those, SAS emoji verification between the two devices of alice
 * over to-device messages: the request arrives, is accepted, SAS starts,
 * both sides show the same 7 emojis (names from the spec's table), both
 * confirm, and each side then shows the other device verified (1); the
 * device holding the self-signing key signs the other on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryKeys } from "../../../src/api/keys";
import { CrossSigning, CrossSigningExistsError } from "../../../src/crypto/cross-signing";
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
const devices: TestDevice[] = [];
const managers: Verifications[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

/** alice's master key as the server hands it out. */
async function serverMasterKey(): Promise<string | undefined> {
  const res = await queryKeys(alice.http, { device_keys: { [aliceAccount.userId]: [] } });
  const master = res.master_keys?.[aliceAccount.userId];
  return master ? Object.values(master.keys)[0] : undefined;
}

beforeAll(async () => {
  server = await startServer(91);
  aliceAccount = await register(server, "alice");
  alice = await open(aliceAccount);
  alice2 = await open(await login(server, aliceAccount));
}, 60_000);

afterAll(async () => {
  for (const v of managers) v.dispose();
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

function phaseIs(flow: VerificationFlow | undefined, ...phases: VerificationPhase[]): boolean {
  return flow !== undefined && phases.includes(flow.state.phase);
}

describe("cross-signing bootstrap and SAS between two devices of alice", () => {
  it("publishes the three keys and signs our device: it shows verified (1)", async () => {
    const cs = new CrossSigning(alice.crypto.internals);
    expect(await cs.status()).toMatchObject({ hasMaster: false, identityKnown: false, deviceSigned: false });
    const asked: string[] = [];
    const result = await cs.bootstrap({
      callbacks: { askPassword: () => (asked.push("pw"), Promise.resolve("unused")) },
    });
    expect(result).toEqual({ created: true });
    // The first upload needs no interactive auth on this server (MSC3967).
    expect(asked).toEqual([]);

    const res = await queryKeys(alice.http, { device_keys: { [aliceAccount.userId]: [] } });
    const id = aliceAccount.userId;
    expect(res.master_keys?.[id]?.usage).toEqual(["master"]);
    expect(res.self_signing_keys?.[id]?.usage).toEqual(["self_signing"]);
    expect(res.user_signing_keys?.[id]?.usage).toEqual(["user_signing"]);
    // Our device keys carry the self-signing key's signature.
    const selfSigning = Object.keys(res.self_signing_keys?.[id]?.keys ?? {})[0] ?? "none";
    const deviceSigs = res.device_keys?.[id]?.[aliceAccount.deviceId]?.signatures?.[id] ?? {};
    expect(Object.keys(deviceSigs)).toContain(selfSigning);

    expect(await cs.status()).toEqual({
      hasMaster: true,
      hasSelfSigning: true,
      hasUserSigning: true,
      identityKnown: true,
      identityVerified: true,
      deviceSigned: true,
    });
    const own = await alice.crypto.getUserDevices(id);
    expect(own.find((d) => d.deviceId === aliceAccount.deviceId)?.verification).toBe(
      DeviceVerification.Verified,
    );
  });

  it("a second bootstrap is a no-op: nothing uploaded, same master key", async () => {
    const before = await serverMasterKey();
    const uploads = alice.http.requests.length;
    const result = await new CrossSigning(alice.crypto.internals).bootstrap();
    expect(result).toEqual({ created: false });
    expect(alice.http.requests.slice(uploads).map((r) => r.path)).not.toContain(
      "/keys/device_signing/upload",
    );
    expect(await serverMasterKey()).toBe(before);
  });

  it("a device without the private keys is refused with a clear error", async () => {
    await alice2.sync();
    const cs = new CrossSigning(alice2.crypto.internals);
    await expect(cs.bootstrap()).rejects.toBeInstanceOf(CrossSigningExistsError);
    expect(await cs.status()).toMatchObject({
      hasMaster: false,
      identityKnown: true,
      identityVerified: false,
    });
  });

  it("the same 7 emojis on both sides; both confirm; each shows the other verified (1)", async () => {
    const d1 = aliceAccount.deviceId;
    const d2 = alice2.account.deviceId;
    expect(
      (await alice.crypto.getUserDevices(aliceAccount.userId)).find((d) => d.deviceId === d2)?.verification,
    ).toBe(DeviceVerification.Unverified);
    const verifs1 = new Verifications(alice.crypto);
    const verifs2 = new Verifications(alice2.crypto);
    managers.push(verifs1, verifs2);
    await pump([alice, alice2], async () => {
      const seen1 = await alice.crypto.getUserDevices(aliceAccount.userId);
      const seen2 = await alice2.crypto.getUserDevices(aliceAccount.userId);
      return seen1.length === 2 && seen2.length === 2;
    });
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

  it("a reset replaces the identity through interactive auth (password, asked again after a wrong one)", async () => {
    const before = await serverMasterKey();
    const asked: Array<string | undefined> = [];
    const cs = new CrossSigning(alice2.crypto.internals);
    const result = await cs.bootstrap({
      reset: true,
      callbacks: {
        askPassword: (info) => {
          asked.push(info.error);
          return Promise.resolve(asked.length === 1 ? "wrong" : aliceAccount.password);
        },
      },
    });
    expect(result).toEqual({ created: true });
    expect(asked).toEqual([undefined, "Invalid username or password"]);
    const after = await serverMasterKey();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(await cs.status()).toMatchObject({ hasMaster: true, identityVerified: true, deviceSigned: true });
    const own = await alice2.crypto.getUserDevices(aliceAccount.userId);
    expect(own.find((d) => d.deviceId === alice2.account.deviceId)?.verification).toBe(
      DeviceVerification.Verified,
    );
  });
});
