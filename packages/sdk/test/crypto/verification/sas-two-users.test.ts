/**
 * SAS emoji verification between alice and bob (both cross-signed, sharing
 * a room so each sees the other's device list) over to-device messages:
 * both confirm → each shows the other device verified (1) and the other
 * user's identity verified, with the user-signing signature uploaded to
 * /keys/signatures/upload; a mismatch cancels with m.mismatched_sas on both
 * sides; a flow left alone times out with m.timeout on both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryKeys } from "../../../src/api/keys";
import { CrossSigning } from "../../../src/crypto/cross-signing";
import { DeviceVerification } from "../../../src/crypto/devices";
import { IdentityWarnings } from "../../../src/crypto/identity";
import type { VerificationFlow, VerificationPhase } from "../../../src/crypto/verification/VerificationFlow";
import { Verifications } from "../../../src/crypto/verification/Verifications";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { call, openDevice, register, startServer, timelineOf } from "../helpers";
import { pump } from "./pump";

let server: TestServerHandle;
let aliceAccount: Account;
let bobAccount: Account;
let alice: TestDevice;
let bob: TestDevice;
const devices: TestDevice[] = [];
const managers: Verifications[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

function verifications(device: TestDevice, timeoutMs?: number): Verifications {
  const v = new Verifications(device.crypto, timeoutMs !== undefined ? { timeoutMs } : {});
  managers.push(v);
  return v;
}

function phaseIs(flow: VerificationFlow | undefined, ...phases: VerificationPhase[]): boolean {
  return flow !== undefined && phases.includes(flow.state.phase);
}

/** alice asks bob's device; bob accepts; both start SAS and reach showing_sas. */
async function toEmojis(
  va: Verifications,
  vb: Verifications,
): Promise<{ ours: VerificationFlow; theirs: VerificationFlow }> {
  let incoming: VerificationFlow | undefined;
  const off = vb.onRequest((flow) => (incoming = flow));
  const ours = await va.requestDevice(bobAccount.userId, bobAccount.deviceId);
  await pump([bob], () => incoming !== undefined);
  off();
  const theirs = incoming as VerificationFlow;
  await theirs.accept();
  await pump([alice], () => phaseIs(ours, "ready"));
  await ours.startSas();
  await pump([bob], () => phaseIs(theirs, "started"));
  await theirs.startSas();
  await pump([alice, bob], () => phaseIs(ours, "showing_sas") && phaseIs(theirs, "showing_sas"));
  return { ours, theirs };
}

