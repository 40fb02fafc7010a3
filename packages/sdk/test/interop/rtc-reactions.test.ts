/**
 * Interop: raised hands and reactions in a MatrixRTC call between Lattice
 * clients on the test homeserver and the current Synapse, in Element
 * Call's forms (docs/architecture/0030):
 *
 * - in a plain room, alice raises her hand and reacts; bob sees both, and
 *   the server holds exactly Element Call's events (an m.reaction with the
 *   key 🖐️ on alice's membership event, an io.element.call.reaction
 *   m.reference with emoji and name); lowering redacts the reaction;
 * - in an encrypted room (Olm-encrypted keys, Megolm-encrypted events) the
 *   same goes through encryption, and carol, joining after the hand went
 *   up, finds it from the membership event's relations;
 * - with sticky memberships (MSC4354, Synapse advertises it) the hand
 *   annotates the sticky org.matrix.msc4143.rtc.member event.
 */
import { expect, it } from "vitest";
import { getEvent } from "../../src/api/timeline";
import type { Client } from "../../src/client";
import { memberKey, RAISED_HAND_KEY } from "../../src/rtc/reactions";
import type { CallReactions } from "../../src/rtc/reactions";
import { svc, waitFor } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer, INTEROP_SERVERS } from "./servers";

const CALL_ROOM = { power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } } };
const MEGOLM = { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } };
/** Raised hands need no delayed events: the test homeserver and the current Synapse. */
const SERVERS = INTEROP_SERVERS.filter((s) => s.kind !== "synapse-1.67");

function reactionsOf(c: Client, roomId: string): CallReactions {
  const r = svc(c).rtc.reactions(roomId);
  if (r === undefined) throw new Error(`${c.userId} is not in the call`);
  return r;
}

/** Waits until `me` sees `other` as a member of the room's call; their membership event id. */
function membershipSeen(me: Client, roomId: string, other: Client): Promise<string> {
  return waitFor(
    () =>
      svc(me)
        .rtc.session(roomId)
        .memberships.getSnapshot()
        .find((m) => m.sender === other.userId && m.deviceId === other.deviceId)?.eventId,
    `${me.userId} sees ${other.userId} in the call`,
    SYNC_WAIT_MS,
  );
}

function handOf(me: Client, roomId: string, other: Client): string | undefined {
  return reactionsOf(me, roomId)
    .raisedHands.getSnapshot()
    .get(memberKey(other.userId, other.deviceId ?? ""))?.reactionEventId;
}

