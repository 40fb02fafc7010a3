/**
 * Interop: moderation on every server of the fixture, through the client's
 * moderation service: a power level given by the room's creator is seen by
 * the member it raises and lets them kick; ban keeps a user out until the
 * unban; a redaction by a moderator strips the event for the other members;
 * what the power levels do not allow is refused before any request.
 */
import { beforeAll, expect, it } from "vitest";
import { getEvent, getStateEvent } from "../../src/api/timeline";
import { sendEvent } from "../../src/api/send";
import { ClientServiceError, type Client } from "../../src/client";
import { MatrixError } from "../../src/http/errors";
import { waitFor, waitForMembership } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

describeEachServer("moderation", (ctx) => {
  const start = clientsOf(ctx);
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let roomId: string;

  /** A member's membership as the server has it (the authority; member lists are lazy-loaded). */
  async function membershipOnServer(userId: string): Promise<unknown> {
    return (await getStateEvent(alice.http, roomId, "m.room.member", userId))["membership"];
  }

  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([start("alice"), start("bob"), start("carol")]);
    roomId = await sharedRoom(alice, [bob, carol], { preset: "public_chat", name: "Moderated" });
  });

  it("refuses locally what the power levels do not allow", async () => {
    const err = await carol.moderation.kick(roomId, bob.userId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientServiceError);
    expect((err as ClientServiceError).code).toBe("FORBIDDEN_LOCALLY");
    await expect(carol.moderation.setPowerLevel(roomId, carol.userId, 100)).rejects.toThrow(
      "Cannot grant a power level above your own",
    );
    expect(await membershipOnServer(bob.userId)).toBe("join");
  });

  it("a moderator level set by the creator reaches the member, who can then kick", async () => {
    await alice.moderation.setPowerLevel(roomId, bob.userId, 50);
    await waitFor(
      () => bob.moderation.powerLevels(roomId).userLevel(bob.userId) === 50,
      "bob's level 50 as bob sees it",
      SYNC_WAIT_MS,
    );
    expect(bob.moderation.powerLevels(roomId).canKick(bob.userId, carol.userId)).toBe(true);
    await bob.moderation.kick(roomId, carol.userId, "cool down");
    expect(await membershipOnServer(carol.userId)).toBe("leave");
    await waitFor(
      () => carol.rooms.find(roomId)?.getSnapshot().category === "leave",
      () =>
        `carol's room left (carol sees ${carol.rooms.find(roomId)?.getSnapshot().category}, sync mode ${carol.sync.syncMode.getSnapshot()})`,
      SYNC_WAIT_MS,
    );
    // A kick is not a ban: carol can come back to the public room.
    await carol.moderation.join(roomId);
    await waitForMembership(carol, roomId, carol.userId, "join", SYNC_WAIT_MS);
  });

  it("a ban keeps the user out until the unban", async () => {
    await alice.moderation.ban(roomId, carol.userId, "spam");
    expect(await membershipOnServer(carol.userId)).toBe("ban");
    const refused = await carol.moderation.join(roomId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MatrixError);
    expect((refused as MatrixError).httpStatus).toBe(403);
    // Synapse refuses a banned user's join before the auth rules, with M_BAD_STATE ("Cannot join user who
    // was banned"); the test homeserver answers the spec's M_FORBIDDEN.
    expect((refused as MatrixError).errcode).toBe(ctx.kind === "testserver" ? "M_FORBIDDEN" : "M_BAD_STATE");
    await waitForMembership(alice, roomId, carol.userId, "ban", SYNC_WAIT_MS);
    await alice.moderation.unban(roomId, carol.userId);
    expect(await membershipOnServer(carol.userId)).toBe("leave");
    await carol.moderation.join(roomId);
    expect(await membershipOnServer(carol.userId)).toBe("join");
  });

  it("a moderator's redaction strips the event for everyone", async () => {
    const { event_id: eventId } = await sendEvent(
      carol.http,
      roomId,
      "m.room.message",
      `redact-${Date.now()}`,
      {
        msgtype: "m.text",
        body: "something regrettable",
      },
    );
    await waitFor(() => alice.rooms.get(roomId).findEvent(eventId), "carol's message at alice", SYNC_WAIT_MS);
    const redaction = alice.sendQueue.redact(roomId, eventId, "off-topic");
    expect(redaction).not.toBeNull();
    const settled = await alice.sendQueue.whenSettled(redaction?.txnId ?? "");
    expect([null, "sent"]).toContain(settled?.status ?? null);
    await waitFor(
      () => {
        const seen = bob.rooms.get(roomId).findEvent(eventId);
        return (
          seen !== undefined && Object.keys(seen.content).length === 0 && seen.unsigned?.redacted_because
        );
      },
      "the redacted message, as bob sees it",
      SYNC_WAIT_MS,
    );
    const onServer = await getEvent(bob.http, roomId, eventId);
    expect(onServer.content).toEqual({});
    expect(onServer.unsigned?.redacted_because?.content).toMatchObject({ reason: "off-topic" });
  });
});
