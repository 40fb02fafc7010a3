/**
 * Moderation through the client facade, three clients on the test
 * homeserver: actions the power levels allow go through; refused ones fail
 * locally before any request (FORBIDDEN_LOCALLY); with a stale local view
 * the server's M_FORBIDDEN comes back; a stopped client refuses with
 * 'Client is not running'.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, ClientServiceError, MatrixError, ModerationService } from "../../src";
import type { Client } from "../../src";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let carol: Client;
let roomId: string;
/** Every URL bob's client fetched, so "before any request" can be checked. */
const bobFetches: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: "client-moderation" });
  [alice, bob, carol] = await Promise.all([
    startClient(server, "alice"),
    startClient(server, "bob", {
      httpOptions: {
        fetch: (input, init) => {
          bobFetches.push(input);
          return fetch(input, init);
        },
      },
    }),
    startClient(server, "carol"),
  ]);
  roomId = (await api.rooms.createRoom(alice.http, { preset: "public_chat", name: "Mods" })).room_id;
  await waitFor(() => alice.rooms.find(roomId), "alice's room");
  expect(await bob.moderation.join(roomId)).toBe(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitForMembership(bob, roomId, bob.userId, "join");
});

afterAll(async () => {
  await Promise.all([alice, bob, carol].map((c) => c?.dispose()));
  await server?.stop();
});

/**
 * A member's membership as the server has it. Other members' views are not
 * used for kicks and bans: the test homeserver's lazy-loaded state_after
 * leaves out a membership change whose target sent nothing (see the report).
 */
async function membershipOnServer(userId: string): Promise<unknown> {
  const content = await api.timeline.getStateEvent(alice.http, roomId, "m.room.member", userId);
  return content["membership"];
}

function waitForCategory(client: Client, id: string, category: string): Promise<true> {
  return waitFor(() => client.rooms.find(id)?.getSnapshot().category === category, `${category} in ${id}`);
}

function requestsTo(fragment: string): number {
  return bobFetches.filter((url) => url.includes(fragment)).length;
}

it("refuses locally what bob's power level does not allow, before any request", async () => {
  const before = requestsTo("/kick");
  expect(requestsTo("/sync")).toBeGreaterThan(0);
  const err = await bob.moderation.kick(roomId, alice.userId).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ClientServiceError);
  expect((err as ClientServiceError).code).toBe("FORBIDDEN_LOCALLY");
  expect(requestsTo("/kick")).toBe(before);
  await expect(bob.moderation.ban(roomId, alice.userId)).rejects.toBeInstanceOf(ClientServiceError);
  await expect(bob.moderation.upgrade(roomId, "10")).rejects.toBeInstanceOf(ClientServiceError);
  await expect(bob.moderation.setPowerLevel(roomId, bob.userId, 100)).rejects.toThrow(
    "Not allowed to change power levels",
  );
  expect(alice.rooms.get(roomId).getSnapshot().state.membershipOf(alice.userId)).toBe("join");
});

it("names unknown rooms", async () => {
  const nowhere = "!nowhere:test";
  await expect(bob.moderation.kick(nowhere, alice.userId)).rejects.toThrow("Unknown room");
  await expect(bob.moderation.leave(nowhere)).rejects.toThrow("Unknown room");
  await expect(bob.moderation.reportEvent(nowhere, "$e")).rejects.toThrow("Unknown room");
  await expect(bob.moderation.aliases(nowhere)).rejects.toThrow("Unknown room");
  await expect(bob.moderation.addAlias(nowhere, "#x:test")).rejects.toThrow("Unknown room");
  await expect(bob.moderation.visibility(nowhere)).rejects.toThrow("Unknown room");
  await expect(bob.moderation.setVisibility(nowhere, "public")).rejects.toThrow("Unknown room");
  await expect(bob.state.setState(nowhere, "m.room.topic", "", { topic: "t" })).rejects.toThrow(
    "Unknown room",
  );
  expect(() => bob.sendQueue.send(nowhere, "m.room.message", { body: "x" })).toThrow("Unknown room");
  expect(() => bob.sendQueue.react(nowhere, "$e", "x")).toThrow("Unknown room");
  expect(() => bob.sendQueue.redact(nowhere, "$e")).toThrow("Unknown room");
  await expect(bob.typing.setTyping(nowhere, true)).rejects.toThrow("Unknown room");
  await expect(bob.receipts.sendReceipt(nowhere, "$e")).rejects.toThrow("Unknown room");
  await expect(bob.accountData.addTag(nowhere, "m.favourite")).rejects.toThrow("Unknown room");
  await expect(bob.search.search("x", { roomIds: [nowhere] })).rejects.toThrow("Unknown room");
});

