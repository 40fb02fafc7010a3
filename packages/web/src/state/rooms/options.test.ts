/**
 * The room list's per-room options against the test homeserver (two real
 * clients): favourite and low priority exclude each other and reach the
 * room's tags through sync, the notification mode writes the push rules the
 * settings screen reads, mark as read clears the unread count, the link
 * names the alias, leave leaves. Then the new-message announcer: others'
 * messages at the live end only, throttled and gathered.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { ObservableValue } from "../../sdk";
import type { Client, TimelineItem } from "../../sdk";
import { Scope } from "../Scope";
import { roomModeOf } from "../settings/NotificationSettings";
import { ANNOUNCE_INTERVAL_MS, NewMessageAnnouncer } from "./NewMessageAnnouncer";
import { FAVOURITE_TAG, LOW_PRIORITY_TAG, RoomOptionsViewModel } from "./RoomOptionsViewModel";
import { signUp, until, untilRoom } from "./testing";

describe("RoomOptionsViewModel", () => {
  let server: TestServerHandle;
  let alice: Client;
  let bob: Client;
  const scope = new Scope();

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
  }, 30_000);

  afterAll(async () => {
    scope.end();
    await Promise.all([alice?.dispose(), bob?.dispose()]);
    await server?.stop();
  });

  it("tags, mutes, marks read, links and leaves a room", async () => {
    const { room_id: roomId } = await bob.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { name: "Porch", preset: "public_chat", room_alias_name: "porch" },
    });
    await alice.moderation.join(roomId);
    await untilRoom(alice, roomId);
    const left: string[] = [];
    const vm = new RoomOptionsViewModel(alice, scope.child(), (id) => left.push(id));
    await vm.load();
    const view = () => vm.view(roomId);

    expect(await vm.setFavourite(roomId, true)).toBe(true);
    await until(() => view()?.favourite === true, "favourite");
    expect(await vm.setLowPriority(roomId, true)).toBe(true);
    await until(() => view()?.lowPriority === true && view()?.favourite === false, "low priority only");
    expect(alice.rooms.find(roomId)?.getSnapshot().tags.has(LOW_PRIORITY_TAG)).toBe(true);
    expect(alice.rooms.find(roomId)?.getSnapshot().tags.has(FAVOURITE_TAG)).toBe(false);
    expect(await vm.setLowPriority(roomId, false)).toBe(true);
    await until(() => view()?.lowPriority === false, "no tag");

    expect(await vm.setMode(roomId, "mute")).toBe(true);
    expect(view()?.mode).toBe("mute");
    const rules = await alice.http.request<{ global: Parameters<typeof roomModeOf>[0] }>({
      method: "GET",
      path: "/pushrules/",
    });
    expect(roomModeOf(rules.global, roomId)).toBe("mute");
    expect(await vm.setMode(roomId, "mentions")).toBe(true);
    expect(view()?.mode).toBe("mentions");
    expect(await vm.setMode(roomId, "all")).toBe(true);
    expect(view()?.mode).toBe("all");

    await bob.http.request({
      method: "PUT",
      path: `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t1`,
      body: { msgtype: "m.text", body: "are you there?" },
    });
    await until(() => view()?.unread === true, "unread");
    expect(await vm.markRead(roomId)).toBe(true);
    // At once: the SDK applies the own receipt when the server accepts it, before sync echoes it.
    expect(view()?.unread).toBe(false);

    expect(vm.linkOf(roomId)).toBe(`https://matrix.to/#/%23porch%3A${server.serverName}`);
    expect(await vm.leave(roomId)).toBe(true);
    await untilRoom(alice, roomId, "leave");
    expect(left).toEqual([roomId]);
  });
});

function item(eventId: string, sender: string, body: string): TimelineItem {
  return {
    eventId,
    sender,
    type: "m.room.message",
    content: { msgtype: "m.text", body },
    redacted: false,
  } as unknown as TimelineItem;
}

describe("NewMessageAnnouncer", () => {
  it("announces others' new messages at the live end, throttled, never history or own", () => {
    vi.useFakeTimers();
    try {
      const items = new ObservableValue<readonly TimelineItem[]>([]);
      const loading = new ObservableValue(true);
      const atLiveEnd = new ObservableValue(true);
      const scope = new Scope();
      const vm = new NewMessageAnnouncer(
        { items, loading, atLiveEnd, userId: "@me:x", nameOf: (id) => (id === "@bob:x" ? "Bob" : id) },
        scope,
      );
      // The first load is history.
      items.set([item("$1", "@bob:x", "old"), item("$2", "@bob:x", "older")]);
      loading.set(false);
      expect(vm.text.getSnapshot()).toBe("");
      items.set([...items.getSnapshot(), item("$3", "@bob:x", "hello")]);
      expect(vm.text.getSnapshot()).toBe("Bob: hello");
      // Own messages are not announced; two more within the interval are gathered.
      items.set([...items.getSnapshot(), item("$4", "@me:x", "mine")]);
      items.set([...items.getSnapshot(), item("$5", "@bob:x", "one"), item("$6", "@carol:x", "two")]);
      expect(vm.text.getSnapshot()).toBe("Bob: hello");
      vi.advanceTimersByTime(ANNOUNCE_INTERVAL_MS);
      expect(vm.text.getSnapshot()).toBe("Bob: one and 1 more new message");
      // The same line again is said again (emptied, then set).
      vi.advanceTimersByTime(ANNOUNCE_INTERVAL_MS);
      items.set([...items.getSnapshot(), item("$8", "@bob:x", "one"), item("$9", "@carol:x", "two")]);
      expect(vm.text.getSnapshot()).toBe("");
      vi.advanceTimersByTime(50);
      expect(vm.text.getSnapshot()).toBe("Bob: one and 1 more new message");
      // Back-pagination prepends: nothing new at the end.
      items.set([item("$0", "@bob:x", "ancient"), ...items.getSnapshot()]);
      vi.advanceTimersByTime(ANNOUNCE_INTERVAL_MS);
      expect(vm.text.getSnapshot()).toBe("Bob: one and 1 more new message");
      // Away from the live end (a jump), nothing is announced.
      atLiveEnd.set(false);
      items.set([...items.getSnapshot(), item("$7", "@bob:x", "later")]);
      vi.advanceTimersByTime(ANNOUNCE_INTERVAL_MS);
      expect(vm.text.getSnapshot()).toBe("Bob: one and 1 more new message");
      scope.end();
    } finally {
      vi.useRealTimers();
    }
  });
});
