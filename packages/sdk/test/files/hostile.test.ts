/**
 * Bad input never crashes or hangs the tree: a branch pointing at a missing
 * event, a folder cycle, a forged version number, a file from someone
 * without the editor role, a huge listing, a chain of folders deeper than
 * any walk goes. Each is shown as broken or ignored, with a log line.
 */
import { describe, expect, it } from "vitest";
import { MAX_FILES_LISTED, MAX_FOLDER_DEPTH } from "../../src/files/constants";
import { bytes, setup } from "./helpers";

const BRANCH = "org.matrix.msc3089.branch";

async function tree(): Promise<ReturnType<typeof setup> & { treeId: string }> {
  const made = setup("alice", "mallory");
  const treeId = await made.users[0]!.files.createTree("Root");
  made.server.catchUp();
  return { ...made, treeId };
}

describe("hostile trees", () => {
  it("a branch pointing at a missing event is listed, then shown as broken with a log line", async () => {
    const { server, users, treeId } = await tree();
    const alice = users[0]!;
    server.put(treeId, alice.userId, BRANCH, { active: true, name: "ghost.txt" }, "$missing");
    const listing = await alice.files.open(treeId);
    expect(listing.files.map((f) => f.name)).toEqual(["ghost.txt"]);
    expect(await alice.files.fileOps.details(treeId, "$missing")).toEqual({
      problem: "missing_event",
      reason: "the event is missing or cannot be decrypted",
    });
    expect(alice.io.logs).toContain(
      `files: file $missing in ${treeId} is broken: the event is missing or cannot be decrypted`,
    );
    await expect(alice.files.fileOps.download(treeId, "$missing")).rejects.toThrow(
      "This file cannot be read",
    );
    const history = await alice.files.fileOps.history(treeId, "$missing");
    expect(history).toMatchObject([{ eventId: "$missing", problem: "missing_event" }]);
  });

  it("forged version numbers are shown as forged, in the listing and against the chain", async () => {
    const { server, users, treeId } = await tree();
    const alice = users[0]!;
    for (const [key, version] of [
      ["$a", 1e12],
      ["$b", "2"],
      ["$c", -1],
      ["$d", 1.5],
    ] as const) {
      server.put(treeId, alice.userId, BRANCH, { active: true, name: key, version }, key);
    }
    const files = (await alice.files.open(treeId)).files;
    expect(files.map((f) => [f.name, f.version, f.problem])).toEqual([
      ["$a", 1, "forged_version"],
      ["$b", 1, "forged_version"],
      ["$c", 1, "forged_version"],
      ["$d", 1, "forged_version"],
    ]);
    expect(alice.io.logs.filter((l) => l.includes("claims a forged version"))).toHaveLength(4);
    // A plausible number the chain disproves: one upload claiming version 7.
    const id = await alice.files.fileOps.upload(treeId, "x.txt", bytes("x"));
    server.put(treeId, alice.userId, BRANCH, { active: true, name: "x.txt", version: 7 }, id);
    const [only] = await alice.files.fileOps.history(treeId, id);
    expect(only).toMatchObject({ eventId: id, version: 1, claimedVersion: 7, problem: "forged_version" });
    expect(alice.io.logs).toContain(`files: version ${id} claims 7 but is version 1`);
  });

  it("a file from someone without the editor role is ignored, with a log line", async () => {
    const { server, users, treeId } = await tree();
    const [alice, mallory] = users;
    await alice!.files.share(treeId, mallory!.userId, "viewer");
    await mallory!.files.accept(treeId);
    // A hostile server lets a viewer's message and branch through.
    const eventId = server.put(
      treeId,
      mallory!.userId,
      "m.room.message",
      { msgtype: "m.file", body: "evil", file: {} },
      undefined,
      true,
    );
    server.put(treeId, mallory!.userId, BRANCH, { active: true, name: "evil.exe" }, eventId, true);
    expect((await alice!.files.open(treeId)).files).toEqual([]);
    expect(alice!.io.logs).toContain(
      `files: ignoring file ${eventId} in ${treeId}: ${mallory!.userId} does not have the editor role`,
    );
    // A viewer's file event under an editor's branch is broken, not served.
    server.put(treeId, alice!.userId, BRANCH, { active: true, name: "evil.exe" }, eventId);
    expect(await alice!.files.fileOps.details(treeId, eventId)).toMatchObject({
      problem: "missing_event",
      reason: `${mallory!.userId} does not have the editor role`,
    });
  });

  it("a folder cycle is detected: the folder is shown as broken, walks stop", async () => {
    const { server, users, treeId } = await tree();
    const alice = users[0]!;
    const a = await alice.files.createFolder(treeId, "a");
    server.catchUp();
    // a lists the root as its child: root -> a -> root.
    server.put(a, alice.userId, "m.space.child", { via: ["test"] }, treeId);
    const listing = await alice.files.open(a);
    expect(listing.folders).toEqual([{ roomId: treeId, name: treeId, broken: "cycle" }]);
    expect(alice.io.logs).toContain(`files: folder cycle: ${a} lists its own ancestor ${treeId}`);
    // Sharing with subfolders walks it once per folder and ends.
    await alice.files.share(treeId, "@mallory:test", "viewer", { subfolders: true });
    expect(alice.io.logs).toContain(`files: folder cycle: ${a} links back to ${treeId}; not followed`);
    // A move that closes a cycle is refused.
    await expect(alice.files.moveFolder(treeId, a, a)).rejects.toMatchObject({ code: "cycle" });
  });

  it("a chain of folders deeper than the walk limit stops there with a log line", async () => {
    const { server, users, treeId } = await tree();
    const alice = users[0]!;
    let parent = treeId;
    for (let i = 0; i < MAX_FOLDER_DEPTH + 3; i++) {
      const child = server.create(alice.userId, {
        name: `d${i}`,
        creation_content: { type: "m.space" },
        initial_state: [
          {
            type: "org.matrix.msc3088.purpose",
            state_key: "org.matrix.msc3089.data_tree",
            content: { "org.matrix.msc3088.enabled": true },
          },
        ],
      });
      server.put(parent, alice.userId, "m.space.child", { via: ["test"] }, child);
      server.put(child, alice.userId, "m.space.parent", { via: ["test"] }, parent);
      parent = child;
    }
    await alice.files.leave(treeId, { subfolders: true });
    expect(alice.io.logs).toContain(`files: stopping below ${treeId} at depth ${MAX_FOLDER_DEPTH}`);
  });

  it("a huge listing is cut at the limit with a log line", async () => {
    const { server, users, treeId } = await tree();
    const alice = users[0]!;
    for (let i = 0; i < MAX_FILES_LISTED + 5; i++) {
      server.put(treeId, alice.userId, BRANCH, { active: true, name: `f${i}` }, `$f${i}`, true);
    }
    const listing = await alice.files.open(treeId);
    expect(listing.files).toHaveLength(MAX_FILES_LISTED);
    expect(alice.io.logs).toContain(`files: ${treeId} lists more than ${MAX_FILES_LISTED} files; 5 left out`);
  });
});
