/**
 * Concurrent edits and redactions through three createClient clients on the
 * test homeserver, every write through the send queues: alice edits her
 * message twice while bob (a moderator) redacts it and carol reacts to it,
 * and alice also edits a second message while carol redacts her own
 * reaction to it. Every client's timeline window converges on the same
 * items: the redacted message stripped, with no edit or reaction surviving
 * the redaction; the other message with its latest edit and no reaction.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client, TimelineItem, TimelineWindow } from "../../src";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let carol: Client;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: "client-concurrent" });
  [alice, bob, carol] = await Promise.all([
    startClient(server, "alice"),
    startClient(server, "bob"),
    startClient(server, "carol"),
  ]);
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "public_chat",
      name: "Busy",
      power_level_content_override: { users: { [alice.userId]: 100, [bob.userId]: 50 } },
    })
  ).room_id;
  await waitFor(() => alice.rooms.find(roomId), "alice's room");
  await Promise.all([bob.moderation.join(roomId), carol.moderation.join(roomId)]);
  await waitForMembership(alice, roomId, carol.userId, "join");
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitFor(() => carol.rooms.find(roomId), "carol's room");
}, 30_000);

afterAll(async () => {
  await Promise.all([alice, bob, carol].map((c) => c?.dispose()));
  await server?.stop();
});

async function sent(client: Client, txnId: string): Promise<string> {
  const settled = await client.sendQueue.whenSettled(txnId);
  const id = settled?.eventId;
  if (id === undefined) throw new Error(`not sent: ${JSON.stringify(settled)}`);
  return id;
}

const editOf = (target: string, body: string) => ({
  msgtype: "m.text",
  body: `* ${body}`,
  "m.new_content": { msgtype: "m.text", body },
  "m.relates_to": { rel_type: "m.replace", event_id: target },
});

function view(items: readonly TimelineItem[]) {
  return items
    .filter((i) => i.type === "m.room.message")
    .map((i) => ({
      id: i.eventId,
      body: i.content["body"],
      redacted: i.redacted,
      reactions: i.reactions.map((r) => `${r.key}x${r.count}`),
    }));
}

it("converges on the same timeline in every client", async () => {
  const first = await sent(
    alice,
    alice.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "one" }).txnId,
  );
  const second = await sent(
    alice,
    alice.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "two" }).txnId,
  );
  await waitFor(
    () => bob.rooms.find(roomId)?.findEvent(second) && carol.rooms.find(roomId)?.findEvent(second),
    "both see them",
  );

  const windows: TimelineWindow[] = [];
  for (const c of [alice, bob, carol]) {
    const w = c.rooms.get(roomId).openTimeline();
    await w.load();
    windows.push(w);
  }

  // All at once: two edits of each message, a moderator's redaction, reactions and a reaction's redaction.
  const carolReaction = carol.sendQueue.react(roomId, second, "👀");
  const writes = [
    alice.sendQueue.send(roomId, "m.room.message", editOf(first, "one, edited")),
    bob.sendQueue.redact(roomId, first, "moderated"),
    carol.sendQueue.react(roomId, first, "👍"),
    alice.sendQueue.send(roomId, "m.room.message", editOf(first, "one, edited twice")),
    alice.sendQueue.send(roomId, "m.room.message", editOf(second, "two, edited")),
    carolReaction,
    carol.sendQueue.redact(roomId, carolReaction.txnId),
    alice.sendQueue.send(roomId, "m.room.message", editOf(second, "two, edited twice")),
  ];
  const owners = [alice, bob, carol, alice, alice, carol, carol, alice];
  await Promise.all(
    writes.map((w, i) => (w === null ? Promise.resolve() : owners[i]!.sendQueue.whenSettled(w.txnId))),
  );

  const expected = [
    { id: first, body: undefined, redacted: true, reactions: [] },
    { id: second, body: "two, edited twice", redacted: false, reactions: [] },
  ];
  for (const w of windows) {
    await waitFor(
      () => JSON.stringify(view(w.items.getSnapshot())) === JSON.stringify(expected),
      "converged timeline",
    );
  }
  // Same items everywhere, and the redacted message keeps none of its content.
  const [a, b, c] = windows.map((w) => view(w.items.getSnapshot()));
  expect(a).toEqual(expected);
  expect(b).toEqual(a);
  expect(c).toEqual(a);
  const redacted = windows[2]!.items.getSnapshot().find((i) => i.eventId === first);
  expect(redacted?.content).toEqual({});
  for (const w of windows) w.close();
}, 30_000);