it("sets state directly: allowed at the state level, refused below it with no request", async () => {
  const topic = await alice.state.setState(roomId, "m.room.topic", "", { topic: "Set directly" });
  expect(topic).toMatch(/^\$/);
  await waitFor(
    () =>
      bob.rooms.get(roomId).getSnapshot().state.get("m.room.topic", "")?.content["topic"] === "Set directly",
    "bob sees the topic",
  );
  await expect(bob.state.setState(roomId, "m.room.topic", "", { topic: "No" })).rejects.toMatchObject({
    code: "FORBIDDEN_LOCALLY",
  });
});

it("lets a plain member set their own room name: member events follow the membership rules, not state_default", async () => {
  const mine = bob.rooms.get(roomId).getSnapshot().state.content("m.room.member", bob.userId) ?? {};
  const eventId = await bob.state.setState(roomId, "m.room.member", bob.userId, {
    ...mine,
    membership: "join",
    displayname: "Bob in Mods",
  });
  expect(eventId).toMatch(/^\$/);
  expect(await api.timeline.getStateEvent(alice.http, roomId, "m.room.member", bob.userId)).toMatchObject({
    displayname: "Bob in Mods",
  });
});

it("creates an encrypted room and resolves only once the client knows it is encrypted", async () => {
  const created = await alice.moderation.create({
    name: "Secret",
    initial_state: [
      { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
    ],
  });
  // No wait here: a message sent now must be encrypted, and the send queue asks the room model.
  expect(alice.rooms.find(created)?.getSnapshot().isEncrypted).toBe(true);
  const plain = await alice.moderation.create({ name: "Plain" });
  expect(plain).toMatch(/^!/);
  await waitFor(() => alice.rooms.find(plain), "the plain room");
  expect(alice.rooms.get(plain).getSnapshot().isEncrypted).toBe(false);
});

it("lets an invite through at level 0 in a public room, and a moderator kick, ban and unban", async () => {
  await bob.moderation.invite(roomId, carol.userId);
  await waitFor(() => carol.rooms.find(roomId)?.getSnapshot().category === "invite", "carol's invite");
  await carol.moderation.join(roomId);
  await waitForMembership(bob, roomId, carol.userId, "join");

  await alice.moderation.setPowerLevel(roomId, bob.userId, 50);
  await waitFor(
    () => bob.rooms.get(roomId).getSnapshot().state.powerLevels.userLevel(bob.userId) === 50,
    "bob promoted",
  );
  await bob.moderation.kick(roomId, carol.userId, "out");
  await waitForCategory(carol, roomId, "leave");
  expect(await membershipOnServer(carol.userId)).toBe("leave");
  // A moderator still may not touch the room's admin.
  await expect(bob.moderation.kick(roomId, alice.userId)).rejects.toBeInstanceOf(ClientServiceError);

  await bob.moderation.ban(roomId, carol.userId, "spam");
  expect(await membershipOnServer(carol.userId)).toBe("ban");
  await expect(carol.moderation.join(roomId)).rejects.toBeInstanceOf(MatrixError);
  await bob.moderation.unban(roomId, carol.userId);
  expect(await membershipOnServer(carol.userId)).toBe("leave");
  await carol.moderation.join(roomId);
  await waitForMembership(bob, roomId, carol.userId, "join");
});

it("surfaces the server's M_FORBIDDEN when the local view is stale", async () => {
  await waitFor(
    () => bob.rooms.get(roomId).getSnapshot().state.powerLevels.userLevel(bob.userId) === 50,
    "bob is a moderator",
  );
  await bob.stop();
  await expect(bob.moderation.kick(roomId, carol.userId)).rejects.toThrow("Client is not running");

  await alice.moderation.setPowerLevel(roomId, bob.userId, null);
  await waitFor(
    () => alice.rooms.get(roomId).getSnapshot().state.powerLevels.userLevel(bob.userId) === 0,
    "bob demoted",
  );
  // Bob's stopped client still believes he is a moderator: the local check passes, the server refuses.
  const stale = new ModerationService({
    http: bob.http,
    actor: { userId: bob.userId, guest: false },
    rooms: bob.rooms,
  });
  const err = await stale.kick(roomId, carol.userId).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MatrixError);
  expect((err as MatrixError).errcode).toBe("M_FORBIDDEN");
  await bob.start();
});

