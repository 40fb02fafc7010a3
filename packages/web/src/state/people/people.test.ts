/**
 * People and moderation over HTTP against the test homeserver: the member
 * list loads lazy members into sections with role labels; kick, ban with a
 * reason and unban are allowed for the admin and disabled (with a reason)
 * for a plain member, whose attempt is refused before any request; a power
 * level change lands in the room's power levels; ignoring writes
 * m.ignored_user_list; invites by user id; the rights helper's reasons.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIdentityServer, startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { MemberListViewModel } from "./MemberListViewModel";
import { PresenceTracker } from "./PresenceTracker";
import { UserPanelViewModel } from "./UserPanelViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let carol: Client;
let roomId: string;
const scope = new Scope();

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol] = await Promise.all([
    signUp(server.url, "alice"),
    signUp(server.url, "bob"),
    signUp(server.url, "carol"),
  ]);
  roomId = await new RoomActionsViewModel(alice).createRoom({ name: "Mods", isPublic: true });
  await untilRoom(alice, roomId);
  await bob.moderation.join(roomId);
  await carol.moderation.join(roomId);
  await untilRoom(bob, roomId);
  await until(
    () => alice.rooms.get(roomId).getSnapshot().state.membershipOf(carol.userId) === "join",
    "carol joined (alice's view)",
  );
}, 30_000);

afterAll(async () => {
  scope.end();
  await Promise.all([alice?.dispose(), bob?.dispose(), carol?.dispose()]);
  await server?.stop();
});

function panel(client: Client, target: string): UserPanelViewModel {
  return new UserPanelViewModel(client, client.rooms.get(roomId), target, scope.child());
}

describe("people and moderation", () => {
  it("lists members by section with roles, and filters them", async () => {
    const list = new MemberListViewModel(
      bob,
      bob.rooms.get(roomId),
      new PresenceTracker(bob, scope.child()),
      scope.child(),
    );
    await until(() => list.load.getSnapshot().kind === "done", "members loaded");
    await until(() => list.sections.getSnapshot().joined.length === 3, "three joined");
    const joined = list.sections.getSnapshot().joined;
    expect(joined[0]?.userId).toBe(alice.userId);
    expect(joined[0]?.roleLabel).toBe("Admin");
    expect(joined.find((m) => m.userId === bob.userId)?.roleLabel).toBe("Default");
    list.setQuery("caro");
    expect(list.sections.getSnapshot().joined.map((m) => m.userId)).toEqual([carol.userId]);
    expect(list.whyCannotInvite).toBeNull();
    await expect(list.invite("nobody")).rejects.toThrow(/user id/);
    await expect(list.invite("someone@example.org")).rejects.toThrow(/identity server/);
  });

  it("disables moderation for a plain member with a reason, and refuses it before any request", async () => {
    const bobOnCarol = panel(bob, carol.userId);
    const rights = bobOnCarol.view.getSnapshot().rights;
    expect(rights.kick).toBe("Your power level does not allow this.");
    expect(rights.ban).toBe("Your power level does not allow this.");
    expect(rights.power).not.toBeNull();
    expect(await bobOnCarol.kick("no")).toBe(false);
    expect(bobOnCarol.status.getSnapshot().error).toMatch(/does not allow you to kick/);
    expect(alice.rooms.get(roomId).getSnapshot().state.membershipOf(carol.userId)).toBe("join");
    expect(panel(bob, bob.userId).view.getSnapshot().rights.kick).toBe("You cannot do this to yourself.");
  });

  it("lets the admin kick, ban with a reason, and unban", async () => {
    const aliceOnCarol = panel(alice, carol.userId);
    expect(aliceOnCarol.view.getSnapshot().rights.kick).toBeNull();
    expect(await aliceOnCarol.kick("too loud")).toBe(true);
    await untilRoom(carol, roomId, "leave");
    expect(aliceOnCarol.status.getSnapshot().notice).toMatch(/was removed/);

    const aliceOnBob = panel(alice, bob.userId);
    expect(await aliceOnBob.ban("spam")).toBe(true);
    await untilRoom(bob, roomId, "leave");
    await until(() => aliceOnBob.view.getSnapshot().membership === "ban", "the ban in alice's view");
    expect(aliceOnBob.view.getSnapshot().reason).toBe("spam");
    expect(aliceOnBob.view.getSnapshot().rights.unban).toBeNull();
    expect(await aliceOnBob.unban()).toBe(true);
    await until(() => aliceOnBob.view.getSnapshot().membership === "leave", "unbanned");
  });

  it("changes a power level, and a moderator cannot ban the admin", async () => {
    await bob.moderation.join(roomId);
    await untilRoom(bob, roomId);
    await until(() => panel(alice, bob.userId).view.getSnapshot().membership === "join", "bob back");
    const aliceOnBob = panel(alice, bob.userId);
    expect(await aliceOnBob.setPowerLevel(50)).toBe(true);
    await until(() => aliceOnBob.view.getSnapshot().level === 50, "bob at 50");
    expect(aliceOnBob.view.getSnapshot().roleLabel).toBe("Moderator");
    await until(
      () => bob.rooms.get(roomId).getSnapshot().state.powerLevels.userLevel(bob.userId) === 50,
      "bob sees his level",
    );
    const bobOnAlice = panel(bob, alice.userId);
    expect(bobOnAlice.view.getSnapshot().rights.ban).toBe(
      "They have the same or a higher power level than you.",
    );
    expect(bobOnAlice.view.getSnapshot().rights.power).toBe("Not allowed to change power levels");
    expect(await bobOnAlice.setPowerLevel(0)).toBe(false);
    expect(bobOnAlice.status.getSnapshot().error).not.toBeNull();
  });

  it("ignores and un-ignores a user through m.ignored_user_list", async () => {
    const aliceOnBob = panel(alice, bob.userId);
    expect(await aliceOnBob.setIgnored(true)).toBe(true);
    await until(() => aliceOnBob.view.getSnapshot().ignored, "ignored");
    const content = await alice.accountData.get("m.ignored_user_list");
    expect(Object.keys((content?.["ignored_users"] as object | undefined) ?? {})).toEqual([bob.userId]);
    expect(await aliceOnBob.setIgnored(false)).toBe(true);
    await until(() => !aliceOnBob.view.getSnapshot().ignored, "not ignored");
  });

  it("invites by email through an identity server (a third-party invite in the room)", async () => {
    const identity = await startIdentityServer({ homeserverUrl: server.url });
    try {
      const list = new MemberListViewModel(
        alice,
        alice.rooms.get(roomId),
        new PresenceTracker(alice, scope.child()),
        scope.child(),
        identity.url,
      );
      expect(await list.invite("friend@example.org")).toBe("friend@example.org");
      await until(
        () => alice.rooms.get(roomId).getSnapshot().state.ofType("m.room.third_party_invite").size === 1,
        "the third-party invite",
      );
      expect(list.sections.getSnapshot().thirdParty).toHaveLength(1);
    } finally {
      await identity.stop();
    }
  });

  it("invites by user id and shows the invited section", async () => {
    const dave = await signUp(server.url, "dave");
    try {
      const list = new MemberListViewModel(
        alice,
        alice.rooms.get(roomId),
        new PresenceTracker(alice, scope.child()),
        scope.child(),
      );
      expect(await list.invite(dave.userId)).toBe(dave.userId);
      await until(
        () => list.sections.getSnapshot().invited.some((m) => m.userId === dave.userId),
        "dave invited",
      );
      await untilRoom(dave, roomId, "invite");
    } finally {
      await dave.dispose();
    }
  });
});
