/**
 * Receipts, typing, presence, account data, tags and profile through the
 * client facade, clients on the test homeserver: thread and room unread
 * counts, literal at each step, after reading in the thread and in the
 * main timeline; a pending echo cannot be read-marked; typing and presence
 * reach the other client; account data writes survive injected 500s.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, createClient, MatrixError } from "../../src";
import type { Client, RoomSnapshot } from "../../src";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let vera: Client;
let roomId: string;
let txn = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: "client-room-services" });
  [alice, bob, vera] = await Promise.all([
    startClient(server, "alice", { accountDataRetryBaseMs: 10 }),
    // Auto: sliding sync on the test server, where the client counts per-thread unread itself.
    startClient(server, "bob", { sync: { pollTimeoutMs: 1_000, syncMode: "auto" } }),
    // Sync v2, where the server's per-thread counts win.
    startClient(server, "vera", { sync: { pollTimeoutMs: 1_000, syncMode: "v2" } }),
  ]);
  roomId = (await api.rooms.createRoom(alice.http, { preset: "public_chat", name: "Services" })).room_id;
  await waitFor(() => alice.rooms.find(roomId), "alice's room");
  await bob.moderation.join(roomId);
  await vera.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitFor(() => bob.rooms.find(roomId), "bob's room");
  await waitFor(() => vera.rooms.find(roomId), "vera's room");
});

afterAll(async () => {
  await Promise.all([alice, bob, vera].map((c) => c?.dispose()));
  await server?.stop();
});

async function say(body: string, threadRoot?: string): Promise<string> {
  const content: Record<string, unknown> = { msgtype: "m.text", body };
  if (threadRoot !== undefined) {
    content["m.relates_to"] = {
      rel_type: "m.thread",
      event_id: threadRoot,
      is_falling_back: true,
      "m.in_reply_to": { event_id: threadRoot },
    };
  }
  return (await api.send.sendEvent(alice.http, roomId, "m.room.message", `svc${txn++}`, content)).event_id;
}

/** The reader's counts as the scenario expects them: main timeline, and per thread (a read thread has none or 0). */
function counts(snap: RoomSnapshot): { main: number; threads: Record<string, number> } {
  const threads: Record<string, number> = {};
  for (const [id, c] of snap.threadUnread) if (c.notificationCount > 0) threads[id] = c.notificationCount;
  return { main: snap.unread.notificationCount, threads };
}

function bobView(): RoomSnapshot {
  return bob.rooms.get(roomId).getSnapshot();
}

/** Thread and main counts, literal at each step, reading the thread first then main, and the other way round. */
async function badgeScenario(reader: Client): Promise<void> {
  const view = (): RoomSnapshot => reader.rooms.get(roomId).getSnapshot();
  // Start from a read room: an unthreaded receipt covers every timeline.
  const start = await say("start");
  await waitFor(() => view().latestEvent?.event_id === start, "the reader sees the start");
  await reader.receipts.sendReceipt(roomId, start);
  await waitFor(() => view().unread.notificationCount === 0, "all read at the start");
  expect(counts(view())).toEqual({ main: 0, threads: {} });
  const m1 = await say("main one");
  const root = await say("thread root");
  await say("reply one", root);
  const t2 = await say("reply two", root);
  await waitFor(() => view().latestEvent?.event_id === t2, "the reader sees the replies");
  await waitFor(() => view().threadUnread.get(root)?.notificationCount === 2, "thread count 2");
  expect(counts(view())).toEqual({ main: 2, threads: { [root]: 2 } });

  // Reading the thread clears the thread, not the main timeline.
  await reader.receipts.sendReceipt(roomId, t2, { threadId: root });
  await waitFor(() => (view().threadUnread.get(root)?.notificationCount ?? 0) === 0, "thread read");
  expect(counts(view())).toEqual({ main: 2, threads: {} });

  // Reading the main timeline clears the rest.
  await reader.receipts.sendReceipt(roomId, root, { threadId: "main" });
  await waitFor(() => view().unread.notificationCount === 0, "main read");
  expect(counts(view())).toEqual({ main: 0, threads: {} });
  await waitFor(
    () =>
      alice.rooms.get(roomId).getSnapshot().receipts.of(reader.userId, "m.read", "main")?.eventId === root,
    "alice sees the threaded receipt",
  );

  // Now the other way round: main first, then the thread.
  const m3 = await say("main three");
  const t3 = await say("reply three", root);
  await waitFor(() => view().latestEvent?.event_id === t3, "the reader sees round two");
  await waitFor(() => view().threadUnread.get(root)?.notificationCount === 1, "thread count 1");
  expect(counts(view())).toEqual({ main: 1, threads: { [root]: 1 } });
  await reader.receipts.sendReceipt(roomId, m3, { threadId: "main" });
  await waitFor(() => view().unread.notificationCount === 0, "main read again");
  expect(counts(view())).toEqual({ main: 0, threads: { [root]: 1 } });
  await reader.receipts.sendReceipt(roomId, t3, { threadId: root });
  await waitFor(() => (view().threadUnread.get(root)?.notificationCount ?? 0) === 0, "all read");
  expect(counts(view())).toEqual({ main: 0, threads: {} });
  void m1;
}

