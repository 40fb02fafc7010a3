/**
 * The thread view models over HTTP against the test homeserver (sync v2,
 * which carries per-thread unread counts): the thread list pages the demo
 * thread with its summary; a reply from the thread's composer is an m.thread
 * event falling back to the latest thread event; the other user's row turns
 * unread, sorts first, and opening the thread (threaded receipt) clears it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@lattice/sdk/client";
import type { Client } from "@lattice/sdk/client";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import type { DemoSeed } from "@lattice/testserver/demo/seed";
import { Scope } from "./Scope";
import { ThreadsViewModel } from "./ThreadsViewModel";
import { ThreadViewModel } from "./ThreadViewModel";
import { until } from "./rooms/testing";

let server: TestServerHandle;
let seed: DemoSeed;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer();
  server.ctx.unstableFeatures.set("org.matrix.simplified_msc3575", false);
  seed = await seedDemo(server.url, { historySize: 4, log: () => undefined });
  const mk = (name: "alice" | "bob"): Client =>
    createClient({
      baseUrl: server.url,
      accessToken: seed.users[name].accessToken,
      userId: seed.users[name].userId,
      deviceId: seed.users[name].deviceId,
      httpOptions: { retry: false },
      sync: { pollTimeoutMs: 500 },
    });
  alice = mk("alice");
  bob = mk("bob");
  await Promise.all([alice.start(), bob.start()]);
}, 60_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

describe("threads view models", () => {
  it("lists threads, replies in one, and clears the other user's unread state on reading", async () => {
    const lounge = seed.rooms["lounge"] ?? "";
    const aliceRoom = await until(() => alice.rooms.find(lounge), "alice's lounge");
    const bobRoom = await until(() => bob.rooms.find(lounge), "bob's lounge");
    const aliceScope = new Scope();
    const bobScope = new Scope();
    const aliceThreads = new ThreadsViewModel({ client: alice, room: aliceRoom, scope: aliceScope });
    aliceThreads.open();
    const demo = await until(
      () => aliceThreads.rows.getSnapshot().find((r) => r.rootPreview.startsWith("Thread: what should")),
      "the demo thread",
    );
    expect(demo.replyCount).toBe(4);
    expect(demo.lastSender?.name).toBe("Bob Builder");
    expect(demo.participated).toBe(true);

    const thread = new ThreadViewModel({ client: alice, room: aliceRoom, rootId: demo.rootId });
    await until(() => thread.items.getSnapshot().length >= 5, "the thread's events");
    const latest = thread.items.getSnapshot().at(-1)?.eventId;
    thread.composer.setText("one more **idea**");
    expect(await thread.composer.send()).toBe(true);
    const sent = await until(
      () => thread.items.getSnapshot().find((i) => i.content["body"] === "one more **idea**"),
      "the reply in the thread",
    );
    expect(sent.event.content["m.relates_to"]).toEqual({
      rel_type: "m.thread",
      event_id: demo.rootId,
      is_falling_back: true,
      "m.in_reply_to": { event_id: latest },
    });
    expect(sent.event.content["formatted_body"]).toBe("one more <strong>idea</strong>");

    // Bob: the thread is unread, sorted first; its summary says so too.
    const bobThreads = new ThreadsViewModel({ client: bob, room: bobRoom, scope: bobScope });
    bobThreads.open();
    const summary = bobThreads.summaryOf(demo.rootId);
    await until(() => bobThreads.rows.getSnapshot()[0]?.rootId === demo.rootId, "unread first");
    expect(bobThreads.rows.getSnapshot()[0]?.unread).toBe("unread");
    await until(() => summary.getSnapshot()?.replyCount === 5, "the live summary");
    expect(summary.getSnapshot()?.lastPreview).toBe("one more **idea**");

    bobThreads.setInclude("participated");
    await until(() => bobThreads.rows.getSnapshot().some((r) => r.rootId === demo.rootId), "mine");

    const reading = new ThreadViewModel({ client: bob, room: bobRoom, rootId: demo.rootId });
    await until(
      () => bobThreads.rows.getSnapshot().find((r) => r.rootId === demo.rootId)?.unread === "none",
      "read",
    );
    expect(bobRoom.getSnapshot().threadUnread.get(demo.rootId)?.notificationCount ?? 0).toBe(0);
    expect(summary.getSnapshot()?.unread).toBe("none");

    reading.dispose();
    thread.dispose();
    aliceScope.end();
    bobScope.end();
  });
});
