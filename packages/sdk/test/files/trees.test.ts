/**
 * Trees and folders: the MSC3089 shape of a new tree (SPEC §6: "A new
 * file-tree space room gives its creator power level 100"), use before
 * sync knows the room, folder links, order, rename, move and recursive
 * delete.
 */
import { describe, expect, it } from "vitest";
import { FileTreeError } from "../../src/files/errors";
import { RoomState } from "../../src/models/room/RoomState";
import { bytes, setup } from "./helpers";

describe("a new tree", () => {
  it("is a private encrypted space with the MSC3089 purpose, its creator at power level 100", async () => {
    const { server, users } = setup("alice");
    const [alice] = users;
    const roomId = await alice!.files.createTree("Projects");
    const state = server.stateOf(roomId);
    expect(state.content("m.room.create")?.["type"]).toBe("m.space");
    expect(state.content("org.matrix.msc3088.purpose", "org.matrix.msc3089.data_tree")).toEqual({
      "org.matrix.msc3088.enabled": true,
    });
    expect(state.content("m.room.encryption")?.["algorithm"]).toBe("m.megolm.v1.aes-sha2");
    expect(state.joinRule).toBe("invite");
    expect(state.powerLevels.userLevel("@alice:test")).toBe(100);
    expect(state.powerLevels.levels.usersDefault).toBe(0);
    expect(state.powerLevels.levels.eventsDefault).toBe(50);
    expect(state.powerLevels.requiredForEvent("m.room.power_levels", true)).toBe(100);
  });

  it("in room version 12 (the server's default), leaves the creator out of users: creators are owners with infinite power", async () => {
    const { server, users } = setup("alice", "bob");
    server.roomVersion = "12";
    const [alice, bob] = users;
    const roomId = await alice!.files.createTree("Projects");
    const state = server.stateOf(roomId);
    expect(state.content("m.room.power_levels")?.["users"]).toEqual({});
    expect(state.powerLevels.userLevel(alice!.userId)).toBe(Infinity);
    expect((await alice!.files.open(roomId)).myRole).toBe("owner");
    // Before sync, the local copy agrees.
    await alice!.files.share(roomId, bob!.userId, "editor");
    await expect(alice!.files.setRole(roomId, alice!.userId, "viewer")).rejects.toThrow(
      "Owners cannot be demoted",
    );
  });

  it("is usable at once, before sync knows it, and reads from sync once it does", async () => {
    const { server, users } = setup("alice");
    const alice = users[0]!;
    const treeId = await alice.files.createTree("Projects");
    expect(alice.io.syncedState(treeId)).toBeUndefined();
    const folderId = await alice.files.createFolder(treeId, "Designs");
    await alice.files.renameFolder(folderId, "Designs 2026");
    const listing = await alice.files.open(treeId);
    expect(listing.myRole).toBe("owner");
    expect(listing.folders).toEqual([{ roomId: folderId, name: "Designs 2026" }]);
    expect(alice.files.trees()).toEqual([{ roomId: treeId, name: "Projects" }]);
    // An upload waits for sync (the send queue encrypts to the members sync knows), then goes out.
    const upload = alice.files.fileOps.upload(folderId, "a.txt", bytes("a"));
    server.catchUp();
    await upload;
    expect(alice.io.syncedState(folderId)).toBeDefined();
    expect((await alice.files.open(folderId)).files.map((f) => f.name)).toEqual(["a.txt"]);
    expect((await alice.files.open(folderId)).path).toEqual([{ roomId: treeId, name: "Projects" }]);
  });

  it("stays a tree while sync has only part of its state (a new room's state over several batches)", async () => {
    const { server, users } = setup("alice");
    const alice = users[0]!;
    const treeId = await alice.files.createTree("Projects");
    // Sync now knows the room, but only its create and member events so far.
    const full = alice.io.syncedState.bind(alice.io);
    alice.io.syncedState = (roomId) => {
      const state = full(roomId);
      if (roomId !== treeId || state === undefined) return state;
      return RoomState.empty().withEvents([
        state.get("m.room.create")!,
        state.get("m.room.member", alice.userId)!,
      ]);
    };
    server.catchUp();
    expect((await alice.files.open(treeId)).myRole).toBe("owner");
    await alice.files.createFolder(treeId, "Designs");
  });

  it("refuses a room that is not a tree", async () => {
    const { server, users } = setup("alice");
    const plain = server.create("@alice:test", { name: "chat" });
    await expect(users[0]!.files.open(plain)).rejects.toThrow(
      new FileTreeError("not_a_tree", "This room is not a file tree"),
    );
    expect(await users[0]!.files.isTree(plain)).toBe(false);
  });
});

describe("folders", () => {
  it("are linked both ways and ordered by order strings, then by link time, then by room id", async () => {
    const { server, users } = setup("alice");
    const alice = users[0]!;
    const tree = await alice.files.createTree("Root");
    const a = await alice.files.createFolder(tree, "a");
    const b = await alice.files.createFolder(tree, "b");
    const c = await alice.files.createFolder(tree, "c");
    expect(server.stateOf(a).content("m.space.parent", tree)).toEqual({ via: ["test"] });
    expect(server.stateOf(tree).content("m.space.child", a)).toEqual({ via: ["test"] });
    // Without order: by link time.
    expect((await alice.files.open(tree)).folders.map((f) => f.name)).toEqual(["a", "b", "c"]);
    // Ordered ones first, by code unit; the rest after.
    await alice.files.setFolderOrder(tree, c, "m");
    await alice.files.setFolderOrder(tree, b, "n");
    expect((await alice.files.open(tree)).folders.map((f) => f.name)).toEqual(["c", "b", "a"]);
  });

  it("move between parents, and never into themselves or a subfolder", async () => {
    const { server, users } = setup("alice");
    const alice = users[0]!;
    const tree = await alice.files.createTree("Root");
    const a = await alice.files.createFolder(tree, "a");
    const b = await alice.files.createFolder(tree, "b");
    const aa = await alice.files.createFolder(a, "aa");
    await alice.files.moveFolder(b, tree, a);
    expect((await alice.files.open(tree)).folders.map((f) => f.name)).toEqual(["a"]);
    expect((await alice.files.open(a)).folders.map((f) => f.name)).toEqual(["aa", "b"]);
    expect(server.stateOf(b).content("m.space.parent", tree)).toEqual({});
    await expect(alice.files.moveFolder(a, tree, aa)).rejects.toThrow(
      "A folder cannot be moved into itself or one of its subfolders",
    );
    await expect(alice.files.moveFolder(a, tree, a)).rejects.toMatchObject({ code: "cycle" });
  });

  it("delete recursively: members are removed, everyone leaves, the link goes", async () => {
    const { server, users } = setup("alice", "bob");
    const [alice, bob] = users as [(typeof users)[0] & object, (typeof users)[0] & object];
    const tree = await alice.files.createTree("Root");
    const a = await alice.files.createFolder(tree, "a");
    const aa = await alice.files.createFolder(a, "aa");
    await alice.files.share(a, bob.userId, "viewer", { subfolders: true });
    await alice.files.deleteFolder(a, tree);
    for (const id of [a, aa]) {
      expect(server.membership(id, alice.userId)).toBe("leave");
      expect(server.membership(id, bob.userId)).toBe("leave");
    }
    expect((await alice.files.open(tree)).folders).toEqual([]);
  });
});