describeEachServer(
  "Raised hands and reactions in a call",
  (ctx) => {
    const client = clientsOf(ctx);

    it("alice raises her hand and reacts, bob sees both in Element Call's forms; lowering redacts it", async () => {
      const [alice, bob] = await Promise.all([client("hand-alice"), client("hand-bob")]);
      const roomId = await sharedRoom(alice, [bob], CALL_ROOM);
      await svc(alice).rtc.join(roomId, { keyTransport: "room" });
      await svc(bob).rtc.join(roomId, { keyTransport: "room" });
      const aliceMembership = await membershipSeen(bob, roomId, alice);
      await membershipSeen(alice, roomId, alice);

      await reactionsOf(alice, roomId).raiseHand();
      const handId = await waitFor(() => handOf(bob, roomId, alice), "bob sees alice's hand", SYNC_WAIT_MS);
      const handEvent = await getEvent(bob.http, roomId, handId);
      expect(handEvent.type).toBe("m.reaction");
      expect(handEvent.sender).toBe(alice.userId);
      expect(handEvent.content).toStrictEqual({
        "m.relates_to": { rel_type: "m.annotation", event_id: aliceMembership, key: RAISED_HAND_KEY },
      });

      expect(await reactionsOf(alice, roomId).react({ emoji: "👍", name: "thumbsup" })).toBe(true);
      const shown = await waitFor(
        () =>
          reactionsOf(bob, roomId)
            .reactions.getSnapshot()
            .get(memberKey(alice.userId, alice.deviceId ?? "")),
        "bob sees alice's reaction",
        SYNC_WAIT_MS,
      );
      expect(shown).toMatchObject({ emoji: "👍", name: "thumbsup", known: true });

      await reactionsOf(alice, roomId).lowerHand();
      await waitFor(
        () => handOf(bob, roomId, alice) === undefined,
        "bob sees alice's hand down",
        SYNC_WAIT_MS,
      );
      const redacted = await getEvent(bob.http, roomId, handId);
      expect(redacted.content).toStrictEqual({});
      expect(redacted.unsigned?.redacted_because).toBeDefined();
    }, 240_000);

    it("with sticky memberships (where offered) the hand annotates the sticky membership event", async () => {
      const [alice, bob] = await Promise.all([client("shand-alice"), client("shand-bob")]);
      const roomId = await sharedRoom(alice, [bob], CALL_ROOM);
      const sticky = (await alice.serverFeatures()).unstableFeatures.has("org.matrix.msc4354");
      // Synapse 1.163 advertises MSC4354 (the fixture enables it); the test homeserver does not: the state form there.
      expect(sticky).toBe(ctx.kind === "synapse");
      await svc(alice).rtc.join(roomId, { keyTransport: "room", membershipForm: "sticky" });
      await svc(bob).rtc.join(roomId, { keyTransport: "room", membershipForm: "sticky" });
      const aliceMembership = await membershipSeen(bob, roomId, alice);
      await membershipSeen(alice, roomId, alice);
      expect((await getEvent(bob.http, roomId, aliceMembership)).type).toBe(
        sticky ? "org.matrix.msc4143.rtc.member" : "org.matrix.msc3401.call.member",
      );
      await reactionsOf(alice, roomId).raiseHand();
      const handId = await waitFor(() => handOf(bob, roomId, alice), "bob sees alice's hand", SYNC_WAIT_MS);
      const relates = (await getEvent(bob.http, roomId, handId)).content["m.relates_to"];
      expect(relates).toStrictEqual({
        rel_type: "m.annotation",
        event_id: aliceMembership,
        key: RAISED_HAND_KEY,
      });
    }, 240_000);

    it("in an encrypted room a late joiner finds a raised hand from the relations; the others see the reaction", async () => {
      const [alice, bob, carol] = await Promise.all([
        client("ehand-alice", { crypto: true }),
        client("ehand-bob", { crypto: true }),
        client("ehand-carol", { crypto: true }),
      ]);
      const roomId = await sharedRoom(alice, [bob, carol], { ...CALL_ROOM, initial_state: [MEGOLM] });
      await svc(alice).rtc.join(roomId);
      await svc(bob).rtc.join(roomId);
      await membershipSeen(alice, roomId, alice);
      await membershipSeen(bob, roomId, alice);

      await reactionsOf(alice, roomId).raiseHand();
      const handId = await waitFor(() => handOf(bob, roomId, alice), "bob sees alice's hand", SYNC_WAIT_MS);
      // On the wire it is encrypted; the relation stays in the clear for the server's relations.
      const raw = await getEvent(bob.http, roomId, handId);
      expect(raw.type).toBe("m.room.encrypted");

      await svc(carol).rtc.join(roomId);
      await membershipSeen(carol, roomId, alice);
      expect(
        await waitFor(() => handOf(carol, roomId, alice), "carol finds alice's hand", SYNC_WAIT_MS),
      ).toBe(handId);

      await waitFor(
        () => svc(bob).rtc.session(roomId).memberships.getSnapshot().length === 3,
        "bob sees carol",
        SYNC_WAIT_MS,
      );
      expect(await reactionsOf(bob, roomId).react({ emoji: "🎉", name: "party" })).toBe(true);
      for (const me of [alice, carol])
        expect(
          await waitFor(
            () =>
              reactionsOf(me, roomId)
                .reactions.getSnapshot()
                .get(memberKey(bob.userId, bob.deviceId ?? "")),
            `${me.userId} sees bob's reaction`,
            SYNC_WAIT_MS,
          ),
        ).toMatchObject({ emoji: "🎉", name: "party" });

      await reactionsOf(alice, roomId).lowerHand();
      for (const me of [bob, carol])
        await waitFor(
          () => handOf(me, roomId, alice) === undefined,
          `${me.userId} sees alice's hand down`,
          SYNC_WAIT_MS,
        );
    }, 300_000);
  },
  SERVERS,
);