it("keeps thread and room unread counts right after reading either place (sliding sync)", async () => {
  await badgeScenario(bob);
});

it("keeps thread and room unread counts right after reading either place (sync v2)", async () => {
  await badgeScenario(vera);
});

it("moves the fully-read marker and a private receipt, and refuses pending echoes", async () => {
  const last = await say("marker");
  await waitFor(() => bobView().latestEvent?.event_id === last, "bob sees it");
  await bob.receipts.setReadMarkers(roomId, { fullyRead: last, readPrivate: last });
  await waitFor(
    () => bobView().accountData.get("m.fully_read")?.content["event_id"] === last,
    "fully read marker synced",
  );
  const pending = bob.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "pending" });
  await expect(bob.receipts.sendReceipt(roomId, pending.txnId)).rejects.toThrow(
    "A read marker or receipt cannot be set to a pending event",
  );
  await expect(bob.receipts.sendReceipt("!unknown:test", last)).rejects.toThrow("Unknown room");
  await bob.sendQueue.whenSettled(pending.txnId);
});

it("shows typing to the other client and clears it on stop", async () => {
  await alice.typing.setTyping(roomId, true);
  await waitFor(() => bobView().typing.includes(alice.userId), "bob sees alice typing");
  await alice.typing.setTyping(roomId, false);
  await waitFor(() => !bobView().typing.includes(alice.userId), "typing cleared");
});

it("sets presence, seen by the other user, and refuses a bad value", async () => {
  await alice.presence.set("unavailable", "lunch");
  const seen = await bob.presence.get(alice.userId);
  expect(seen.presence).toBe("unavailable");
  expect(seen.status_msg).toBe("lunch");
  await expect(alice.presence.set("away" as "online")).rejects.toThrow("Bad presence value");
});

it("retries account data writes through injected 500s, and gives up after 5 attempts", async () => {
  server.faults.add({ path: "/account_data/", method: "PUT", status: 500, times: 3 });
  await alice.accountData.set("org.lattice.retry", { v: 1 });
  expect(await alice.accountData.get("org.lattice.retry")).toEqual({ v: 1 });
  await waitFor(() => alice.rooms.accountData("org.lattice.retry"), "synced account data");

  server.faults.add({ path: "/account_data/", method: "PUT", status: 500, times: 5 });
  const err = await alice.accountData.set("org.lattice.retry", { v: 2 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MatrixError);
  expect((err as MatrixError).httpStatus).toBe(500);
  expect(await alice.accountData.get("org.lattice.retry")).toEqual({ v: 1 });
  expect(await alice.accountData.get("org.lattice.none")).toBeNull();

  await alice.accountData.setRoom(roomId, "org.lattice.room", { r: true });
  expect(await alice.accountData.getRoom(roomId, "org.lattice.room")).toEqual({ r: true });
});

it("adds and removes tags, seen by the room model", async () => {
  await alice.accountData.addTag(roomId, "m.favourite", 0.25);
  expect((await alice.accountData.tags(roomId)).get("m.favourite")).toMatchObject({ order: 0.25 });
  await waitFor(() => alice.rooms.get(roomId).getSnapshot().tags.has("m.favourite"), "tag synced");
  await alice.accountData.removeTag(roomId, "m.favourite");
  await waitFor(() => !alice.rooms.get(roomId).getSnapshot().tags.has("m.favourite"), "tag removed");
});

it("edits the profile and its extended fields where the server supports them", async () => {
  await alice.profile.setDisplayName("Alice A");
  expect((await bob.profile.get(alice.userId)).displayname).toBe("Alice A");
  // The test server's current profile advertises extended profiles.
  expect(await alice.profile.supportsExtended()).toBe(true);
  await alice.profile.setField("m.tz", "Europe/Paris");
  expect((await bob.profile.getExtended(alice.userId))["m.tz"]).toBe("Europe/Paris");
  await alice.profile.deleteField("m.tz");
  expect((await alice.profile.getExtended())["m.tz"]).toBeUndefined();
});

it("refuses extended profile fields on a server without them (the legacy profile)", async () => {
  const legacy = await startTestServer({ seed: "client-room-services-legacy", profile: "legacy" });
  const old = await startClient(legacy, "olga");
  try {
    expect(await old.profile.supportsExtended()).toBe(false);
    await expect(old.profile.setField("m.tz", "Europe/Paris")).rejects.toThrow(
      "Server does not support extended profiles",
    );
  } finally {
    await old.dispose();
    await legacy.stop();
  }
});

it("refuses calls that need a running client before start", async () => {
  const idle = createClient({ baseUrl: server.url, accessToken: "unused", userId: "@idle:test" });
  await expect(idle.receipts.sendReceipt(roomId, "$x")).rejects.toThrow("Client is not running");
  await expect(idle.typing.setTyping(roomId, true)).rejects.toThrow("Client is not running");
  await idle.dispose();
});
