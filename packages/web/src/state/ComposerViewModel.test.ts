/**
 * The composer view model against the test homeserver over HTTP, through
 * the SDK's createClient: markdown sent (plain body kept, HTML only when
 * formatted, typed HTML escaped), a mention completed by keyboard moves
 * (m.mentions + matrix.to link), reply and edit (up-arrow) content shapes
 * validated against the spec's m.room.message schema, each slash command
 * and its errors, drafts kept per room, typing on and off, and uploads
 * (plain and encrypted).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@lattice/sdk/client";
import type { Client } from "@lattice/sdk/client";
import { createRoom } from "@lattice/sdk/api/rooms";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import type { DemoSeed } from "@lattice/testserver/demo/seed";
import { EventValidator } from "@lattice/testserver/spec/events";
import type { Room, TimelineItem } from "../sdk";
import { uploadAttachment } from "./composer/attachments";
import { ComposerViewModel } from "./ComposerViewModel";
import { until } from "./rooms/testing";

let server: TestServerHandle;
let seed: DemoSeed;
let alice: Client;
let bob: Client;
const validator = new EventValidator();
const windows: Array<{ close(): void }> = [];

class MapStorage {
  readonly data = new Map<string, string>();
  getItem(k: string): string | null {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.data.set(k, v);
  }
  removeItem(k: string): void {
    this.data.delete(k);
  }
}

function clientFor(name: "alice" | "bob"): Client {
  const s = seed.users[name];
  return createClient({
    baseUrl: server.url,
    accessToken: s.accessToken,
    userId: s.userId,
    deviceId: s.deviceId,
    httpOptions: { retry: false },
    sync: { pollTimeoutMs: 1000 },
  });
}

beforeAll(async () => {
  server = await startTestServer();
  seed = await seedDemo(server.url, { historySize: 4, log: () => undefined });
  alice = clientFor("alice");
  bob = clientFor("bob");
  await Promise.all([alice.start(), bob.start()]);
}, 60_000);

afterAll(async () => {
  for (const w of windows) w.close();
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

async function open(
  client: Client,
  roomId: string,
): Promise<{ room: Room; items: () => readonly TimelineItem[] }> {
  const room = await until(() => client.rooms.find(roomId), `room ${roomId}`);
  const window = room.openTimeline();
  windows.push(window);
  await window.load();
  return { room, items: () => window.items.getSnapshot() };
}

function composer(
  room: Room,
  items: () => readonly TimelineItem[],
  storage = new MapStorage(),
): ComposerViewModel {
  return new ComposerViewModel({ client: alice, room, events: items, storage, typingIdleMs: 60_000 });
}

/** The newest event from alice's timeline whose body is `body`. */
async function sent(
  items: () => readonly TimelineItem[],
  match: (i: TimelineItem) => boolean,
): Promise<TimelineItem> {
  return until(
    () => [...items()].reverse().find((i) => i.eventId.startsWith("$") && match(i)),
    "the sent event",
  );
}

/** Schema errors of the event as a client-format event (sync drops room_id; the schema wants it). */
function valid(item: TimelineItem): string[] {
  return validator.validate({ ...item.event, room_id: "!room:example.org" });
}

