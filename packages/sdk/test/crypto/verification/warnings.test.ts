/**
 * Identity and device change warnings over the test homeserver. alice
 * verifies bob (a signature with her user-signing key); bob then adds a
 * device nobody vouched for → alice's watch of bob reports an
 * unverified_device warning, which acknowledging clears; bob resets his
 * cross-signing → identity_changed (previously verified); carol, seen but
 * never verified, resets → identity_changed needing approval, which
 * acknowledging pins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrossSigning } from "../../../src/crypto/cross-signing";
import type { UserTrust } from "../../../src/crypto/identity";
import { IdentityWarnings } from "../../../src/crypto/identity";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { call, login, openDevice, register, startServer } from "../helpers";
import { pump } from "./pump";

let server: TestServerHandle;
let aliceAccount: Account;
let bobAccount: Account;
let carolAccount: Account;
let alice: TestDevice;
let bob: TestDevice;
let carol: TestDevice;
let warnings: IdentityWarnings;
const devices: TestDevice[] = [];
const seen = new Map<string, UserTrust>();

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

beforeAll(async () => {
  server = await startServer(94);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  carolAccount = await register(server, "carol");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  carol = await open(carolAccount);
  for (const d of [alice, bob, carol]) await new CrossSigning(d.crypto.internals).bootstrap();
  const room = await call(server, aliceAccount, "POST", "/createRoom", {
    invite: [bobAccount.userId, carolAccount.userId],
    initial_state: [
      { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
    ],
  });
  for (const who of [bobAccount, carolAccount]) {
    await call(server, who, "POST", `/join/${encodeURIComponent(String(room["room_id"]))}`, {});
  }
  warnings = await IdentityWarnings.create(alice.crypto.internals);
  for (const u of [bobAccount.userId, carolAccount.userId]) warnings.watch(u, (t) => seen.set(u, t));
  await pump(
    [alice, bob, carol],
    () =>
      seen.get(bobAccount.userId)?.hasIdentity === true &&
      seen.get(carolAccount.userId)?.hasIdentity === true,
  );
}, 60_000);

afterAll(async () => {
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("identity and device warnings", () => {
  it("a verified user's new unverified device raises a warning; acknowledging clears it", async () => {
    expect(seen.get(bobAccount.userId)).toMatchObject({ verified: false, warnings: [] });
    // A changes-only watcher: not called with the (unverified) trust now, only after the verification.
    const changes: boolean[] = [];
    const stopChanges = warnings.watch(bobAccount.userId, (t) => changes.push(t.verified), false);
    await warnings.verifyUser(bobAccount.userId);
    await pump([alice, bob], () => seen.get(bobAccount.userId)?.verified === true && changes.length > 0);
    stopChanges();
    expect(changes.every(Boolean)).toBe(true);
    expect(seen.get(bobAccount.userId)?.warnings).toEqual([]);

    const bob2 = await open(await login(server, bobAccount));
    await pump([alice, bob], () => (seen.get(bobAccount.userId)?.warnings.length ?? 0) > 0);
    expect(seen.get(bobAccount.userId)?.warnings).toEqual([
      { kind: "unverified_device", userId: bobAccount.userId, deviceId: bob2.account.deviceId },
    ]);

    const after = await warnings.acknowledge(bobAccount.userId);
    expect(after).toMatchObject({ verified: true, warnings: [] });
    expect(seen.get(bobAccount.userId)?.warnings).toEqual([]);
  });

  it("a verified user resetting cross-signing raises identity_changed (previously verified)", async () => {
    const before = seen.get(bobAccount.userId)?.masterKey;
    await new CrossSigning(bob.crypto.internals).bootstrap({ reset: true, password: bobAccount.password });
    await pump([alice, bob], () => seen.get(bobAccount.userId)?.masterKey !== before);
    const trust = seen.get(bobAccount.userId);
    expect(trust).toMatchObject({ verified: false, verificationViolation: true });
    expect(trust?.warnings).toContainEqual({
      kind: "identity_changed",
      userId: bobAccount.userId,
      previouslyVerified: true,
    });
    const after = await warnings.acknowledge(bobAccount.userId);
    expect(after).toMatchObject({ verificationViolation: false, needsApproval: false, warnings: [] });
  });

  it("a seen, unverified user resetting needs approval; acknowledging pins the new key", async () => {
    const before = seen.get(carolAccount.userId)?.masterKey;
    expect(before).toBeDefined();
    await new CrossSigning(carol.crypto.internals).bootstrap({
      reset: true,
      password: carolAccount.password,
    });
    await pump([alice, carol], () => seen.get(carolAccount.userId)?.masterKey !== before);
    expect(seen.get(carolAccount.userId)).toMatchObject({
      verified: false,
      needsApproval: true,
      warnings: [{ kind: "identity_changed", userId: carolAccount.userId, previouslyVerified: false }],
    });
    const after = await warnings.acknowledge(carolAccount.userId);
    expect(after).toMatchObject({ needsApproval: false, warnings: [] });
    expect(after.masterKey).not.toBe(before);
  });
});