it("manages aliases, directory visibility, reports and leaving", async () => {
  const realAlias = `#mods:${server.serverName}`;
  await alice.moderation.addAlias(roomId, realAlias);
  expect(await alice.moderation.aliases(roomId)).toContain(realAlias);
  expect((await alice.directory.resolveAlias(realAlias)).room_id).toBe(roomId);
  await alice.moderation.setVisibility(roomId, "public");
  expect(await alice.moderation.visibility(roomId)).toBe("public");
  await alice.moderation.removeAlias(realAlias);
  expect(await alice.moderation.aliases(roomId)).not.toContain(realAlias);

  const event = await api.send.sendEvent(carol.http, roomId, "m.room.message", "t-report", {
    msgtype: "m.text",
    body: "rude",
  });
  await bob.moderation.reportEvent(roomId, event.event_id, "rude", -100);
  await bob.moderation.reportRoom(roomId, "whole room");

  await carol.moderation.leave(roomId);
  await waitForCategory(carol, roomId, "leave");
  await carol.moderation.forget(roomId);
});

it("knocks with a reason and joins by alias through via", async () => {
  const knockRoom = (
    await api.rooms.createRoom(alice.http, {
      preset: "private_chat",
      room_version: "10",
      initial_state: [{ type: "m.room.join_rules", state_key: "", content: { join_rule: "knock" } }],
    })
  ).room_id;
  await waitFor(() => alice.rooms.find(knockRoom), "alice's knock room");
  expect(await carol.moderation.knock(knockRoom, "let me in", [server.serverName])).toBe(knockRoom);
  await waitForMembership(alice, knockRoom, carol.userId, "knock");
  const reason = alice.rooms.get(knockRoom).getSnapshot().state.content("m.room.member", carol.userId)?.[
    "reason"
  ];
  expect(reason).toBe("let me in");
  await alice.moderation.invite(knockRoom, carol.userId);
  await waitFor(() => carol.rooms.find(knockRoom)?.getSnapshot().category === "invite", "carol invited");

  const alias = `#lobby:${server.serverName}`;
  await alice.moderation.addAlias(knockRoom, alias);
  expect(await carol.moderation.join(alias, { via: [server.serverName] })).toBe(knockRoom);
  await waitForMembership(alice, knockRoom, carol.userId, "join");
});

it("upgrades a room as its admin, and needs a version", async () => {
  await expect(alice.moderation.upgrade(roomId, "")).rejects.toThrow("A room upgrade needs a version");
  const replacement = await alice.moderation.upgrade(roomId, "11");
  expect(replacement).toMatch(/^!/);
  expect(replacement).not.toBe(roomId);
  await waitFor(
    () => alice.rooms.find(roomId)?.getSnapshot().state.get("m.room.tombstone") !== undefined,
    "tombstone synced",
  );
});
