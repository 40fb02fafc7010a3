/**
 * The room actions over HTTP against the test homeserver: each create-room
 * option lands in the room's state, alias availability, a DM is created
 * encrypted and recorded in m.direct then reused, join by alias and by a
 * matrix.to link, directory search and paging, knock then accept, and
 * invite accept (with the inviter shown) and decline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import type { DirectoryViewModel } from "./DirectoryViewModel";
import { RoomActionsViewModel } from "./RoomActionsViewModel";
import { signUp, until, untilRoom } from "./testing";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let aliceActions: RoomActionsViewModel;
let bobActions: RoomActionsViewModel;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUp(server.url, "alice");
  bob = await signUp(server.url, "bob");
  aliceActions = new RoomActionsViewModel(alice);
  bobActions = new RoomActionsViewModel(bob);
}, 30_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

describe("RoomActionsViewModel", () => {
  it("creates a private room: name, topic, invite-only, encrypted by default", async () => {
    const roomId = await aliceActions.createRoom({ name: " Plans ", topic: "What next", isPublic: false });
    await untilRoom(alice, roomId);
    const s = alice.rooms.get(roomId).getSnapshot().state;
    expect(s.content("m.room.name")?.["name"]).toBe("Plans");
    expect(s.content("m.room.topic")?.["topic"]).toBe("What next");
    expect(s.joinRule).toBe("invite");
    expect(s.isEncrypted).toBe(true);
    expect(await alice.moderation.visibility(roomId)).toBe("private");
  });

  it("creates a public room with an alias, unencrypted and listed; the alias is then taken", async () => {
    expect(await aliceActions.checkAlias("town-square")).toBe("available");
    expect(await aliceActions.checkAlias("bad alias")).toBe("invalid");
    expect(await aliceActions.checkAlias("")).toBe("empty");
    const roomId = await aliceActions.createRoom({
      name: "Town square",
      isPublic: true,
      aliasLocalpart: "town-square",
    });
    await untilRoom(alice, roomId);
    const s = alice.rooms.get(roomId).getSnapshot().state;
    expect(s.joinRule).toBe("public");
    expect(s.isEncrypted).toBe(false);
    expect(s.content("m.room.canonical_alias")?.["alias"]).toBe(aliceActions.aliasOf("town-square"));
    expect(await alice.moderation.visibility(roomId)).toBe("public");
    expect(await aliceActions.checkAlias("town-square")).toBe("taken");

    // Bob joins by the alias, then by a matrix.to link (already in: same room).
    const joined = await bobActions.join(aliceActions.aliasOf("town-square"));
    expect(joined).toBe(roomId);
    await untilRoom(bob, roomId);
    const link = `https://matrix.to/#/${encodeURIComponent(aliceActions.aliasOf("town-square"))}?via=localhost`;
    expect(bobActions.parse(link)?.via).toEqual(["localhost"]);
    expect(await bobActions.join(link)).toBe(roomId);
    await expect(bobActions.join("not a room")).rejects.toThrow(/room address/);
  });

  it("starts an encrypted DM recorded in m.direct, and reuses it", async () => {
    const users = await aliceActions.searchUsers("bob");
    expect(users.map((u) => u.userId)).toContain(bob.userId);
    const first = await aliceActions.startDm(bob.userId);
    expect(first.created).toBe(true);
    await untilRoom(alice, first.roomId);
    const snap = alice.rooms.get(first.roomId).getSnapshot();
    expect(snap.isEncrypted).toBe(true);
    expect(snap.state.membershipOf(bob.userId)).toBe("invite");
    await until(() => alice.rooms.get(first.roomId).getSnapshot().isDirect, "the DM flag from m.direct");
    const again = await aliceActions.startDm(bob.userId);
    expect(again).toEqual({ roomId: first.roomId, created: false });

    // Bob sees the invite as a DM from alice, accepts it, and records it in his m.direct.
    await untilRoom(bob, first.roomId, "invite");
    const info = bobActions.inviteInfo(first.roomId);
    expect(info?.isDirect).toBe(true);
    expect(info?.inviter).toBe(alice.userId);
    await bobActions.acceptInvite(first.roomId);
    await untilRoom(bob, first.roomId);
    await until(() => bob.rooms.get(first.roomId).getSnapshot().isDirect, "bob's m.direct");
    expect(bobActions.existingDm(alice.userId)).toBe(first.roomId);
  });

  it("creates rooms in which every member may send call member state, so anyone can join a group call", async () => {
    const roomId = await aliceActions.createRoom({ name: "Calls", isPublic: false, encrypted: false });
    await untilRoom(alice, roomId);
    await alice.moderation.invite(roomId, bob.userId);
    await untilRoom(bob, roomId, "invite");
    await bobActions.acceptInvite(roomId);
    await untilRoom(bob, roomId);
    const levels = alice.rooms.get(roomId).getSnapshot().state.content("m.room.power_levels");
    expect((levels?.["events"] as Record<string, unknown>)["org.matrix.msc3401.call.member"]).toBe(0);
    // bob (power level 0) announces himself in a call; the default state_default 50 would refuse it.
    await bob.state.setState(roomId, "org.matrix.msc3401.call.member", bob.userId, { "m.calls": [] });
    const dm = await aliceActions.startDm("@carol:localhost");
    await untilRoom(alice, dm.roomId);
    const dmLevels = alice.rooms.get(dm.roomId).getSnapshot().state.content("m.room.power_levels");
    expect((dmLevels?.["events"] as Record<string, unknown>)["org.matrix.msc3401.call.member"]).toBe(0);
  });

  it("declines an invite", async () => {
    const roomId = await aliceActions.createRoom({ name: "Not for bob", isPublic: false });
    await untilRoom(alice, roomId);
    await alice.moderation.invite(roomId, bob.userId);
    await untilRoom(bob, roomId, "invite");
    expect(bobActions.inviteInfo(roomId)?.name).toBe("Not for bob");
    await bobActions.declineInvite(roomId);
    await untilRoom(bob, roomId, "leave");
    await until(
      () => alice.rooms.get(roomId).getSnapshot().state.membershipOf(bob.userId) === "leave",
      "alice sees the decline",
    );
  });

  it("knocks with a reason, and the knock is accepted with an invite", async () => {
    const roomId = await aliceActions.createRoom({ name: "Club", isPublic: false, encrypted: false });
    await untilRoom(alice, roomId);
    await alice.state.setState(roomId, "m.room.join_rules", "", { join_rule: "knock" });
    await expect(bobActions.join(roomId)).rejects.toThrow();
    expect(await bobActions.knock(roomId, "  let me in  ")).toBe(roomId);
    await until(
      () => alice.rooms.get(roomId).getSnapshot().state.membershipOf(bob.userId) === "knock",
      "the knock",
    );
    expect(alice.rooms.get(roomId).getSnapshot().state.content("m.room.member", bob.userId)?.["reason"]).toBe(
      "let me in",
    );
    await alice.moderation.invite(roomId, bob.userId);
    await untilRoom(bob, roomId, "invite");
    await bobActions.acceptInvite(roomId);
    await untilRoom(bob, roomId);
  });

  it("searches and pages the public room directory", async () => {
    for (let i = 0; i < 23; i += 1) await aliceActions.createRoom({ name: `Public ${i}`, isPublic: true });
    const dir: DirectoryViewModel = aliceActions.openDirectory();
    await dir.search("");
    const first = dir.state.getSnapshot();
    expect(first.rooms.length).toBe(20);
    expect(first.hasMore).toBe(true);
    await dir.loadMore();
    const second = dir.state.getSnapshot();
    expect(second.rooms.length).toBeGreaterThanOrEqual(24);
    expect(new Set(second.rooms.map((r) => r.room_id)).size).toBe(second.rooms.length);
    await dir.search("Town");
    const found = dir.state.getSnapshot().rooms;
    expect(found.map((r) => r.name)).toEqual(["Town square"]);
    const townId = found[0]?.room_id ?? "";
    // Carol (new) joins from the directory.
    const carol = await signUp(server.url, "carol");
    try {
      const carolDir = new RoomActionsViewModel(carol).openDirectory();
      await carolDir.search("Town");
      const room = carolDir.state.getSnapshot().rooms[0];
      expect(room).toBeDefined();
      if (room !== undefined) expect(await carolDir.enter(room)).toBe(townId);
      await untilRoom(carol, townId);
    } finally {
      await carol.dispose();
    }
  });
});
