/**
 * Routing and links: the pure hash and link parsers, then the router inside
 * a real ClientViewModel (fake-indexeddb) against the test homeserver, with
 * an in-memory location: the hash follows the selection and back/forward
 * select again, an alias of a room not joined prompts with its preview and
 * Join opens it, an event link opens the room at the event, a user link
 * opens the user panel, other links are left alone, and /join switches to
 * the joined room (also when already joined).
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { createHttpClient, loginWithPassword, Session } from "../../sdk";
import type { Client } from "../../sdk";
import { ClientViewModel } from "../ClientViewModel";
import { composerOf } from "../ComposerForRoom";
import { signUp, until } from "../rooms/testing";
import { hashOf, linkTargetOf, parseHash, permalinkOf } from "./routes";
import type { HashLocation } from "./Router";

/** A history of hashes with back and forward, like the browser's. */
class MemoryLocation implements HashLocation {
  entries = [""];
  at = 0;
  private listeners = new Set<() => void>();
  read(): string {
    return this.entries[this.at] ?? "";
  }
  write(hash: string, replace: boolean): void {
    if (replace) this.entries[this.at] = hash;
    else {
      this.entries = [...this.entries.slice(0, this.at + 1), hash];
      this.at++;
    }
  }
  listen(onChange: () => void): () => void {
    this.listeners.add(onChange);
    return () => this.listeners.delete(onChange);
  }
  /** The user types or pastes a hash. */
  visit(hash: string): void {
    this.write(hash, false);
    this.fire();
  }
  back(): void {
    this.at = Math.max(0, this.at - 1);
    this.fire();
  }
  forward(): void {
    this.at = Math.min(this.entries.length - 1, this.at + 1);
    this.fire();
  }
  private fire(): void {
    for (const l of this.listeners) l();
  }
}

describe("routes", () => {
  it("round-trips rooms, aliases and events through the hash", () => {
    const room = { kind: "room", roomIdOrAlias: "!abc:example.org", via: [], eventId: "$ev/1" } as const;
    expect(hashOf(room)).toBe("#/room/!abc:example.org/$ev%2F1");
    expect(parseHash(hashOf(room))).toEqual(room);
    const alias = { kind: "room", roomIdOrAlias: "#lounge:example.org", via: ["a.org"] } as const;
    expect(hashOf(alias)).toBe("#/room/%23lounge:example.org?via=a.org");
    expect(parseHash(hashOf(alias))).toEqual(alias);
    expect(parseHash("#/room/not-a-room")).toEqual({ kind: "home" });
    expect(parseHash("")).toEqual({ kind: "home" });
  });

  it("sends matrix.to and matrix: links to rooms, events and users, and leaves other links", () => {
    expect(linkTargetOf("https://matrix.to/#/%23lounge%3Aexample.org")).toEqual({
      kind: "room",
      roomIdOrAlias: "#lounge:example.org",
      via: [],
    });
    expect(linkTargetOf(permalinkOf("!r:example.org", "$e"))).toMatchObject({
      roomIdOrAlias: "!r:example.org",
      eventId: "$e",
    });
    expect(linkTargetOf("matrix:roomid/r:example.org/e/e1?via=x.org")).toEqual({
      kind: "room",
      roomIdOrAlias: "!r:example.org",
      via: ["x.org"],
      eventId: "$e1",
    });
    expect(linkTargetOf("https://matrix.to/#/@bob:example.org")).toEqual({
      kind: "user",
      userId: "@bob:example.org",
    });
    expect(linkTargetOf("matrix:u/bob:example.org")).toEqual({ kind: "user", userId: "@bob:example.org" });
    expect(linkTargetOf("https://example.org/#/room/!r:x")).toBeNull();
    expect(linkTargetOf("mailto:bob@example.org")).toBeNull();
  });
});

