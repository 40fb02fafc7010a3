/**
 * Search and browser notifications against the test homeserver: messages
 * in one room and across rooms with context and highlights, paging to the
 * end ("Cannot backpaginate event search any further"), the user directory,
 * and a message from bob turning into a notification for alice (not for
 * her own message, not for the room she is looking at, and a click opens
 * the room).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { NotificationsViewModel } from "../notifications/NotificationsViewModel";
import type { NotificationHost, ShownNotification } from "../notifications/NotificationsViewModel";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { SearchViewModel, highlightParts } from "./SearchViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomA: string;
let roomB: string;
const scope = new Scope();

async function say(client: Client, roomId: string, body: string): Promise<void> {
  await client.http.request({
    method: "PUT",
    path: `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${Math.random().toString(36).slice(2)}`,
    body: { msgtype: "m.text", body },
  });
}

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
  const actions = new RoomActionsViewModel(alice);
  roomA = await actions.createRoom({ name: "Kitchen", isPublic: true });
  roomB = await actions.createRoom({ name: "Garden", isPublic: true });
  await Promise.all([untilRoom(alice, roomA), untilRoom(alice, roomB)]);
  await bob.moderation.join(roomA);
  await bob.moderation.join(roomB);
  for (let i = 0; i < 6; i++) await say(alice, roomA, `pancake recipe number ${i}`);
  await say(alice, roomB, "pancake party in the garden");
}, 30_000);

afterAll(async () => {
  scope.end();
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

describe("SearchViewModel", () => {
  it("finds messages in one room or all, with context, and pages to the end", async () => {
    const vm = new SearchViewModel(alice);
    await vm.searchMessages("pancake", roomB);
    expect(vm.messages.getSnapshot().hits.map((h) => h.body)).toEqual(["pancake party in the garden"]);
    expect(vm.messages.getSnapshot().hits[0]?.roomName).toBe("Garden");

    await vm.searchMessages("pancake", null);
    const all = vm.messages.getSnapshot();
    expect(new Set(all.hits.map((h) => h.roomId))).toEqual(new Set([roomA, roomB]));
    expect(all.highlights.map((h) => h.toLowerCase())).toContain("pancake");
    expect(all.hits.find((h) => h.body === "pancake recipe number 3")?.before).toBe(
      "pancake recipe number 2",
    );

    // Paging: small pages until the server has none, then the SDK's error.
    expect((await alice.search.search("pancake", { roomIds: [roomA], limit: 2 })).results).toHaveLength(2);
    await vm.searchMessages("pancake", roomA);
    while (vm.messages.getSnapshot().canLoadMore) await vm.loadMore();
    expect(vm.messages.getSnapshot().hits).toHaveLength(6);
    await vm.loadMore();
    expect(vm.messages.getSnapshot().error).toBe("Cannot backpaginate event search any further");

    await vm.searchMessages("nothing-like-this", null);
    expect(vm.messages.getSnapshot().hits).toEqual([]);
  });

  it("searches the user directory", async () => {
    const vm = new SearchViewModel(alice);
    await vm.searchUsers("bob");
    expect(vm.users.getSnapshot().map((u) => u.userId)).toContain(bob.userId);
  });

  it("splits text around highlighted terms", () => {
    expect(highlightParts("Pancake and pancakes", ["pancake"])).toEqual([
      { text: "Pancake", hit: true },
      { text: " and ", hit: false },
      { text: "pancake", hit: true },
      { text: "s", hit: false },
    ]);
    expect(highlightParts("a+b", ["+"])).toEqual([
      { text: "a", hit: false },
      { text: "+", hit: true },
      { text: "b", hit: false },
    ]);
  });
});

describe("NotificationsViewModel", () => {
  it("notifies bob's message, not alice's own nor the focused room's, and a click opens the room", async () => {
    const shown: Array<{ title: string; options?: NotificationOptions; n: ShownNotification }> = [];
    class FakeNotification implements ShownNotification {
      static permission: NotificationPermission = "default";
      static requestPermission(): Promise<NotificationPermission> {
        FakeNotification.permission = "granted";
        return Promise.resolve("granted");
      }
      onclick: ShownNotification["onclick"] = null;
      closed = false;
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, ...(options ? { options } : {}), n: this });
      }
      close(): void {
        this.closed = true;
      }
    }
    let focused = true;
    let opened: string | null = null;
    const host: NotificationHost = {
      Notification: FakeNotification,
      hasFocus: () => focused,
      focus: () => undefined,
    };
    let selected: string | null = roomB;
    const vm = new NotificationsViewModel(
      { client: alice, host, selectedRoom: () => selected, openRoom: (id) => (opened = id) },
      scope.child(),
    );
    expect(vm.permission.getSnapshot()).toBe("default");
    expect(await vm.requestPermission()).toBe("granted");

    await say(alice, roomA, "my own words");
    await say(bob, roomB, "seen in the open room");
    await until(
      () => alice.rooms.get(roomB).getSnapshot().latestEvent?.content["body"] === "seen in the open room",
      "b",
    );
    await say(bob, roomA, "hello from bob");
    await until(() => shown.length > 0, "a notification");
    expect(shown).toHaveLength(1);
    expect(shown[0]?.title).toBe("Kitchen");
    expect(shown[0]?.options?.body).toMatch(/hello from bob$/);
    shown[0]?.n.onclick?.call(null, new Event("click"));
    expect(opened).toBe(roomA);

    // The open room notifies when the window is in the background.
    focused = false;
    selected = roomA;
    await say(bob, roomA, "are you there?");
    await until(() => shown.length === 2, "a background notification");
  });
});
