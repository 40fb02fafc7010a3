/**
 * Sliding sync chosen automatically against the test homeserver: the client
 * in "auto" mode syncs over the MSC4186 endpoint and sees rooms, timelines,
 * invites, leaves, account data, to-device messages, receipts and unread
 * counts; and its room models equal those of a sync v2 client of the same
 * user after the same server history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createRoom,
  register,
  roomPath,
  roomsView,
  sendText,
  SLIDING_PATH,
  startServer,
  syncClient,
  waitFor,
} from "./helpers";
import type { SyncClient, TestServerHandle, TestUser } from "./helpers";
import { SlidingSyncTransport } from "../../../src/sync/sliding/SlidingSyncTransport";
import { clientFor, quietLogger, recording } from "../service/helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let named: string;
let invited: string;
let leaving: string;
const clients: SyncClient[] = [];

beforeAll(async () => {
  server = await startServer(4186);
  alice = await register(server, "alice");
  bob = await register(server, "bob");
  carol = await register(server, "carol");
  named = await createRoom(server, alice, { name: "Sliding", invite: [bob.userId, carol.userId] });
  await call(server, bob, "POST", roomPath(named, "/join"), {});
  await call(server, carol, "POST", roomPath(named, "/join"), {});
  // Carol speaks, then falls out of the initial timeline window (30 events).
  await sendText(server, carol, named, "carol, long ago");
  for (let i = 0; i < 31; i++) await sendText(server, bob, named, `filler ${i}`);
  leaving = await createRoom(server, alice, { name: "Leaving soon" });
  for (let i = 0; i < 3; i++) await sendText(server, alice, named, `alice ${i}`);
  const last = await sendText(server, bob, named, `hello @alice`);
  await call(server, bob, "POST", roomPath(named, `/receipt/m.read/${encodeURIComponent(last)}`), {});
  invited = await createRoom(server, bob, { name: "Bob's invite", invite: [alice.userId] });
  await call(
    server,
    alice,
    "PUT",
    `/user/${encodeURIComponent(alice.userId)}/account_data/org.example.pref`,
    {
      theme: "dark",
    },
  );
  await call(
    server,
    alice,
    "PUT",
    `/user/${encodeURIComponent(alice.userId)}/rooms/${encodeURIComponent(named)}/tags/u.work`,
    {
      order: 0.5,
    },
  );
});
afterAll(async () => {
  for (const c of clients) await c.svc.stop();
  await server.stop();
});

function start(mode: "auto" | "v2"): SyncClient {
  const c = syncClient(server, alice, { mode });
  clients.push(c);
  return c;
}

describe("sliding sync in auto mode", () => {
  it("uses the advertised MSC4186 endpoint and matches a v2 client room for room", async () => {
    const sliding = start("auto");
    const v2 = start("v2");
    await Promise.all([sliding.svc.start(), v2.svc.start()]);
    const ready = (c: SyncClient) => () =>
      c.rooms.find(named) !== undefined && c.rooms.find(invited) !== undefined;
    await waitFor(ready(sliding), 5_000, "sliding rooms");
    await waitFor(ready(v2), 5_000, "v2 rooms");

    // The path hit: the sliding endpoint, never GET /sync.
    expect(sliding.syncPaths().every((p) => p === SLIDING_PATH)).toBe(true);
    expect(sliding.syncPaths().length).toBeGreaterThan(0);
    expect(sliding.svc.syncMode.getSnapshot()).toBe("sliding");
    expect(v2.syncPaths().every((p) => p === "/_matrix/client/v3/sync")).toBe(true);

    const room = sliding.rooms.get(named).getSnapshot();
    expect(room.category).toBe("join");
    expect(room.name.name).toBe("Sliding");
    expect(room.latestEvent?.content["body"]).toBe("hello @alice");
    expect(room.unread.notificationCount).toBeGreaterThan(0);
    expect([...room.tags.keys()]).toEqual(["u.work"]);
    expect(room.receipts.all().some((r) => r.userId === bob.userId)).toBe(true);
    expect(sliding.rooms.get(invited).getSnapshot().category).toBe("invite");
    expect(sliding.rooms.get(invited).getSnapshot().inviter).toBe(bob.userId);
    expect(sliding.rooms.accountData("org.example.pref")?.content).toEqual({ theme: "dark" });

    // Live changes: messages (one from a member neither client has loaded), a leave, a to-device
    // message, more account data.
    expect(sliding.rooms.get(named).getSnapshot().members.has(carol.userId)).toBe(false);
    await sendText(server, carol, named, "carol again");
    const live = await sendText(server, bob, named, "live one");
    await call(server, alice, "POST", roomPath(leaving, "/leave"), {});
    await call(server, bob, "PUT", "/sendToDevice/org.example.ping/t1", {
      messages: { [alice.userId]: { "*": { n: 1 } } },
    });
    await call(
      server,
      alice,
      "PUT",
      `/user/${encodeURIComponent(alice.userId)}/account_data/org.example.pref`,
      {
        theme: "light",
      },
    );
    const caughtUp = (c: SyncClient) => () =>
      c.rooms.find(named)?.getSnapshot().latestEvent?.event_id === live &&
      c.rooms.find(leaving)?.getSnapshot().category === "leave" &&
      c.rooms.accountData("org.example.pref")?.content["theme"] === "light";
    await waitFor(caughtUp(sliding), 5_000, "sliding live changes");
    await waitFor(caughtUp(v2), 5_000, "v2 live changes");
    await waitFor(() => sliding.batches.some((b) => b.toDevice.length > 0), 5_000, "to-device");
    const toDevice = sliding.batches.flatMap((b) => b.toDevice);
    expect(toDevice.map((e) => [e.type, e.sender, e.content])).toEqual([
      ["org.example.ping", bob.userId, { n: 1 }],
    ]);
    expect(sliding.liveIds(named).filter((id) => id === live)).toHaveLength(1);

    expect(sliding.rooms.get(named).getSnapshot().members.get(carol.userId)?.membership).toBe("join");
    // The same rooms, state, members, names, counts, tags, receipts and recent events.
    expect(roomsView(sliding)).toEqual(roomsView(v2));
  });

  it("grows its one room list page by page until every room is synced", async () => {
    const http = recording(clientFor(server, alice));
    const transport = new SlidingSyncTransport({ http, pageSize: 1, logger: quietLogger() });
    const request = { timeout: 0, requestTimeoutMs: 5_000, signal: new AbortController().signal };
    const seen = new Set<string>();
    let since: string | undefined;
    for (let i = 0; i < 3; i++) {
      const response = await transport.sync(since !== undefined ? { ...request, since } : request);
      for (const section of [response.rooms?.join, response.rooms?.invite, response.rooms?.leave])
        for (const id of Object.keys(section ?? {})) seen.add(id);
      since = response.next_batch;
    }
    const ranges = http.requests.map(
      (r) => (r.body as { lists: Record<string, { ranges: unknown }> }).lists["all"]?.ranges,
    );
    // Two rooms in the list (the one left earlier is not sent to a new connection): it stops growing.
    expect(ranges).toEqual([[[0, 0]], [[0, 1]], [[0, 1]]]);
    expect(transport.roomCount).toBe(2);
    expect(seen).toEqual(new Set([named, invited]));
  });
});
