/**
 * The slash commands through the composer view model against the test
 * homeserver: message commands send the content Element sends (/plain
 * without HTML, /html and /spoiler with it), room and moderation commands
 * change state (/roomname, /myroomnick, /op, /deop, /kick, /ban, /unban),
 * account ones change account data (/ignore, /converttodm), /whois answers
 * with a notice, /help opens the list, and a member without the power
 * level gets the SDK's refusal, before any request, in its own words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { ComposerViewModel } from "../ComposerViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
  roomId = (
    await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { name: "Commands", preset: "private_chat", invite: [bob.userId] },
    })
  ).room_id;
  await untilRoom(bob, roomId, "invite");
  await bob.moderation.join(roomId);
  await untilRoom(bob, roomId);
  await until(
    () => alice.rooms.get(roomId).getSnapshot().state.membershipOf(bob.userId) === "join",
    "bob in",
  );
}, 30_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

function composerOf(client: Client): ComposerViewModel {
  return new ComposerViewModel({ client, room: client.rooms.get(roomId), events: () => [] });
}

async function run(vm: ComposerViewModel, text: string): Promise<boolean> {
  vm.setText(text);
  return vm.send();
}

/** The message with body `body` in alice's send queue (its local echo carries the content sent). */
async function lastSent(body: string): Promise<Record<string, unknown>> {
  return until(() => {
    const found = alice.sendQueue
      .room(roomId)
      .getSnapshot()
      .find((p) => p.content["body"] === body);
    return found?.content;
  }, `sent ${body}`);
}

describe("slash commands through the composer", () => {
  it("message commands: /plain keeps markdown as typed, /html and /spoiler send HTML", async () => {
    const vm = composerOf(alice);
    expect(await run(vm, "/plain **not bold**")).toBe(true);
    const plain = await lastSent("**not bold**");
    expect(plain["formatted_body"]).toBeUndefined();
    expect(await run(vm, "/html <b>bold</b>")).toBe(true);
    expect(await lastSent("bold")).toMatchObject({
      format: "org.matrix.custom.html",
      formatted_body: "<b>bold</b>",
    });
    expect(await run(vm, "/spoiler the butler")).toBe(true);
    expect((await lastSent("the butler"))["formatted_body"]).toBe("<span data-mx-spoiler>the butler</span>");
    vm.dispose();
  });

  it("room and moderation commands change the room's state", async () => {
    const vm = composerOf(alice);
    const room = alice.rooms.get(roomId);
    expect(await run(vm, "/roomname Renamed by command")).toBe(true);
    await until(() => room.getSnapshot().name.name === "Renamed by command", "name");
    await run(vm, "/myroomnick Al");
    expect(vm.error.getSnapshot()).toBeNull();
    await until(() => room.getSnapshot().members.get(alice.userId)?.name === "Al", "room nick");
    expect(await run(vm, `/op ${bob.userId} 40`)).toBe(true);
    await until(() => room.getSnapshot().state.powerLevels.userLevel(bob.userId) === 40, "op");
    expect(await run(vm, `/deop ${bob.userId}`)).toBe(true);
    await until(() => room.getSnapshot().state.powerLevels.userLevel(bob.userId) === 0, "deop");
    expect(await run(vm, `/whois ${bob.userId}`)).toBe(true);
    expect(vm.notice.getSnapshot()).toBe(`${bob.userId}: bob, join, power level 0`);
    expect(await run(vm, "/help")).toBe(true);
    expect(vm.panel.getSnapshot()).toBe("help");
    vm.dispose();
  });

  it("a member without the power level gets the SDK's refusal, in its words", async () => {
    const vm = composerOf(bob);
    expect(await run(vm, `/ban ${alice.userId} spam`)).toBe(false);
    expect(vm.error.getSnapshot()).toBe(
      `The command failed: Your power level in ${roomId} does not allow you to ban ${alice.userId}`,
    );
    expect(await run(vm, "/topic Bob was here")).toBe(false);
    expect(vm.error.getSnapshot()).toMatch(/^The command failed: .*does not allow you to/);
    // The text stays for another try.
    expect(vm.text.getSnapshot()).toBe("/topic Bob was here");
    vm.dispose();
  });

  it("account commands: /ignore and /converttodm write account data; kick, ban and unban", async () => {
    const vm = composerOf(alice);
    expect(await run(vm, `/ignore @troll:localhost`)).toBe(true);
    expect(vm.notice.getSnapshot()).toBe("Ignoring @troll:localhost: you will not see their messages.");
    expect(await alice.accountData.get("m.ignored_user_list")).toEqual({
      ignored_users: { "@troll:localhost": {} },
    });
    expect(await run(vm, "/unignore @troll:localhost")).toBe(true);
    expect(await alice.accountData.get("m.ignored_user_list")).toEqual({ ignored_users: {} });
    expect(await run(vm, "/converttodm")).toBe(true);
    expect(await alice.accountData.get("m.direct")).toEqual({ [bob.userId]: [roomId] });
    expect(await run(vm, "/converttoroom")).toBe(true);
    expect((await alice.accountData.get("m.direct")) ?? {}).toEqual({});

    const room = alice.rooms.get(roomId);
    expect(await run(vm, `/kick ${bob.userId} out`)).toBe(true);
    await until(() => room.getSnapshot().state.membershipOf(bob.userId) === "leave", "kicked");
    expect(await run(vm, `/ban ${bob.userId}`)).toBe(true);
    await until(() => room.getSnapshot().state.membershipOf(bob.userId) === "ban", "banned");
    expect(await run(vm, `/unban ${bob.userId}`)).toBe(true);
    await until(() => room.getSnapshot().state.membershipOf(bob.userId) === "leave", "unbanned");
    vm.dispose();
  });
});
