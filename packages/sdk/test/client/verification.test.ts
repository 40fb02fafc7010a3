/**
 * Verification, cross-signing and recovery through createClient (over HTTP
 * on the test homeserver): touching client.crypto's verification services
 * does not load the engine; alice verifies bob's device through
 * `client.crypto.verification` (bob's client announces the request from
 * its own sync), both confirm the same 7 emojis, both see the other's
 * device verified; after both bootstrap cross-signing through
 * `client.crypto.crossSigning` (status observable), an in-room request in
 * their encrypted DM is read from the decrypted sync timeline on both
 * sides and ends with bob's identity verified for alice; alice sets up
 * recovery and a new device of hers recovers with the recovery key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { createClient } from "../../src";
import type { Client } from "../../src";
import type { VerificationFlow, VerificationPhase } from "../../src/crypto/verification/VerificationFlow";
import { encryptedRoom, startAnotherDevice, startClient, waitFor } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const clients: Client[] = [];

/** Sync v2, as the client crypto test (Olm to-device over sliding sync is pinned there). */
const V2 = { sync: { pollTimeoutMs: 1_000, syncMode: (process.env.SYNC_MODE ?? "auto") as "auto" } };
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function phaseIs(flow: VerificationFlow | undefined, ...phases: VerificationPhase[]): boolean {
  return flow !== undefined && phases.includes(flow.state.phase);
}

/** Runs a request from alice to bob to the end, both confirming; returns both flows. */
async function verifyBoth(
  request: () => Promise<VerificationFlow>,
): Promise<{ ours: VerificationFlow; theirs: VerificationFlow }> {
  let theirs: VerificationFlow | undefined;
  const off = bob.crypto.verification.onRequest((flow) => (theirs = flow));
  const ours = await request();
  await waitFor(() => theirs, "bob's client announces the request", 20_000);
  off();
  const incoming = theirs as VerificationFlow;
  expect(bob.crypto.verification.incoming.getSnapshot()).toContain(incoming);
  await incoming.accept();
  await waitFor(() => phaseIs(ours, "ready"), "alice sees ready", 20_000);
  await ours.startSas();
  await waitFor(() => phaseIs(incoming, "started"), "bob sees the SAS start", 20_000);
  await incoming.startSas();
  await waitFor(
    () => phaseIs(ours, "showing_sas") && phaseIs(incoming, "showing_sas"),
    "both show emojis",
    20_000,
  );
  expect(ours.state.emojis).toHaveLength(7);
  expect(ours.state.emojis).toEqual(incoming.state.emojis);
  await Promise.all([ours.confirm(), incoming.confirm()]);
  await waitFor(() => phaseIs(ours, "done") && phaseIs(incoming, "done"), "both done", 20_000);
  await waitFor(
    () => !bob.crypto.verification.incoming.getSnapshot().includes(incoming),
    "the done request leaves bob's incoming list",
  );
  return { ours, theirs: incoming };
}

beforeAll(async () => {
  server = await startTestServer({ seed: "client-verification" });
  [alice, bob] = await Promise.all([startClient(server, "alice", V2), startClient(server, "bob", V2)]);
  clients.push(alice, bob);
  roomId = await encryptedRoom(alice, bob, { preset: "trusted_private_chat", is_direct: true });
  await waitFor(() => alice.crypto.loaded && bob.crypto.loaded, "engines loaded");
  await waitFor(async () => (await alice.crypto.getUserDevices(bob.userId, 5)).length > 0, "bob's device");
  await waitFor(async () => (await bob.crypto.getUserDevices(alice.userId, 5)).length > 0, "alice's device");
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await server?.stop();
});

describe("client.crypto verification services", () => {
  it("are lazy: reading them does not load the engine", () => {
    const client = createClient({
      baseUrl: server.url,
      accessToken: "unused",
      userId: "@lazy:localhost",
      deviceId: "LAZY",
      logger: quiet,
    });
    expect(client.crypto.verification.incoming.getSnapshot()).toEqual([]);
    expect(client.crypto.verification.all).toEqual([]);
    expect(client.crypto.crossSigning.status.getSnapshot()).toBeNull();
    const stop = client.crypto.verification.onRequest(() => undefined);
    stop();
    expect(client.crypto.loaded).toBe(false);
  });

  it("alice verifies bob's device: same emojis, both see the other's device verified", async () => {
    await verifyBoth(() => alice.crypto.verification.verifyUser(bob.userId));
    const bobsDevice = (await alice.crypto.getUserDevices(bob.userId)).find(
      (d) => d.deviceId === bob.deviceId,
    );
    expect(bobsDevice?.verification).toBe(1);
    const alicesDevice = (await bob.crypto.getUserDevices(alice.userId)).find(
      (d) => d.deviceId === alice.deviceId,
    );
    expect(alicesDevice?.verification).toBe(1);
  }, 60_000);

  it("bootstrap, then an in-room request fed from sync verifies bob's identity", async () => {
    const seen: Array<boolean | undefined> = [];
    const stop = alice.crypto.crossSigning.status.subscribe((s) => seen.push(s?.identityVerified));
    expect(await alice.crypto.crossSigning.bootstrap()).toEqual({ created: true });
    expect(await bob.crypto.crossSigning.bootstrap()).toEqual({ created: true });
    stop();
    expect(seen).toContain(true);
    expect(alice.crypto.crossSigning.status.getSnapshot()).toMatchObject({
      hasMaster: true,
      identityVerified: true,
      deviceSigned: true,
    });
    // Alice learns bob's new identity from the device list change in sync.
    await waitFor(
      async () => (await alice.crypto.identityWarnings.trust(bob.userId)).hasIdentity,
      "bob's identity",
      20_000,
    );
    const { ours } = await verifyBoth(() => alice.crypto.verification.requestUserInRoom(bob.userId, roomId));
    expect(ours.state.flowId).toMatch(/^\$/);
    const trust = alice.crypto.identityWarnings.observe(bob.userId);
    try {
      await waitFor(() => trust.trust.getSnapshot()?.verified, "bob's identity verified for alice", 20_000);
    } finally {
      trust.dispose();
    }
  }, 90_000);

  it("recovery: alice sets it up; her new device recovers and is verified", async () => {
    const { recoveryKey } = await alice.crypto.recovery.setUp();
    expect(await alice.crypto.recovery.isSetUp()).toBe(true);
    const second = await startAnotherDevice(server, alice, V2);
    clients.push(second);
    const result = await second.crypto.recovery.recover({ recoveryKey });
    expect(result.crossSigning).toBe(true);
    expect(second.crypto.crossSigning.status.getSnapshot()).toMatchObject({ deviceSigned: true });
  }, 60_000);
});