describe("ComposerViewModel over HTTP", () => {
  it("sends markdown as HTML only when formatted, with typed HTML escaped", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    vm.setText("just text <b>not bold</b>");
    expect(await vm.send()).toBe(true);
    const plain = await sent(items, (i) => i.content["body"] === "just text <b>not bold</b>");
    expect(plain.event.content["formatted_body"]).toBeUndefined();
    expect(plain.event.content["m.mentions"]).toEqual({});

    vm.setText("**hello** <i>x</i>");
    await vm.send();
    const rich = await sent(items, (i) => i.content["body"] === "**hello** <i>x</i>");
    expect(rich.event.content["format"]).toBe("org.matrix.custom.html");
    expect(rich.event.content["formatted_body"]).toBe("<strong>hello</strong> &lt;i&gt;x&lt;/i&gt;");
    expect(valid(rich)).toEqual([]);
    expect(vm.text.getSnapshot()).toBe("");
    vm.dispose();
  });

  it("shows a picked mention as a pill that Backspace removes whole, and sends only what is left", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    vm.setText("ping @bob", 9);
    const bobIndex =
      vm.completion.getSnapshot()?.items.findIndex((s) => s.key === seed.users.bob.userId) ?? -1;
    vm.moveCompletion(bobIndex);
    expect(vm.acceptCompletion()).toBe(true);
    expect(vm.pills.getSnapshot()).toEqual([
      { start: 5, end: 16, label: "Bob Builder", target: seed.users.bob.userId },
    ]);
    // The caret after the inserted space: Backspace removes the space, the next one the whole pill.
    vm.setText("ping Bob Builder", 16);
    expect(vm.deletePill("Backspace")).toBe(true);
    expect(vm.text.getSnapshot()).toBe("ping ");
    expect(vm.pills.getSnapshot()).toEqual([]);
    // Away from a pill the key is the textarea's own.
    expect(vm.deletePill("Backspace")).toBe(false);
    // Typing the name again by hand is not a mention: no link, no m.mentions.
    vm.setText("ping Bob Builder");
    await vm.send();
    const item = await sent(items, (i) => i.content["body"] === "ping Bob Builder");
    expect(item.event.content["m.mentions"]).toEqual({});
    expect(item.event.content["formatted_body"]).toBeUndefined();
    vm.dispose();
  });

  it("completes a mention by keyboard and sends m.mentions with a matrix.to link", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    vm.setText("hey @b", 6);
    const completion = vm.completion.getSnapshot();
    expect(completion?.trigger.kind).toBe("user");
    const bobIndex = completion?.items.findIndex((s) => s.key === seed.users.bob.userId) ?? -1;
    expect(bobIndex).toBeGreaterThanOrEqual(0);
    vm.moveCompletion(bobIndex);
    expect(vm.acceptCompletion()).toBe(true);
    expect(vm.text.getSnapshot()).toBe("hey Bob Builder ");
    vm.setText("hey Bob Builder, look");
    await vm.send();
    const item = await sent(items, (i) => i.content["body"] === "hey Bob Builder, look");
    expect(item.event.content["m.mentions"]).toEqual({ user_ids: [seed.users.bob.userId] });
    expect(item.event.content["formatted_body"]).toBe(
      `hey <a href="https://matrix.to/#/${seed.users.bob.userId}">Bob Builder</a>, look`,
    );
    // Escape closes the list; "#" completes room aliases.
    vm.setText("see #lou", 8);
    expect(vm.completion.getSnapshot()?.items[0]?.label).toMatch(/^#lounge:/);
    expect(vm.cancel()).toBe(true);
    expect(vm.completion.getSnapshot()).toBeNull();
    vm.dispose();
  });

  it("replies and edits with the spec's content shapes; up-arrow edits the last message", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    bob.sendQueue.send(room.roomId, "m.room.message", { msgtype: "m.text", body: "question from bob" });
    const question = await sent(items, (i) => i.content["body"] === "question from bob");
    vm.startReply(question.eventId);
    const mode = vm.mode.getSnapshot();
    expect(mode.kind === "reply" && mode.target.preview).toBe("question from bob");
    vm.setText("the answer");
    await vm.send();
    const reply = await sent(items, (i) => i.content["body"] === "the answer");
    expect(reply.event.content["m.relates_to"]).toEqual({ "m.in_reply_to": { event_id: question.eventId } });
    expect(reply.event.content["m.mentions"]).toEqual({ user_ids: [seed.users.bob.userId] });
    expect(valid(reply)).toEqual([]);
    expect(vm.mode.getSnapshot().kind).toBe("normal");

    expect(vm.editLast()).toBe(true);
    expect(vm.text.getSnapshot()).toBe("the answer");
    vm.setText("the *corrected* answer");
    await vm.send();
    const edit = await until(
      () => items().find((i) => i.eventId === reply.eventId && i.edited),
      "the edit applied",
    );
    expect(edit.content["body"]).toBe("the *corrected* answer");
    const editEvent = await until(
      () =>
        room.recentEvents.find(
          (e) => (e.content["m.relates_to"] as { event_id?: string } | undefined)?.event_id === reply.eventId,
        ),
      "the edit event",
    );
    expect(editEvent.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: reply.eventId });
    expect(editEvent.content["body"]).toBe("* the *corrected* answer");
    expect(editEvent.content["m.new_content"]).toMatchObject({
      msgtype: "m.text",
      body: "the *corrected* answer",
      formatted_body: "the <em>corrected</em> answer",
    });
    expect(validator.validate({ ...editEvent, room_id: "!room:example.org" })).toEqual([]);

    // Escape leaves edit mode and gives back what was typed before.
    vm.setText("half-typed");
    expect(vm.editLast()).toBe(false);
    vm.setText("");
    vm.editLast();
    expect(vm.cancel()).toBe(true);
    expect(vm.mode.getSnapshot().kind).toBe("normal");
    expect(vm.text.getSnapshot()).toBe("");
    vm.dispose();
  });

  it("up-arrow right after a send edits that message, while it is still a local echo", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    await sent(items, (i) => i.sender === seed.users.alice.userId);
    // The timeline as it was before the sends: the sync has not brought them back yet (a busy machine).
    const before = items();
    const vm = composer(room, () => before);
    vm.setText("sent in a hurry");
    await vm.send();
    expect(alice.sendQueue.room(room.roomId).getSnapshot().at(-1)?.eventId).toBeUndefined();
    expect(vm.editLast()).toBe(true);
    expect(vm.text.getSnapshot()).toBe("sent in a hurry");
    vm.setText("sent in a hurry, fixed");
    await vm.send();
    const original = await sent(items, (i) => i.content["body"] === "sent in a hurry, fixed" && i.edited);
    const edit = await until(
      () => room.recentEvents.find((e) => e.content["body"] === "* sent in a hurry, fixed"),
      "the edit event",
    );
    // The edit left after its target, pointing at the id the server gave it.
    expect(edit.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: original.eventId });

    // Answered by the server but not yet back from the sync: Up offers it, with its queued edit applied.
    // That state may last less than a millisecond on a quiet machine, so it is caught as the queue
    // publishes it (a subscription), not by polling, and Up is pressed right there.
    const frozen = items();
    const late = composer(room, () => frozen);
    const queue = alice.sendQueue.room(room.roomId);
    let caught: { eventId: string; edits: boolean; target: string | undefined; text: string } | undefined;
    const unsubscribe = queue.subscribe((snapshot) => {
      const answered = snapshot.find(
        (p) => p.eventId !== undefined && p.content["body"] === "answered, not synced",
      );
      if (caught !== undefined || answered?.eventId === undefined) return;
      const edits = late.editLast();
      const mode = late.mode.getSnapshot();
      caught = {
        eventId: answered.eventId,
        edits,
        target: mode.kind === "edit" ? mode.target.eventId : undefined,
        text: late.text.getSnapshot(),
      };
    });
    late.setText("answered, not synced");
    await late.send();
    const seen = await until(() => caught, "the send answered");
    unsubscribe();
    expect(seen.edits).toBe(true);
    expect(seen.target).toBe(seen.eventId);
    expect(seen.text).toBe("answered, not synced");
    late.cancel();
    vm.dispose();
    late.dispose();
  });

  it("runs each slash command and reports clear errors", async () => {
    const { room_id: roomId } = await createRoom(alice.http, { name: "Commands", preset: "private_chat" });
    const { room, items } = await open(alice, roomId);
    const joinedRooms: string[] = [];
    const vm = new ComposerViewModel({
      client: alice,
      room,
      events: items,
      onJoined: (id) => joinedRooms.push(id),
    });

    vm.setText("/invite");
    expect(await vm.send()).toBe(false);
    expect(vm.error.getSnapshot()).toBe("Usage: /invite <user-id> [reason]");
    vm.setText("/frobnicate now");
    await vm.send();
    expect(vm.error.getSnapshot()).toMatch(/^Unknown command: \/frobnicate/);
    expect(vm.text.getSnapshot()).toBe("/frobnicate now");

    vm.setText("/me waves");
    await vm.send();
    const emote = await sent(items, (i) => i.content["body"] === "waves");
    expect(emote.content["msgtype"]).toBe("m.emote");
    vm.setText("/shrug fine");
    await vm.send();
    await sent(items, (i) => i.content["body"] === "¯\\_(ツ)_/¯ fine");
    vm.setText("/topic Commands live here");
    await vm.send();
    await until(
      () => room.getSnapshot().state.content("m.room.topic")?.["topic"] === "Commands live here",
      "topic",
    );
    vm.setText(`/invite ${seed.users.bob.userId}`);
    await vm.send();
    await until(
      () => room.getSnapshot().members.get(seed.users.bob.userId)?.membership === "invite",
      "invite",
    );
    vm.setText("/nick Alice L.");
    await vm.send();
    await until(() => room.getSnapshot().members.get(seed.users.alice.userId)?.name === "Alice L.", "nick");

    const { room_id: bobsRoom } = await createRoom(bob.http, {
      name: "Bob's",
      preset: "public_chat",
      room_alias_name: "bobs",
    });
    vm.setText(`/join #bobs:${server.serverName}`);
    expect(await vm.send()).toBe(true);
    expect(joinedRooms).toEqual([bobsRoom]);
    const bobs = await until(() => alice.rooms.find(bobsRoom), "joined room");
    const leaver = new ComposerViewModel({ client: alice, room: bobs, events: () => [] });
    leaver.setText("/leave bye");
    await leaver.send();
    await until(() => bobs.getSnapshot().category === "leave", "left");
    vm.setText("/nick Alice Liddell");
    await vm.send();
    vm.dispose();
  });

  it("keeps a draft per room, with its reply mode, across instances", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const storage = new MapStorage();
    const first = composer(room, items, storage);
    const target = items().find((i) => i.eventId.startsWith("$") && i.type === "m.room.message");
    if (target === undefined) throw new Error("no message");
    first.startReply(target.eventId);
    first.setText("unfinished thought");
    first.dispose();
    const again = composer(room, items, storage);
    expect(again.text.getSnapshot()).toBe("unfinished thought");
    const mode = again.mode.getSnapshot();
    expect(mode.kind === "reply" && mode.target.eventId).toBe(target.eventId);
    const { room_id: other } = await createRoom(alice.http, { name: "Other" });
    const otherRoom = await open(alice, other);
    expect(composer(otherRoom.room, otherRoom.items, storage).text.getSnapshot()).toBe("");
    again.setText("");
    again.cancel();
    expect(storage.data.size).toBe(0);
  });

  it("sends typing while typing and stops on send", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    vm.setText("typing…");
    await until(() => room.getSnapshot().typing.includes(seed.users.alice.userId), "typing on");
    await vm.send();
    await until(() => !room.getSnapshot().typing.includes(seed.users.alice.userId), "typing off");
    vm.dispose();
  });

  it("embedded without typing or media: no typing notice is sent and nothing is staged", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    let calls = 0;
    const client = new Proxy(alice, {
      get: (target, key) =>
        key === "typing"
          ? { setTyping: () => (calls++, Promise.resolve()) }
          : (Reflect.get(target, key) as unknown),
    });
    const vm = new ComposerViewModel({ client, room, events: items, sendsTyping: false, canUpload: false });
    vm.setText("typing…");
    vm.blur();
    expect(calls).toBe(0);
    expect(vm.uploads.enabled).toBe(false);
    vm.uploads.stage([{ name: "a.txt", type: "text/plain", data: new Blob(["a"]) }]);
    expect(vm.uploads.staged.getSnapshot()).toEqual([]);
    vm.dispose();
  });

  it("uploads attachments (plain and encrypted) into media content", async () => {
    const { room, items } = await open(alice, seed.rooms["lounge"] ?? "");
    const vm = composer(room, items);
    const progress: number[] = [];
    vm.uploads.list.subscribe((list) => list.forEach((u) => progress.push(u.loaded)));
    vm.attach([
      { name: "notes.txt", type: "text/plain", data: new Blob(["hello file"], { type: "text/plain" }) },
    ]);
    const file = await sent(items, (i) => i.content["msgtype"] === "m.file");
    expect(file.content).toMatchObject({ body: "notes.txt", info: { mimetype: "text/plain", size: 10 } });
    expect(String(file.content["url"])).toMatch(/^mxc:\/\//);
    expect(valid(file)).toEqual([]);
    expect(progress).toContain(10);
    expect(vm.uploads.list.getSnapshot()).toEqual([]);

    const image = await uploadAttachment(
      alice.http,
      { name: "pic.png", type: "image/png", data: new Blob([new Uint8Array(64)], { type: "image/png" }) },
      {
        encrypted: true,
        probe: {
          probe: () =>
            Promise.resolve({
              width: 640,
              height: 480,
              blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
              thumbnail: {
                data: new Blob([new Uint8Array(8)], { type: "image/jpeg" }),
                width: 320,
                height: 240,
              },
            }),
        },
      },
    );
    expect(image).toMatchObject({
      msgtype: "m.image",
      info: {
        w: 640,
        h: 480,
        "xyz.amorgan.blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
        thumbnail_info: { w: 320 },
      },
      file: { v: "v2", key: { alg: "A256CTR" } },
    });
    expect(image["url"]).toBeUndefined();
    const asEvent = {
      event_id: "$x",
      sender: "@a:x",
      origin_server_ts: 1,
      room_id: "!r:x",
      type: "m.room.message",
      content: image,
    };
    expect(validator.validate(asEvent)).toEqual([]);
    vm.dispose();
  });
});
