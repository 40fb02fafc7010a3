/**
 * Files: encrypted uploads as MSC3089 leaves, versions as m.replace with
 * the branch states matrix-js-sdk writes, readable history, rename, lock,
 * move with history, delete.
 */
import { describe, expect, it } from "vitest";
import { bytes, setup, text } from "./helpers";

async function treeWithFolder(): Promise<ReturnType<typeof setup> & { tree: string }> {
  const made = setup("alice", "bob");
  const tree = await made.users[0]!.files.createTree("Root");
  made.server.catchUp();
  return { ...made, tree };
}

describe("files", () => {
  it("upload encrypted as an m.file leaf with an active branch at version 1", async () => {
    const { server, users, tree } = await treeWithFolder();
    const alice = users[0]!;
    const eventId = await alice.files.fileOps.upload(tree, "notes.txt", bytes("hello"), {
      mimetype: "text/plain",
    });
    const event = server.room(tree).events.get(eventId)!;
    expect(event.content["msgtype"]).toBe("m.file");
    expect(event.content["org.matrix.msc3089.leaf"]).toEqual({});
    expect(event.content["url"]).toBeUndefined();
    expect(event.content["info"]).toEqual({ size: 5, mimetype: "text/plain" });
    // The server holds ciphertext only.
    const url = (event.content["file"] as { url: string }).url;
    expect(text(server.media.get(url)!)).not.toBe("hello");
    expect(server.stateOf(tree).content("org.matrix.msc3089.branch", eventId)).toEqual({
      active: true,
      name: "notes.txt",
      version: 1,
    });
    const [entry] = (await alice.files.open(tree)).files;
    expect(entry).toMatchObject({
      eventId,
      name: "notes.txt",
      version: 1,
      locked: false,
      updatedBy: alice.userId,
    });
    expect(text(await alice.files.fileOps.download(tree, eventId))).toBe("hello");
    expect(await alice.files.fileOps.details(tree, eventId)).toMatchObject({
      size: 5,
      mimetype: "text/plain",
      sender: alice.userId,
    });
  });

  it("new versions replace the old one, which goes inactive; every version downloads from the history", async () => {
    const { server, users, tree } = await treeWithFolder();
    const ops = users[0]!.files.fileOps;
    const v1 = await ops.upload(tree, "plan.txt", bytes("one"));
    const v2 = await ops.newVersion(tree, v1, bytes("two"));
    const v3 = await ops.newVersion(tree, v2, bytes("three"), { name: "plan-final.txt" });
    expect(server.stateOf(tree).content("org.matrix.msc3089.branch", v1)).toMatchObject({ active: false });
    expect(server.stateOf(tree).content("org.matrix.msc3089.branch", v3)).toEqual({
      active: true,
      name: "plan-final.txt",
      version: 3,
    });
    const v3event = server.room(tree).events.get(v3)!;
    expect(v3event.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: v2 });
    expect((v3event.content["m.new_content"] as Record<string, unknown>)["file"]).toEqual(
      v3event.content["file"],
    );
    const listing = await users[0]!.files.open(tree);
    expect(listing.files.map((f) => [f.name, f.version])).toEqual([["plan-final.txt", 3]]);
    const history = await ops.history(tree, v3);
    expect(history.map((h) => [h.eventId, h.version])).toEqual([
      [v3, 3],
      [v2, 2],
      [v1, 1],
    ]);
    expect(history.every((h) => h.problem === undefined)).toBe(true);
    expect(await Promise.all(history.map(async (h) => text(await ops.download(tree, h.eventId))))).toEqual([
      "three",
      "two",
      "one",
    ]);
  });

  it("rename, and a locked file refuses new versions and renames until unlocked", async () => {
    const { users, tree } = await treeWithFolder();
    const ops = users[0]!.files.fileOps;
    const id = await ops.upload(tree, "a.txt", bytes("a"));
    await ops.rename(tree, id, "b.txt");
    expect((await users[0]!.files.open(tree)).files[0]!.name).toBe("b.txt");
    await ops.setLocked(tree, id, true);
    expect((await users[0]!.files.open(tree)).files[0]!.locked).toBe(true);
    await expect(ops.newVersion(tree, id, bytes("x"))).rejects.toThrow("This file is locked");
    await expect(ops.rename(tree, id, "c.txt")).rejects.toMatchObject({ code: "locked" });
    await ops.setLocked(tree, id, false);
    await ops.rename(tree, id, "c.txt");
    await expect(ops.rename(tree, id, "   ")).rejects.toThrow("A name must be 1 to 255 characters");
  });

  it("move to another folder with the history kept, and the old copy gone", async () => {
    const { server, users, tree } = await treeWithFolder();
    const files = users[0]!.files;
    const target = await files.createFolder(tree, "Archive");
    server.catchUp();
    const v1 = await files.fileOps.upload(tree, "r.txt", bytes("r1"));
    const v2 = await files.fileOps.newVersion(tree, v1, bytes("r2"));
    const moved = await files.fileOps.move(tree, v2, target);
    expect((await files.open(tree)).files).toEqual([]);
    const [entry] = (await files.open(target)).files;
    expect(entry).toMatchObject({ eventId: moved, name: "r.txt", version: 2 });
    const history = await files.fileOps.history(target, moved);
    expect(history.map((h) => h.version)).toEqual([2, 1]);
    expect(
      await Promise.all(history.map(async (h) => text(await files.fileOps.download(target, h.eventId)))),
    ).toEqual(["r2", "r1"]);
    // The old versions were emptied and redacted.
    expect(server.stateOf(tree).content("org.matrix.msc3089.branch", v1)).toEqual({});
    expect(server.room(tree).events.get(v1)!.content).toEqual({});
  });

  it("delete empties every version's branch and redacts it", async () => {
    const { server, users, tree } = await treeWithFolder();
    const ops = users[0]!.files.fileOps;
    const v1 = await ops.upload(tree, "d.txt", bytes("1"));
    const v2 = await ops.newVersion(tree, v1, bytes("2"));
    await ops.delete(tree, v2);
    for (const id of [v1, v2]) {
      expect(server.stateOf(tree).content("org.matrix.msc3089.branch", id)).toEqual({});
      expect(server.room(tree).events.get(id)!.content).toEqual({});
    }
    expect((await users[0]!.files.open(tree)).files).toEqual([]);
    await expect(ops.rename(tree, v2, "x")).rejects.toThrow("This file or folder is not in the tree");
  });
});
