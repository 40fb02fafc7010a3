/**
 * Interop: a member who joins a shared folder after its files were uploaded
 * reads them. The file's AES key travels inside a Megolm event the late
 * joiner never got the session of; sharing the folder sends the owner's
 * room key history (MSC4268 bundle: uploaded encrypted, its location over
 * Olm), and accepting imports it. Over the test homeserver and Synapse.
 */
import { expect, it } from "vitest";
import type { Client } from "../../src/client";
import { waitFor, svc } from "../client/helpers";
import { clientsOf, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

const SCENARIO_TIMEOUT_MS = 240_000;

function randomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  crypto.getRandomValues(out);
  return out;
}

/** Waits until `client` is invited to `roomId`, then accepts it with its subfolders. */
async function acceptWhenInvited(client: Client, roomId: string): Promise<void> {
  await waitFor(
    () =>
      svc(client)
        .files.invites()
        .some((i) => i.roomId === roomId),
    `${client.userId}'s invite to ${roomId}`,
    SYNC_WAIT_MS,
  );
  await svc(client).files.accept(roomId);
}

/** Downloads until the file decrypts (the bundle may trail the join); the last error on time-out. */
async function downloadWhenReadable(client: Client, roomId: string, eventId: string): Promise<Uint8Array> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  for (;;) {
    try {
      return await svc(client).files.fileOps.download(roomId, eventId);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describeEachServer("file trees: late joiners", (ctx) => {
  const start = clientsOf(ctx);

  it(
    "files uploaded before the invite are downloaded by the invitee, in the folder and its subfolder",
    async () => {
      const [alice, bob] = await Promise.all([
        start("alice", { crypto: true }),
        start("bob", { crypto: true }),
      ]);
      // The engine shares and accepts bundles only between cross-signed accounts (the sending device must be signed).
      for (const c of [alice, bob]) {
        const localpart = c.userId.slice(1, c.userId.indexOf(":"));
        await c.crypto.crossSigning.bootstrap({ password: `password-${localpart}` });
      }
      const tree = await svc(alice).files.createTree("Archive");
      const sub = await svc(alice).files.createFolder(tree, "2025");
      const top = randomBytes(60_000);
      const inner = randomBytes(1_234);
      const topId = await svc(alice).files.fileOps.upload(tree, "top.bin", top);
      const innerId = await svc(alice).files.fileOps.upload(sub, "inner.bin", inner);
      // Bob's device must be known to alice for the bundle's location to reach it.
      await expect
        .poll(async () => (await alice.crypto.getUserDevices(bob.userId, 5)).length, {
          timeout: SYNC_WAIT_MS,
        })
        .toBeGreaterThan(0);

      await svc(alice).files.share(tree, bob.userId, "viewer", { subfolders: true });
      // Accepting joins only the subfolders bob's sync has shown him invites to (a folder may link any room).
      await waitFor(
        () => bob.rooms.find(sub)?.getSnapshot().category === "invite",
        `${bob.userId}'s invite to the subfolder`,
        SYNC_WAIT_MS,
      );
      await acceptWhenInvited(bob, tree);

      expect(await downloadWhenReadable(bob, tree, topId)).toEqual(top);
      expect(await downloadWhenReadable(bob, sub, innerId)).toEqual(inner);
      const listing = await svc(bob).files.open(sub);
      expect(listing.files.map((f) => f.name)).toEqual(["inner.bin"]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
