/**
 * Roles over power levels (SPEC §1: "A file-tree feature maps room power
 * levels to viewer, editor and owner"): the mapping, local refusals with
 * their reasons before any request, and sharing with subfolders.
 */
import { describe, expect, it } from "vitest";
import { FileTreeError } from "../../src/files/errors";
import { roleOf } from "../../src/files/roles";
import { PowerLevels } from "../../src/models/power-levels";
import { bytes, setup } from "./helpers";

function levels(content: Record<string, unknown>): PowerLevels {
  return PowerLevels.from({
    content,
    createEvent: { type: "m.room.create", sender: "@c:test", content: { room_version: "10" } },
  });
}

describe("the role mapping", () => {
  it("viewer = users_default, editor = events_default, owner = the level of m.room.power_levels", () => {
    const pl = levels({
      users_default: 10,
      events_default: 40,
      events: { "m.room.power_levels": 90 },
      users: { "@v:test": 39, "@e:test": 40, "@e2:test": 89, "@o:test": 90, "@o2:test": 100 },
    });
    expect(roleOf(pl, "@nobody:test")).toBe("viewer");
    expect(roleOf(pl, "@v:test")).toBe("viewer");
    expect(roleOf(pl, "@e:test")).toBe("editor");
    expect(roleOf(pl, "@e2:test")).toBe("editor");
    expect(roleOf(pl, "@o:test")).toBe("owner");
    expect(roleOf(pl, "@o2:test")).toBe("owner");
  });

  it("without an override for power levels, owner is state_default's level", () => {
    const pl = levels({ state_default: 70, users: { "@a:test": 70 } });
    expect(roleOf(pl, "@a:test")).toBe("owner");
  });
});

describe("role changes", () => {
  async function shared(): Promise<ReturnType<typeof setup> & { tree: string }> {
    const made = setup("alice", "bob", "carol");
    const tree = await made.users[0]!.files.createTree("Team");
    made.server.catchUp();
    return { ...made, tree };
  }

  it("set the level of each role, and read back as that role", async () => {
    const { server, users, tree } = await shared();
    const [alice, bob] = users;
    await alice!.files.share(tree, bob!.userId, "editor");
    expect(server.membership(tree, bob!.userId)).toBe("invite");
    expect(server.stateOf(tree).powerLevels.userLevel(bob!.userId)).toBe(50);
    await alice!.files.setRole(tree, bob!.userId, "viewer");
    expect(server.stateOf(tree).powerLevels.userLevel(bob!.userId)).toBe(0);
    expect(await alice!.files.roleOf(tree, bob!.userId)).toBe("viewer");
    await alice!.files.setRole(tree, bob!.userId, "owner");
    expect(await alice!.files.roleOf(tree, bob!.userId)).toBe("owner");
  });

  it("owners cannot be demoted, not even by another owner or themselves; nothing is sent", async () => {
    const { server, users, tree } = await shared();
    const [alice, bob] = users;
    await alice!.files.share(tree, bob!.userId, "owner");
    const before = server.stateOf(tree).get("m.room.power_levels");
    await expect(alice!.files.setRole(tree, bob!.userId, "editor")).rejects.toThrow(
      new FileTreeError("owner_cannot_be_demoted", "Owners cannot be demoted"),
    );
    await expect(alice!.files.setRole(tree, alice!.userId, "viewer")).rejects.toThrow(
      "Owners cannot be demoted",
    );
    expect(server.stateOf(tree).get("m.room.power_levels")).toBe(before);
  });

  it("only owners change roles or share", async () => {
    const { users, tree } = await shared();
    const [alice, bob, carol] = users;
    await alice!.files.share(tree, bob!.userId, "editor");
    await bob!.files.accept(tree);
    await expect(bob!.files.setRole(tree, carol!.userId, "viewer")).rejects.toThrow(
      "Only an owner can change roles or share this folder",
    );
    await expect(bob!.files.share(tree, carol!.userId, "viewer")).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(alice!.files.setRole(tree, carol!.userId, "admin" as never)).rejects.toThrow("Unknown role");
  });

  it("a viewer cannot upload: refused locally with the reason", async () => {
    const { users, tree } = await shared();
    const [alice, bob] = users;
    await alice!.files.share(tree, bob!.userId, "viewer");
    await bob!.files.accept(tree);
    expect((await bob!.files.open(tree)).myRole).toBe("viewer");
    await expect(bob!.files.fileOps.upload(tree, "x.txt", bytes("x"))).rejects.toThrow(
      new FileTreeError("forbidden", "Viewers cannot upload, rename, move or delete files"),
    );
    await expect(bob!.files.createFolder(tree, "x")).rejects.toMatchObject({ code: "forbidden" });
    // An editor can.
    await alice!.files.setRole(tree, bob!.userId, "editor");
    await bob!.files.fileOps.upload(tree, "x.txt", bytes("x"));
  });

  it("sharing with subfolders invites to each and gives the role in each; accept joins them all", async () => {
    const { server, users, tree } = await shared();
    const [alice, bob] = users;
    const a = await alice!.files.createFolder(tree, "a");
    const aa = await alice!.files.createFolder(a, "aa");
    server.catchUp();
    await alice!.files.share(tree, bob!.userId, "editor", { subfolders: true });
    for (const id of [tree, a, aa]) {
      expect(server.membership(id, bob!.userId)).toBe("invite");
      expect(server.stateOf(id).powerLevels.userLevel(bob!.userId)).toBe(50);
    }
    expect(
      bob!.files
        .invites()
        .map((i) => i.roomId)
        .sort(),
    ).toEqual([tree, a, aa].sort());
    await bob!.files.accept(tree);
    for (const id of [tree, a, aa]) expect(server.membership(id, bob!.userId)).toBe("join");
    const members = await alice!.files.members(tree);
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [alice!.userId, "owner"],
      [bob!.userId, "editor"],
    ]);
    await bob!.files.leave(tree, { subfolders: true });
    for (const id of [tree, a, aa]) expect(server.membership(id, bob!.userId)).toBe("leave");
  });
});
