/**
 * Interop: typing, read receipts, presence, push rules and unread counts on
 * every server of the fixture, between two clients sharing a room. The push
 * rules check is two-sided: the server's own counts must match what the
 * SDK's evaluator decides on the server's own ruleset (GET /pushrules).
 */
import { expect, it } from "vitest";
import { getPushRules, setPushRule } from "../../src/api/push";
import { sendEvent } from "../../src/api/send";
import type { Client } from "../../src/client";
import { evaluatePushRules } from "../../src/models/push-rules";
import { waitFor } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

let txn = 0;

/** Sends a text message straight through the API (not the queue); its event id. */
async function say(client: Client, roomId: string, body: string): Promise<string> {
  const content = { msgtype: "m.text", body };
  return (await sendEvent(client.http, roomId, "m.room.message", `interop-${Date.now()}-${++txn}`, content))
    .event_id;
}

function unreadOf(client: Client, roomId: string): { notificationCount: number; highlightCount: number } {
  return client.rooms.get(roomId).getSnapshot().unread;
}

describeEachServer("typing, receipts, presence, push rules, unread counts", (ctx) => {
  const start = clientsOf(ctx);

  it("a typing notice reaches the other member, and its end too", async () => {
    const [alice, bob] = await Promise.all([start("alice"), start("bob")]);
    const roomId = await sharedRoom(alice, [bob]);
    await alice.typing.setTyping(roomId, true);
    await waitFor(
      () => bob.rooms.get(roomId).getSnapshot().typing.includes(alice.userId),
      "alice typing, as bob sees it",
      SYNC_WAIT_MS,
    );
    await alice.typing.setTyping(roomId, false);
    await waitFor(
      () => !bob.rooms.get(roomId).getSnapshot().typing.includes(alice.userId),
      "alice no longer typing, as bob sees it",
      SYNC_WAIT_MS,
    );
  });

  it("unread counts rise with messages; a read receipt clears them and the sender sees it", async () => {
    const [alice, bob] = await Promise.all([start("alice"), start("bob")]);
    const roomId = await sharedRoom(alice, [bob]);
    await say(bob, roomId, "one");
    const last = await say(bob, roomId, "two");
    await waitFor(() => unreadOf(alice, roomId).notificationCount === 2, "2 unread for alice", SYNC_WAIT_MS);
    expect(unreadOf(alice, roomId).highlightCount).toBe(0);

    expect(await alice.receipts.sendReceipt(roomId, last)).toBe(true);
    await waitFor(
      () => bob.rooms.get(roomId).getSnapshot().receipts.of(alice.userId, "m.read")?.eventId === last,
      "alice's receipt, as bob sees it",
      SYNC_WAIT_MS,
    );
    await waitFor(
      () => unreadOf(alice, roomId).notificationCount === 0,
      "alice's count cleared",
      SYNC_WAIT_MS,
    );
  });

  it("presence set by one user is read back by a room member", async () => {
    const [alice, bob] = await Promise.all([start("alice"), start("bob")]);
    await sharedRoom(alice, [bob]);
    await alice.presence.set("unavailable", "out for lunch");
    const seen = await bob.presence.get(alice.userId);
    expect(seen.presence).toBe("unavailable");
    expect(seen.status_msg).toBe("out for lunch");
    await alice.presence.set("online");
    await expect(bob.presence.get(alice.userId)).resolves.toMatchObject({ presence: "online" });
  });

  it("the server's counts match the SDK's evaluation of the server's own push rules", async () => {
    const [alice, bob] = await Promise.all([start("alice"), start("bob")]);
    const displayName = `Alice ${alice.userId.slice(1, alice.userId.indexOf(":")).replace(/-/g, " ")}`;
    await alice.profile.setDisplayName(displayName);
    const loud = await sharedRoom(alice, [bob]);
    const muted = await sharedRoom(alice, [bob]);
    // A room rule with no actions: nothing in `muted` notifies.
    await setPushRule(alice.http, "room", muted, { actions: [] });
    const ruleset = (await getPushRules(alice.http)).global;
    expect(ruleset.room?.some((r) => r.rule_id === muted)).toBe(true);

    const sent = [
      { roomId: loud, body: "plain words" },
      { roomId: loud, body: `hello ${displayName}, look at this` },
      // Without a mention: a mention is an override rule, which outranks the room rule (spec order).
      { roomId: muted, body: "plain words in the muted room" },
    ];
    const outcomes = sent.map(({ roomId, body }) =>
      evaluatePushRules(
        { type: "m.room.message", sender: bob.userId, room_id: roomId, content: { msgtype: "m.text", body } },
        ruleset,
        { userId: alice.userId, displayName, memberCount: 2, roomId },
      ),
    );
    expect(outcomes.map((o) => [o.notify, o.highlight])).toEqual([
      [true, false],
      [true, true],
      [false, false],
    ]);
    for (const { roomId, body } of sent) await say(bob, roomId, body);
    // What the server counted (v2) or the client counted with the same rules (sliding sync) agrees.
    await waitFor(
      () => unreadOf(alice, loud).notificationCount === 2 && unreadOf(alice, loud).highlightCount === 1,
      `2 unread, 1 highlight in the loud room (now ${JSON.stringify(unreadOf(alice, loud))})`,
      SYNC_WAIT_MS,
    );
    await waitFor(
      () => alice.rooms.get(muted).recentEvents.some((e) => e.content["body"] === sent[2]?.body),
      "the muted room's message",
      SYNC_WAIT_MS,
    );
    expect(unreadOf(alice, muted)).toEqual({ notificationCount: 0, highlightCount: 0 });
  });
});
