/**
 * The verification view models against the test homeserver, with two real
 * clients (crypto on) sharing an encrypted room: alice's centre asks bob,
 * bob's centre opens the incoming request by itself; a mismatch ends both
 * dialogs cancelled with the mismatch sentence; a second run where both
 * say they match ends both "done". A client without crypto offers nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { createClient, createRoom } from "../../sdk";
import type { Client } from "../../sdk";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { VerificationCenter } from "./VerificationCenter";
import type { VerificationStep, VerificationViewModel } from "./VerificationViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const scope = new Scope();

async function withCrypto(name: string): Promise<Client> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  const body = (await res.json()) as { access_token: string; user_id: string; device_id: string };
  const client = createClient({
    baseUrl: server.url,
    accessToken: body.access_token,
    userId: body.user_id,
    deviceId: body.device_id,
    sync: { pollTimeoutMs: 500 },
  });
  await client.start();
  return client;
}

function stepOf(vm: VerificationViewModel | null): VerificationStep | undefined {
  return vm?.view.getSnapshot().step;
}

/** alice asks, bob's centre opens the request, bob accepts; both reach the emojis. */
async function toEmojis(
  a: VerificationCenter,
  b: VerificationCenter,
): Promise<[VerificationViewModel, VerificationViewModel]> {
  const ours = await a.verifyUser(bob.userId, roomId);
  expect(stepOf(ours)).toBe("waiting");
  await until(() => stepOf(b.active.getSnapshot()) === "incoming", "bob's dialog opens", 20_000);
  const theirs = b.active.getSnapshot() as VerificationViewModel;
  expect(theirs.view.getSnapshot().otherUserId).toBe(alice.userId);
  await theirs.accept();
  await until(() => stepOf(ours) === "emojis" && stepOf(theirs) === "emojis", "both show emojis", 20_000);
  return [ours, theirs];
}

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([withCrypto("alice"), withCrypto("bob")]);
  roomId = (
    await createRoom(alice.http, {
      invite: [bob.userId],
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    })
  ).room_id;
  await untilRoom(bob, roomId, "invite");
  await bob.moderation.join(roomId);
  await untilRoom(alice, roomId);
  await until(() => alice.crypto.loaded && bob.crypto.loaded, "engines", 20_000);
  let known = false;
  while (!known) {
    const [a, b] = await Promise.all([
      alice.crypto.getUserDevices(bob.userId, 5),
      bob.crypto.getUserDevices(alice.userId, 5),
    ]);
    known = a.length > 0 && b.length > 0;
    if (!known) await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(async () => {
  scope.end();
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

describe("verification view models", () => {
  it("a mismatch cancels both dialogs; a match ends both verified", async () => {
    const a = new VerificationCenter(alice, scope.child());
    const b = new VerificationCenter(bob, scope.child());
    expect(VerificationCenter.of(alice)).toBe(a);
    expect(a.available).toBe(true);

    const [ours, theirs] = await toEmojis(a, b);
    const names = ours.view.getSnapshot().emojis.map((e) => e.name);
    expect(names).toHaveLength(7);
    expect(theirs.view.getSnapshot().emojis.map((e) => e.name)).toEqual(names);
    await theirs.mismatch();
    await until(
      () => stepOf(ours) === "cancelled" && stepOf(theirs) === "cancelled",
      "both cancelled",
      20_000,
    );
    expect(ours.view.getSnapshot().reason).toBe("The emojis did not match. Nothing was verified.");
    a.close();
    b.close();

    const [ours2, theirs2] = await toEmojis(a, b);
    await Promise.all([ours2.match(), theirs2.match()]);
    await until(() => stepOf(ours2) === "done" && stepOf(theirs2) === "done", "both done", 20_000);
    a.close();
    expect(a.active.getSnapshot()).toBeNull();
  }, 90_000);

  it("a client without crypto cannot verify", async () => {
    const carol = await signUp(server.url, "carol");
    try {
      const center = new VerificationCenter(carol, scope.child());
      expect(center.available).toBe(false);
    } finally {
      await carol.dispose();
    }
  });
});
