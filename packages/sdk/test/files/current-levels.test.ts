/**
 * Who may upload follows the folder's current m.room.power_levels: a
 * demotion is read as soon as sync brings it (even over our own older
 * write of the same state), and when our copy is behind the server's, the
 * server's refusal reaches the caller as the file tree's refusal and
 * message, with nothing left to resume.
 */
import { describe, expect, it } from "vitest";
import { FileTreeError } from "../../src/files/errors";
import { bytes, setup } from "./helpers";

const VIEWER_REFUSAL = new FileTreeError("forbidden", "Viewers cannot upload, rename, move or delete files");

async function sharedWithEditor() {
  const made = setup("alice", "bob");
  const [alice, bob] = made.users;
  const tree = await alice!.files.createTree("Team");
  made.server.catchUp();
  await alice!.files.share(tree, bob!.userId, "editor");
  await bob!.files.accept(tree);
  return { ...made, alice: alice!, bob: bob!, tree };
}

describe("the uploader's role by the current power levels", () => {
  it("a demotion sync brings is applied at once: the upload is refused before any byte is sent", async () => {
    const { server, alice, bob, tree } = await sharedWithEditor();
    expect((await bob.files.open(tree)).myRole).toBe("editor");
    await alice.files.setRole(tree, bob.userId, "viewer");
    expect((await bob.files.open(tree)).myRole).toBe("viewer");
    const media = server.media.size;
    await expect(bob.files.fileOps.upload(tree, "x.txt", bytes("x"))).rejects.toThrow(VIEWER_REFUSAL);
    expect(server.media.size).toBe(media);
    // Promoted again: allowed again, with no reload.
    await alice.files.setRole(tree, bob.userId, "editor");
    const id = await bob.files.fileOps.upload(tree, "y.txt", bytes("y"));
    expect((await alice.files.open(tree)).files.map((f) => f.eventId)).toEqual([id]);
  });

  it("when our copy of the levels is behind, the server's refusal is the viewer's refusal; nothing is left to resume", async () => {
    const { server, alice, bob, tree } = await sharedWithEditor();
    // Bob's sync falls behind: it still holds the levels from when he was an editor.
    const held = server.stateOf(tree);
    const live = bob.io.syncedState.bind(bob.io);
    bob.io.syncedState = (roomId) => (roomId === tree ? held : live(roomId));
    expect(await bob.files.roleOf(tree, bob.userId)).toBe("editor");
    await alice.files.setRole(tree, bob.userId, "viewer");
    expect(await bob.files.roleOf(tree, bob.userId)).toBe("editor");
    const refused = await bob.files.fileOps.upload(tree, "x.txt", bytes("x")).catch((e: unknown) => e);
    expect(refused).toEqual(VIEWER_REFUSAL);
    expect((refused as FileTreeError).code).toBe("forbidden");
    expect((refused as FileTreeError).cause).toMatchObject({ errcode: "M_FORBIDDEN" });
    expect(await bob.files.fileOps.uploads.resume()).toEqual([]);
    // A rename is refused the same way.
    await expect(bob.files.renameFolder(tree, "Mine")).rejects.toThrow(VIEWER_REFUSAL);
    // Sync catches up: refused before any request.
    bob.io.syncedState = live;
    const media = server.media.size;
    await expect(bob.files.fileOps.upload(tree, "x.txt", bytes("x"))).rejects.toThrow(VIEWER_REFUSAL);
    expect(server.media.size).toBe(media);
  });

  it("our own older write of the power levels gives way to a newer one sync brings", async () => {
    const { server, alice, bob, tree } = await sharedWithEditor();
    // Alice's sync has a gap: her own power-level event is not in the timeline it holds.
    alice.io.syncKnowsEvent = () => false;
    await alice.files.setRole(tree, bob.userId, "viewer");
    // Another device of hers makes him an editor again; sync brings that state.
    const content = server.stateOf(tree).powerLevels.setUserLevel(alice.userId, bob.userId, 50);
    server.put(tree, alice.userId, "m.room.power_levels", content, "");
    expect(await alice.files.roleOf(tree, bob.userId)).toBe("editor");
    expect(await bob.files.roleOf(tree, bob.userId)).toBe("editor");
  });
});