describe("Router in the client", () => {
  let server: TestServerHandle;
  let bob: Client;
  let alice: ClientViewModel;
  const location = new MemoryLocation();
  let shed = "";
  let barn = "";
  let garden = "";

  beforeAll(async () => {
    server = await startTestServer();
    bob = await signUp(server.url, "bob");
    await signUp(server.url, "alice").then((c) => c.dispose());
    const session = new Session(new MemorySessionStorage());
    const http = createHttpClient({ baseUrl: server.url, retry: false });
    await session.signIn(await loginWithPassword(http, { userId: "alice" }, "alice-password"));
    alice = new ClientViewModel({ session, indexedDB: new IDBFactory(), platformScope: {} });
    await alice.start();
    const make = async (name: string, alias: string): Promise<string> => {
      const { room_id } = await bob.http.request<{ room_id: string }>({
        method: "POST",
        path: "/createRoom",
        body: { name, preset: "public_chat", room_alias_name: alias, topic: `The ${name}` },
      });
      return room_id;
    };
    [shed, barn, garden] = await Promise.all([
      make("Shed", "shed"),
      make("Barn", "barn"),
      make("Garden", "garden"),
    ]);
    await alice.client.moderation.join(shed);
    await alice.client.moderation.join(barn);
    await until(() => alice.roomList.isJoined(shed) && alice.roomList.isJoined(barn), "alice in two rooms");
    alice.router.attach(location);
  }, 60_000);

  afterAll(async () => {
    await alice?.dispose();
    await bob?.dispose();
    await server?.stop();
  });

  it("writes the selected room into the hash; back and forward select again", async () => {
    alice.roomList.select(shed);
    expect(location.read()).toBe(`#/room/${shed}`);
    alice.roomList.select(barn);
    expect(location.read()).toBe(`#/room/${barn}`);
    location.back();
    await until(() => alice.roomList.selected.getSnapshot() === shed, "back to the shed");
    location.forward();
    await until(() => alice.roomList.selected.getSnapshot() === barn, "forward to the barn");
    expect(alice.room.getSnapshot()?.roomId).toBe(barn);
  });

  it("resolves a joined room's alias locally and keeps the alias in the hash", async () => {
    const hash = `#/room/%23shed:${server.serverName}`;
    location.visit(hash);
    await until(() => alice.roomList.selected.getSnapshot() === shed, "the shed by alias");
    expect(location.read()).toBe(hash);
  });

  it("prompts with a preview for a room not joined, and Join opens it", async () => {
    location.visit(`#/room/%23garden:${server.serverName}`);
    await until(() => alice.router.prompt.getSnapshot() !== null, "the prompt");
    const prompt = alice.router.prompt.getSnapshot();
    expect(alice.roomList.selected.getSnapshot()).toBeNull();
    await until(() => prompt?.preview.getSnapshot().kind === "ready", "the preview");
    expect(prompt?.preview.getSnapshot()).toMatchObject({
      kind: "ready",
      preview: { name: "Garden", topic: "The Garden", members: 1 },
    });
    expect(await prompt?.join()).toBe(true);
    await until(() => alice.roomList.selected.getSnapshot() === garden, "the garden opened");
    expect(alice.router.prompt.getSnapshot()).toBeNull();
  });

  it("opens an event link at the event, a user link in the user panel, and leaves other links", async () => {
    const { event_id } = await bob.http.request<{ event_id: string }>({
      method: "PUT",
      path: `/rooms/${encodeURIComponent(shed)}/send/m.room.message/t${Date.now()}`,
      body: { msgtype: "m.text", body: "look here" },
    });
    alice.roomList.select(barn);
    expect(alice.router.openLink(permalinkOf(shed, event_id))).toBe(true);
    await until(() => alice.room.getSnapshot()?.timeline.highlighted.getSnapshot() === event_id, "the jump");
    expect(alice.room.getSnapshot()?.roomId).toBe(shed);
    expect(location.read()).toBe(`#/room/${shed}/${event_id}`);

    // Opened by other means (a search result): the hash names the event too.
    alice.roomList.select(barn);
    alice.openEvent(shed, event_id);
    expect(location.read()).toBe(`#/room/${shed}/${event_id}`);
    await until(() => alice.room.getSnapshot()?.roomId === shed, "the shed again");

    expect(alice.router.openLink(`https://matrix.to/#/${bob.userId}`)).toBe(true);
    expect(alice.room.getSnapshot()?.panel.getSnapshot()).toEqual({ kind: "user", userId: bob.userId });
    expect(alice.router.openLink("https://example.org/page")).toBe(false);
  });

  it("switches to the room /join names, also when already joined", async () => {
    alice.roomList.select(shed);
    const room = alice.room.getSnapshot();
    if (room === null) throw new Error("no room");
    const composer = composerOf(room);
    composer.setText(`/join #barn:${server.serverName}`);
    expect(await composer.send()).toBe(true);
    await until(() => alice.roomList.selected.getSnapshot() === barn, "/join of a joined room");

    const field = await bob.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { name: "Field", preset: "public_chat", room_alias_name: "field" },
    });
    const open = alice.room.getSnapshot();
    if (open === null) throw new Error("no room");
    const second = composerOf(open);
    second.setText(`/join #field:${server.serverName}`);
    expect(await second.send()).toBe(true);
    await until(() => alice.roomList.selected.getSnapshot() === field.room_id, "/join of a new room");
  });

  it("Mention from the user panel puts a mention pill into the open room's composer", async () => {
    alice.roomList.select(shed);
    const room = alice.room.getSnapshot();
    if (room === null) throw new Error("no room");
    const composer = composerOf(room);
    composer.setText("hi");
    expect(room.canMention).toBe(true);
    room.mention(bob.userId, "Bob");
    expect(composer.text.getSnapshot()).toBe("hi Bob ");
    expect(await composer.send()).toBe(true);
    // The message as it goes out (the send queue's copy): a pill link and m.mentions.
    const sent = alice.client.sendQueue
      .room(shed)
      .getSnapshot()
      .find((p) => String(p.content["body"]).startsWith("hi Bob"));
    expect(sent?.content["m.mentions"]).toEqual({ user_ids: [bob.userId] });
    expect(String(sent?.content["formatted_body"])).toContain(
      `<a href="https://matrix.to/#/${bob.userId}">Bob</a>`,
    );
  });
});