beforeAll(async () => {
  server = await startServer(93);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  await new CrossSigning(alice.crypto.internals).bootstrap();
  await new CrossSigning(bob.crypto.internals).bootstrap();
  // An encrypted room: its members' device lists are tracked.
  const room = await call(server, aliceAccount, "POST", "/createRoom", {
    invite: [bobAccount.userId],
    initial_state: [
      { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
    ],
  });
  await call(server, bobAccount, "POST", `/join/${encodeURIComponent(String(room["room_id"]))}`, {});
  await pump([alice, bob], async () => {
    const a = await alice.crypto.getUserDevices(bobAccount.userId);
    const b = await bob.crypto.getUserDevices(aliceAccount.userId);
    return a.length === 1 && b.length === 1;
  });
}, 60_000);

afterAll(async () => {
  for (const m of managers) m.dispose();
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("SAS between two users", () => {
  it("a mismatch cancels with m.mismatched_sas on both sides", async () => {
    const { ours, theirs } = await toEmojis(verifications(alice), verifications(bob));
    expect(ours.state.emojis).toEqual(theirs.state.emojis);
    await theirs.mismatch();
    expect(theirs.state).toMatchObject({
      phase: "cancelled",
      cancel: { code: "m.mismatched_sas", byUs: true },
    });
    await pump([alice], () => phaseIs(ours, "cancelled"));
    expect(ours.state.cancel).toMatchObject({ code: "m.mismatched_sas", byUs: false });
    const seen = await alice.crypto.getUserDevices(bobAccount.userId);
    expect(seen[0]?.verification).toBe(DeviceVerification.Unverified);
  });

  it("a flow left alone (2 s without progress) times out with m.timeout on both sides", async () => {
    const { ours, theirs } = await toEmojis(verifications(alice, 2000), verifications(bob));
    const cancelled = await ours.whenPhase("cancelled");
    expect(cancelled.cancel).toMatchObject({ code: "m.timeout", byUs: true });
    await pump([bob], () => phaseIs(theirs, "cancelled"));
    expect(theirs.state.cancel).toMatchObject({ code: "m.timeout", byUs: false });
  });

  it("both confirm: devices verified (1) and each user's identity verified, signatures on the server", async () => {
    const { ours, theirs } = await toEmojis(verifications(alice), verifications(bob));
    await Promise.all([ours.confirm(), theirs.confirm()]);
    await pump([alice, bob], () => phaseIs(ours, "done") && phaseIs(theirs, "done"));
    await alice.crypto.flush();
    await bob.crypto.flush();

    expect((await alice.crypto.getUserDevices(bobAccount.userId))[0]?.verification).toBe(1);
    expect((await bob.crypto.getUserDevices(aliceAccount.userId))[0]?.verification).toBe(1);
    const warningsA = await IdentityWarnings.create(alice.crypto.internals);
    const warningsB = await IdentityWarnings.create(bob.crypto.internals);
    // The signatures come back through the server: a device-list change and a key query.
    await pump([alice, bob], async () => {
      const [a, b] = [await warningsA.trust(bobAccount.userId), await warningsB.trust(aliceAccount.userId)];
      return a.verified && b.verified;
    });
    expect(await warningsA.trust(bobAccount.userId)).toMatchObject({ verified: true, warnings: [] });
    expect(await warningsB.trust(aliceAccount.userId)).toMatchObject({ verified: true, warnings: [] });

    // bob's master key carries a signature by alice's user-signing key.
    const res = await queryKeys(alice.http, {
      device_keys: { [aliceAccount.userId]: [], [bobAccount.userId]: [] },
    });
    const userSigning = Object.keys(res.user_signing_keys?.[aliceAccount.userId]?.keys ?? {})[0] ?? "none";
    const bobMaster = res.master_keys?.[bobAccount.userId];
    expect(Object.keys(bobMaster?.signatures?.[aliceAccount.userId] ?? {})).toContain(userSigning);
  });

  it.each([
    ["an encrypted", true],
    ["an unencrypted", false],
  ])(
    "in %s room: the request is a room message, the steps room events; both confirm → done",
    async (_, encrypted) => {
      const encryption = {
        type: "m.room.encryption",
        state_key: "",
        content: { algorithm: "m.megolm.v1.aes-sha2" },
      };
      const dm = String(
        (
          await call(server, aliceAccount, "POST", "/createRoom", {
            invite: [bobAccount.userId],
            is_direct: true,
            initial_state: encrypted ? [encryption] : [],
          })
        )["room_id"],
      );
      await call(server, bobAccount, "POST", `/join/${encodeURIComponent(dm)}`, {});
      const pairs: Array<[TestDevice, Verifications]> = [
        [alice, verifications(alice)],
        [bob, verifications(bob)],
      ];
      /** Syncs both, handing the DM's timeline to each side's verifications, until `done`. */
      const pumpRoom = async (done: () => boolean): Promise<void> => {
        for (let i = 0; i < 12 && !done(); i += 1) {
          for (const [device, v] of pairs) await v.receiveRoomEvents(dm, timelineOf(await device.sync(), dm));
        }
        expect(done()).toBe(true);
      };
      for (const [device] of pairs) await device.sync();
      const [va, vb] = [pairs[0]?.[1] as Verifications, pairs[1]?.[1] as Verifications];
      let incoming: VerificationFlow | undefined;
      vb.onRequest((flow) => (incoming = flow));
      const ours = await va.requestUserInRoom(bobAccount.userId, dm);
      expect(ours.state).toMatchObject({ phase: "requested", otherUserId: bobAccount.userId });
      await pumpRoom(() => incoming !== undefined);
      const theirs = incoming as VerificationFlow;
      expect(theirs.state.flowId).toBe(ours.state.flowId);
      const request = alice.http.requests.find(
        (r) => r.method === "PUT" && decodeURIComponent(r.path).includes(`/rooms/${dm}/send/`),
      );
      if (encrypted) {
        expect(request?.path).toContain("/send/m.room.encrypted/");
        expect(JSON.stringify(request?.body)).not.toContain("m.key.verification");
      } else {
        expect((request?.body as { msgtype?: string } | undefined)?.msgtype).toBe(
          "m.key.verification.request",
        );
      }

      await theirs.accept();
      await pumpRoom(() => phaseIs(ours, "ready"));
      await ours.startSas();
      await pumpRoom(() => phaseIs(theirs, "started"));
      await theirs.startSas();
      await pumpRoom(() => phaseIs(ours, "showing_sas") && phaseIs(theirs, "showing_sas"));
      expect(ours.state.emojis).toHaveLength(7);
      expect(theirs.state.emojis).toEqual(ours.state.emojis);
      await Promise.all([ours.confirm(), theirs.confirm()]);
      await pumpRoom(() => phaseIs(ours, "done") && phaseIs(theirs, "done"));
      for (const [device, v] of pairs) await v.receiveRoomEvents(dm, timelineOf(await device.sync(), dm));
      for (const [device, v] of pairs) await v.receiveRoomEvents(dm, timelineOf(await device.sync(), dm));
      const puts = (d: TestDevice) =>
        d.http.requests.filter(
          (r) => r.method === "PUT" && decodeURIComponent(r.path).includes(`/rooms/${dm}/send/`),
        );
      // bob sent ready, accept, key, mac and done: encrypted in the encrypted room.
      const steps = puts(bob).map((r) => decodeURIComponent(r.path).split("/send/")[1]?.split("/")[0]);
      expect(steps.length).toBeGreaterThanOrEqual(4);
      for (const type of steps) {
        if (encrypted) expect(type).toBe("m.room.encrypted");
        else expect(type).toMatch(/^m\.key\.verification\./);
      }
    },
  );
});
