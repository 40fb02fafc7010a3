/**
 * Cross-signing bootstrap over the test homeserver: the keys land on the
 * server (POST /keys/device_signing/upload, then /keys/signatures/upload),
 * our own device becomes verified (1), a second bootstrap is a no-op, a
 * device without the private keys is refused, and a reset goes through
 * interactive auth with the password stage (a wrong password is asked again).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryKeys } from "../../../src/api/keys";
import { CrossSigning, CrossSigningExistsError } from "../../../src/crypto/cross-signing";
import { DeviceVerification } from "../../../src/crypto/devices";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { login, openDevice, register, startServer } from "../helpers";

let server: TestServerHandle;
let aliceAccount: Account;
let alice: TestDevice;
let alice2: TestDevice;
const devices: TestDevice[] = [];

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
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("cross-signing bootstrap", () => {
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
