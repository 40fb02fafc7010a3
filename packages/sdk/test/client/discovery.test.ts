/**
 * Search, directory and URL previews through the client facade on the test
 * homeserver: event search with one event of context each side, paging to
 * the end and the backpaginate error; public rooms with a filter and paging;
 * the user directory; a space's hierarchy; room summary; mutual rooms, and
 * their refusal on a server without them (the legacy profile); previews of
 * a page served on loopback by this test.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
let page: Server;
let pageUrl: string;
let pageHits = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: "client-discovery" });
  [alice, bob] = await Promise.all([startClient(server, "alice"), startClient(server, "bob")]);
  roomId = (
    await api.rooms.createRoom(alice.http, { preset: "public_chat", name: "Needles", visibility: "public" })
  ).room_id;
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitFor(() => bob.rooms.find(roomId), "bob's room");

  page = createServer((_req, res) => {
    pageHits++;
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end('<html><head><meta property="og:title" content="Lattice page"><title>x</title></head></html>');
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/page`;
});

afterAll(async () => {
  await Promise.all([alice, bob].map((c) => c?.dispose()));
  await server?.stop();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
});

it("searches with one event of context each side, pages to the end, then refuses", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const body = i % 2 === 0 ? `needle ${i}` : `hay ${i}`;
    const sent = await api.send.sendEvent(alice.http, roomId, "m.room.message", `s${i}`, {
      msgtype: "m.text",
      body,
    });
    ids.push(sent.event_id);
  }
  let results = await bob.search.search("needle", { roomIds: [roomId], limit: 2, orderBy: "recent" });
  expect(results.results).toHaveLength(2);
  const first = results.results[0];
  expect(first?.result?.content["body"]).toBe("needle 6");
  expect(first?.context?.events_before?.map((e) => e.event_id)).toEqual([ids[5]]);
  expect(first?.context?.events_after ?? []).toHaveLength(0);
  expect(results.results[1]?.context?.events_after?.map((e) => e.event_id)).toEqual([ids[5]]);

  while (bob.search.canPaginate(results)) results = await bob.search.backPaginate(results);
  expect(results.results.map((r) => r.result?.content["body"])).toEqual([
    "needle 6",
    "needle 4",
    "needle 2",
    "needle 0",
  ]);
  await expect(bob.search.backPaginate(results)).rejects.toThrow(
    "Cannot backpaginate event search any further",
  );
  await expect(bob.search.search("needle", { roomIds: ["!unknown:test"] })).rejects.toThrow("Unknown room");
});

it("lists public rooms with a filter and paging", async () => {
  const others = await Promise.all(
    ["Alpha", "Beta", "Gamma"].map((name) =>
      api.rooms.createRoom(bob.http, { preset: "public_chat", name, visibility: "public" }),
    ),
  );
  const filtered = await alice.directory.publicRooms({ filter: { generic_search_term: "needles" } });
  expect(filtered.chunk.map((r) => r.room_id)).toEqual([roomId]);

  const seen: string[] = [];
  let since: string | undefined;
  for (let i = 0; i < 10; i++) {
    const res = await alice.directory.publicRooms({ limit: 2, ...(since ? { since } : {}) });
    seen.push(...res.chunk.map((r) => r.room_id));
    since = res.next_batch;
    if (since === undefined) break;
  }
  expect(new Set(seen)).toEqual(new Set([roomId, ...others.map((o) => o.room_id)]));
});

it("finds users in the directory", async () => {
  const res = await alice.directory.searchUsers("bob", 5);
  expect(res.results.map((u) => u.user_id)).toContain(bob.userId);
});

it("walks a space's hierarchy and summarises a room", async () => {
  const space = (
    await api.rooms.createRoom(alice.http, {
      preset: "public_chat",
      name: "Space",
      creation_content: { type: "m.space" },
    })
  ).room_id;
  await api.send.sendStateEvent(alice.http, space, "m.space.child", { via: [server.serverName] }, roomId);
  const tree = await alice.directory.hierarchy(space);
  expect(tree.rooms.map((r) => r.room_id)).toEqual(expect.arrayContaining([space, roomId]));

  const summary = await bob.directory.roomSummary(roomId);
  expect(summary.room_id).toBe(roomId);
  expect(summary.name).toBe("Needles");
});

it("lists mutual rooms where the server supports them", async () => {
  // The test server's current profile serves the Mutual Rooms API.
  expect(await alice.directory.supportsMutualRooms()).toBe(true);
  expect(await alice.directory.mutualRooms(bob.userId)).toContain(roomId);
});

it("refuses mutual rooms on a server without the API (the legacy profile)", async () => {
  const legacy = await startTestServer({ seed: "client-discovery-legacy", profile: "legacy" });
  const old = await startClient(legacy, "olga");
  try {
    expect(await old.directory.supportsMutualRooms()).toBe(false);
    await expect(old.directory.mutualRooms("@someone:localhost")).rejects.toThrow(
      "Server does not support the Mutual Rooms API",
    );
  } finally {
    await old.dispose();
    await legacy.stop();
  }
});

it("previews a loopback page once per minute, and never in an encrypted room", async () => {
  const preview = await alice.urlPreviews.preview(pageUrl, roomId);
  expect(preview?.["og:title"]).toBe("Lattice page");
  await alice.urlPreviews.preview(pageUrl, roomId);
  expect(pageHits).toBe(1);

  const encrypted = (
    await api.rooms.createRoom(alice.http, {
      preset: "private_chat",
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    })
  ).room_id;
  await waitFor(() => alice.rooms.find(encrypted)?.getSnapshot().isEncrypted, "encrypted room synced");
  alice.urlPreviews.clear();
  expect(await alice.urlPreviews.preview(pageUrl, encrypted)).toBeNull();
  expect(pageHits).toBe(1);
});
