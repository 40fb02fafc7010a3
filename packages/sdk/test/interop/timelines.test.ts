/**
 * Interop: timelines on every server of the fixture. Edits, reactions,
 * redactions and replies land on their targets (a removed reaction is never
 * an item of its own, live or fetched already redacted); thread summaries
 * come from the bundled aggregations of scrolled-back pages and stay
 * current as replies arrive; the threads panel is right with or without
 * /threads; back-pagination reaches the room's start.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRoom } from "../../src/api/rooms";
import { redactEvent, sendEvent } from "../../src/api/send";
import type { EventContent } from "../../src/api/types/events";
import type { Client } from "../../src/client";
import { ThreadList } from "../../src/models/threads/ThreadList";
import type { TimelineWindow } from "../../src/models/timeline/TimelineWindow";
import { realScheduler } from "../../src/util/scheduler";
import { startAnotherDevice, startClient, waitFor, waitForMembership } from "../client/helpers";
import { describeEachServer, uniqueLocalpart } from "./servers";

const SLOW = 30_000;
let txn = 0;

describeEachServer("timelines", (ctx) => {
  let alice: Client;
  let bob: Client;
  const clients: Client[] = [];
  const windows: TimelineWindow[] = [];

  beforeAll(async () => {
    alice = await startClient(ctx.server, uniqueLocalpart("alice"), { crypto: false });
    bob = await startClient(ctx.server, uniqueLocalpart("bob"), { crypto: false });
    clients.push(alice, bob);
  }, 120_000);

  afterAll(async () => {
    for (const w of windows.splice(0)) w.dispose();
    for (const c of clients.splice(0)) await c.stop();
  });

  async function sharedRoom(name: string): Promise<string> {
    const { room_id: roomId } = await createRoom(alice.http, {
      name,
      preset: "private_chat",
      invite: [bob.userId],
    });
    await waitFor(() => bob.rooms.find(roomId)?.getSnapshot().category === "invite", "bob's invite", SLOW);
    await bob.moderation.join(roomId);
    await waitForMembership(alice, roomId, bob.userId, "join");
    return roomId;
  }

  const send = async (who: Client, roomId: string, content: EventContent, type = "m.room.message") =>
    (await sendEvent(who.http, roomId, type, `t${++txn}-${Date.now()}`, content)).event_id;
  const text = (body: string, extra: EventContent = {}): EventContent => ({
    msgtype: "m.text",
    body,
    ...extra,
  });
  const threadReply = (root: string, body: string): EventContent =>
    text(body, {
      "m.relates_to": {
        rel_type: "m.thread",
        event_id: root,
        is_falling_back: true,
        "m.in_reply_to": { event_id: root },
      },
    });

  async function open(client: Client, roomId: string): Promise<TimelineWindow> {
    const room = await waitFor(() => client.rooms.find(roomId), "the room", SLOW);
    const window = room.openTimeline();
    windows.push(window);
    await window.load();
    return window;
  }

  it("applies edits, reactions, redactions and replies to their targets", async () => {
    const roomId = await sharedRoom("Interop timeline");
    const hello = await send(alice, roomId, text("hello"));
    await send(
      bob,
      roomId,
      { "m.relates_to": { rel_type: "m.annotation", event_id: hello, key: "👍" } },
      "m.reaction",
    );
    const party = await send(
      bob,
      roomId,
      { "m.relates_to": { rel_type: "m.annotation", event_id: hello, key: "🎉" } },
      "m.reaction",
    );
    await send(
      alice,
      roomId,
      text("* hello, edited", {
        "m.new_content": { msgtype: "m.text", body: "hello, edited" },
        "m.relates_to": { rel_type: "m.replace", event_id: hello },
      }),
    );
    const reply = await send(
      bob,
      roomId,
      text("a reply", { "m.relates_to": { "m.in_reply_to": { event_id: hello } } }),
    );
    const doomed = await send(alice, roomId, text("doomed"));
    await redactEvent(bob.http, roomId, party, `r${++txn}`);
    const last = await redactEvent(alice.http, roomId, doomed, `r${++txn}`);

    const check = (window: TimelineWindow): void => {
      const messages = window.items
        .getSnapshot()
        .filter((i) => i.type !== "m.room.member" && i.stateKey === undefined);
      // Only the three messages: no reaction, edit, redaction or removed reaction of their own.
      expect(messages.map((i) => i.eventId)).toEqual([hello, reply, doomed]);
      const [first, second, third] = messages;
      expect(first).toMatchObject({ edited: true, content: { body: "hello, edited" } });
      expect(first?.reactions.map((g) => [g.key, g.count])).toEqual([["👍", 1]]);
      expect(second?.inReplyTo).toBe(hello);
      expect(third?.redacted).toBe(true);
    };
    // Bob saw it all live...
    await waitFor(() => bob.rooms.find(roomId)?.findEvent(last.event_id), "the last redaction", SLOW);
    check(await open(bob, roomId));
    // ...a new device of his fetches it, the removed reaction already redacted by the server.
    const fresh = await startAnotherDevice(ctx.server, bob, {
      crypto: false,
      sync: { pollTimeoutMs: 1_000, initialSyncLimit: 1 },
    });
    clients.push(fresh);
    const window = await open(fresh, roomId);
    while (!window.items.getSnapshot().some((i) => i.eventId === hello) && window.canPaginate("b"))
      await window.paginate("b");
    check(window);
  });

  it("reads thread summaries from scrolled-back pages, keeps them current, and lists the threads", async () => {
    const roomId = await sharedRoom("Interop threads");
    const root = await send(alice, roomId, text("Thread root"));
    for (const body of ["one", "two", "three"]) await send(bob, roomId, threadReply(root, body));
    for (let i = 0; i < 40; i++) await send(alice, roomId, text(`filler ${i}`));
    const fresh = await startAnotherDevice(ctx.server, bob, {
      crypto: false,
      sync: { pollTimeoutMs: 1_000, initialSyncLimit: 5 },
    });
    clients.push(fresh);
    const room = await waitFor(() => fresh.rooms.find(roomId), "the room", SLOW);
    const window = await open(fresh, roomId);
    while (!window.items.getSnapshot().some((i) => i.eventId === root) && window.canPaginate("b"))
      await window.paginate("b");
    await waitFor(() => room.threads.get(root)?.replyCount === 3, "the bundled count of 3", SLOW);
    expect(room.threads.get(root)?.lastEvent?.content["body"]).toBe("three");

    await send(alice, roomId, threadReply(root, "four"));
    await waitFor(() => room.threads.get(root)?.replyCount === 4, "the live reply counted", SLOW);
    expect(room.threads.get(root)?.lastEvent?.content["body"]).toBe("four");

    // The panel, on yet another device that met none of it: with /threads (v1.4) or built locally.
    const third = await startAnotherDevice(ctx.server, bob, {
      crypto: false,
      sync: { pollTimeoutMs: 1_000, initialSyncLimit: 5 },
    });
    clients.push(third);
    const features = await third.serverFeatures();
    // Synapse 1.67 speaks v1.2 (threads as MSC3440, no /threads list); the others v1.4+.
    expect(features.threads).toBe(ctx.kind === "synapse-1.67" ? "experimental" : "stable");
    const panelRoom = await waitFor(() => third.rooms.find(roomId), "the room", SLOW);
    const list = new ThreadList({
      room: panelRoom,
      http: third.http,
      scheduler: realScheduler,
      support: features.threads,
    });
    try {
      await list.loadMore();
      expect(list.source).toBe(ctx.kind === "synapse-1.67" ? "local" : "server");
      const thread = list.items.getSnapshot().find((t) => t.rootId === root);
      expect(thread?.replyCount).toBe(4);
      expect(thread?.root?.content["body"]).toBe("Thread root");
    } finally {
      list.dispose();
    }
  });

  it("paginates back to the room's start", async () => {
    const roomId = await sharedRoom("Interop history");
    for (let i = 0; i < 30; i++) await send(alice, roomId, text(`line ${i}`));
    const fresh = await startAnotherDevice(ctx.server, bob, {
      crypto: false,
      sync: { pollTimeoutMs: 1_000, initialSyncLimit: 3 },
    });
    clients.push(fresh);
    const window = await open(fresh, roomId);
    for (let step = 0; step < 50 && window.canPaginate("b"); step++) await window.paginate("b");
    expect(window.canPaginate("b")).toBe(false);
    const items = window.items.getSnapshot();
    expect(items[0]?.type).toBe("m.room.create");
    expect(items.filter((i) => i.type === "m.room.message").map((i) => i.content["body"])).toEqual(
      Array.from({ length: 30 }, (_, i) => `line ${i}`),
    );
  });
});
