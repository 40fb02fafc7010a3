/**
 * Room settings over HTTP against the test homeserver: name, topic, join
 * rule (knock, restricted to a space), history visibility, guest access,
 * encryption, addresses and publishing, and power level edits each land as
 * state (seen by another member); a member without the power is refused
 * before any request; upgrade, report, leave and forget; and the power
 * level editor's checks and merge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { mergePowerLevels } from "./powerLevelEdits";
import { ReportViewModel } from "./ReportViewModel";
import { RoomSettingsViewModel } from "./RoomSettingsViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const scope = new Scope();

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
  roomId = await new RoomActionsViewModel(alice).createRoom({ name: "Settings", isPublic: true });
  await untilRoom(alice, roomId);
  await bob.moderation.join(roomId);
  await untilRoom(bob, roomId);
}, 30_000);

afterAll(async () => {
  scope.end();
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

const stateOf = (client: Client) => client.rooms.get(roomId).getSnapshot().state;

describe("RoomSettingsViewModel", () => {
  it("sends name, topic, join rule, history, guest access and encryption as state events", async () => {
    const vm = new RoomSettingsViewModel(alice, alice.rooms.get(roomId), scope.child());
    expect(await vm.setName("Renamed")).toBe(true);
    expect(await vm.setTopic("New topic")).toBe(true);
    expect(await vm.setJoinRule("knock")).toBe(true);
    expect(await vm.setHistoryVisibility("joined")).toBe(true);
    expect(await vm.setGuestAccess(true)).toBe(true);
    expect(await vm.enableEncryption()).toBe(true);
    await until(() => stateOf(bob).isEncrypted && stateOf(bob).joinRule === "knock", "bob sees the changes");
    expect(stateOf(bob).content("m.room.name")?.["name"]).toBe("Renamed");
    expect(stateOf(bob).content("m.room.topic")?.["topic"]).toBe("New topic");
    expect(stateOf(bob).historyVisibility).toBe("joined");
    expect(stateOf(bob).guestAccess).toBe("can_join");
    await until(() => vm.view.getSnapshot().name === "Renamed", "the view follows");
    expect(vm.view.getSnapshot().encrypted).toBe(true);

    const space = await alice.moderation.join(
      await new RoomActionsViewModel(alice).createRoom({ name: "Space", isPublic: false, encrypted: false }),
    );
    expect(await vm.setJoinRule("restricted", [space])).toBe(true);
    await until(() => vm.view.getSnapshot().allowSpaces.includes(space), "restricted to the space");
    expect(vm.view.getSnapshot().joinRule).toBe("restricted");
  });

  it("refuses a member without the power before any request", async () => {
    const vm = new RoomSettingsViewModel(bob, bob.rooms.get(roomId), scope.child());
    expect(vm.view.getSnapshot().can("m.room.name")).toBe(false);
    expect(await vm.setName("Bob's room")).toBe(false);
    expect(vm.status.getSnapshot().error).toMatch(/does not allow you to set m.room.name/);
  });

  it("manages addresses and the directory listing", async () => {
    const vm = new RoomSettingsViewModel(alice, alice.rooms.get(roomId), scope.child());
    expect(await vm.addAlias("settings-room")).toBe(true);
    await until(() => vm.view.getSnapshot().canonicalAlias === "#settings-room:localhost", "main address");
    expect(vm.addresses.getSnapshot()?.local).toContain("#settings-room:localhost");
    expect(await vm.setPublished(false)).toBe(true);
    expect(await alice.moderation.visibility(roomId)).toBe("private");
    expect(await vm.removeAlias("#settings-room:localhost")).toBe(true);
    await until(() => vm.view.getSnapshot().canonicalAlias === undefined, "main address cleared");
  });

  it("edits power levels per type, default and user, within the user's own level", async () => {
    const vm = new RoomSettingsViewModel(alice, alice.rooms.get(roomId), scope.child());
    expect(vm.whyCannotEditPowerLevels({ users: { [bob.userId]: 101 } })).toMatch(/above your own/);
    const ok = await vm.savePowerLevels({
      levels: { invite: 50, users_default: 1 },
      events: { "m.room.topic": 20 },
      users: { [bob.userId]: 20 },
    });
    expect(ok).toBe(true);
    await until(() => stateOf(bob).powerLevels.userLevel(bob.userId) === 20, "bob at 20");
    expect(stateOf(bob).powerLevels.requiredForEvent("m.room.topic", true)).toBe(20);
    expect(stateOf(bob).powerLevels.levels.invite).toBe(50);
    // Bob may now set the topic but not the name.
    const bobVm = new RoomSettingsViewModel(bob, bob.rooms.get(roomId), scope.child());
    expect(bobVm.view.getSnapshot().can("m.room.topic")).toBe(true);
    expect(await bobVm.setTopic("Bob's topic")).toBe(true);
    expect(bobVm.whyCannotEditPowerLevels({ levels: { kick: 0 } })).toMatch(/cannot change permissions/);
  });

  it("merges power level changes without losing other fields", () => {
    const merged = mergePowerLevels(
      { ban: 50, users: { "@a:x": 100, "@b:x": 10 }, custom: true },
      { users: { "@b:x": null, "@c:x": 5 }, events: { "m.x": 1 }, notifyRoom: 20 },
    );
    expect(merged).toEqual({
      ban: 50,
      custom: true,
      users: { "@a:x": 100, "@c:x": 5 },
      events: { "m.x": 1 },
      notifications: { room: 20 },
    });
  });

  it("reports a message with a reason and a score", async () => {
    const { event_id: eventId } = await bob.http.request<{ event_id: string }>({
      method: "PUT",
      path: `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t1`,
      body: { msgtype: "m.text", body: "rude" },
    });
    const report = new ReportViewModel(alice);
    report.reportEvent(roomId, eventId);
    expect(report.target.getSnapshot()?.eventId).toBe(eventId);
    expect(await report.submit("rude words", -80)).toBe(true);
    expect(report.target.getSnapshot()?.sent).toMatch(/Report sent/);
    report.reportEvent(roomId, "$missing");
    expect(await report.submit("gone")).toBe(false);
    expect(report.target.getSnapshot()?.error).not.toBeNull();
  });

  it("upgrades the room, then leaves and forgets the old one", async () => {
    const vm = new RoomSettingsViewModel(alice, alice.rooms.get(roomId), scope.child());
    const replacement = await vm.upgrade("11");
    expect(replacement).toMatch(/^!/);
    await until(() => stateOf(bob).get("m.room.tombstone") !== undefined, "the tombstone");
    expect(await vm.forget()).toBe(true);
    await untilRoom(alice, roomId, "leave");
  });
});
