/**
 * Spaces: the bar's tree (top level, nested sub-spaces, cycles) and its
 * aggregated badges as pure functions; then over HTTP against the test
 * homeserver, creating a space, adding rooms (m.space.child and
 * m.space.parent with via), exploring it through the hierarchy and joining
 * from it, and the local fallback when the server has no hierarchy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client } from "../../sdk";
import { RoomListViewModel } from "../RoomListViewModel";
import { Scope } from "../Scope";
import { signUp, until, untilRoom } from "../rooms/testing";
import { buildSpaceTree } from "./spaceTree";
import type { SpaceSource } from "./spaceTree";
import { SpacesViewModel } from "./SpacesViewModel";

function room(
  roomId: string,
  opts: { space?: boolean; children?: string[]; unread?: [number, number]; thread?: [number, number] } = {},
): SpaceSource {
  const [n, h] = opts.unread ?? [0, 0];
  const threads = new Map<string, { notificationCount: number; highlightCount: number }>();
  if (opts.thread) threads.set("$t", { notificationCount: opts.thread[0], highlightCount: opts.thread[1] });
  return {
    roomId,
    category: "join",
    isSpace: opts.space ?? false,
    name: { name: roomId.slice(1) },
    unread: { notificationCount: n, highlightCount: h },
    threadUnread: threads,
    state: { spaceChildren: opts.children ?? [] },
  };
}

describe("buildSpaceTree", () => {
  it("puts sub-spaces under their parent and sums unread over every room below, each room once", () => {
    const tree = buildSpaceTree([
      room("!work", { space: true, children: ["!eng", "!general", "!design"] }),
      room("!eng", { space: true, children: ["!backend", "!general"] }),
      room("!design", { space: true }),
      room("!general", { unread: [2, 0] }),
      room("!backend", { unread: [1, 1], thread: [3, 0] }),
      room("!dm", { unread: [5, 0] }),
    ]);
    expect(tree.spaces.map((s) => s.roomId)).toEqual(["!work"]);
    const work = tree.spaces[0];
    expect(work?.children.map((c) => c.roomId)).toEqual(["!eng", "!design"]);
    // !general counted once although both spaces list it; the thread counts too.
    expect(work?.badge).toEqual({ count: 6, level: "highlight" });
    expect(work?.children[0]?.badge).toEqual({ count: 6, level: "highlight" });
    expect(work?.children[1]?.badge).toEqual({ count: 0, level: "none" });
    expect(tree.home).toEqual({ count: 11, level: "highlight" });
  });

  it("survives a cycle: each space shows once at the top and never under itself", () => {
    const tree = buildSpaceTree([
      room("!a", { space: true, children: ["!b"] }),
      room("!b", { space: true, children: ["!a", "!r"] }),
      room("!r", { unread: [1, 0] }),
    ]);
    expect(tree.spaces).toHaveLength(1);
    const top = tree.spaces[0];
    expect(top?.children).toHaveLength(1);
    expect(top?.children[0]?.children).toHaveLength(0);
    expect(top?.badge).toEqual({ count: 1, level: "unread" });
  });
});

describe("SpacesViewModel over HTTP", () => {
  let server: TestServerHandle;
  let alice: Client;
  let bob: Client;
  let scope: Scope;
  let aliceSpaces: SpacesViewModel;
  let bobSpaces: SpacesViewModel;

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
    scope = new Scope();
    aliceSpaces = new SpacesViewModel(
      alice,
      new RoomListViewModel(alice.rooms, scope.child()),
      scope.child(),
    );
    bobSpaces = new SpacesViewModel(bob, new RoomListViewModel(bob.rooms, scope.child()), scope.child());
  }, 30_000);

  afterAll(async () => {
    scope?.end();
    await alice?.dispose();
    await bob?.dispose();
    await server?.stop();
  });

  it("creates a public space, adds a room with child and parent links (via), and shows it in the tree", async () => {
    const spaceId = await aliceSpaces.createSpace({ name: "Guild", topic: "All of us", isPublic: true });
    await untilRoom(alice, spaceId);
    const snap = alice.rooms.get(spaceId).getSnapshot();
    expect(snap.isSpace).toBe(true);
    expect(snap.state.joinRule).toBe("public");
    await until(() => aliceSpaces.tree.getSnapshot().spaces.some((s) => s.name === "Guild"), "space in tree");

    const { room_id: roomId } = await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { name: "Tavern", preset: "public_chat" },
    });
    await untilRoom(alice, roomId);
    expect(aliceSpaces.candidates(spaceId).map((c) => c.name)).toContain("Tavern");
    expect(await aliceSpaces.addRooms(spaceId, [roomId])).toBe(true);
    await until(() => alice.rooms.get(spaceId).getSnapshot().state.spaceChildren.includes(roomId), "child");
    expect(alice.rooms.get(spaceId).getSnapshot().state.content("m.space.child", roomId)).toEqual({
      via: ["localhost"],
    });
    await until(
      () => alice.rooms.get(roomId).getSnapshot().state.content("m.space.parent", spaceId),
      "parent",
    );
    expect(alice.rooms.get(roomId).getSnapshot().state.content("m.space.parent", spaceId)).toEqual({
      via: ["localhost"],
      canonical: true,
    });
    expect(aliceSpaces.candidates(spaceId).map((c) => c.name)).not.toContain("Tavern");

    // Bob explores the space he is not in, through the hierarchy, and joins the room from it.
    const explore = await bobSpaces.explore(spaceId);
    await explore.load();
    const state = explore.state.getSnapshot();
    expect(state.source).toBe("server");
    expect(state.entries.map((e) => [e.name, e.joined, e.via])).toEqual([["Tavern", false, ["localhost"]]]);
    expect(await explore.join(roomId)).toBe(true);
    await untilRoom(bob, roomId);
    expect(explore.state.getSnapshot().entries[0]?.joined).toBe(true);
  });

  it("a room created inside a space is its child with a canonical parent", async () => {
    const spaceId = await aliceSpaces.createSpace({ name: "Inner", isPublic: false });
    await untilRoom(alice, spaceId);
    const roomId = await aliceSpaces.createRoomIn(spaceId, "Den");
    await untilRoom(alice, roomId);
    await until(() => alice.rooms.get(spaceId).getSnapshot().state.spaceChildren.includes(roomId), "child");
    expect(alice.rooms.get(roomId).getSnapshot().state.content("m.space.parent", spaceId)?.["via"]).toEqual([
      "localhost",
    ]);
  });

  it("a member without the state level cannot add rooms: the SDK's refusal, no request", async () => {
    const spaceId = await aliceSpaces.createSpace({ name: "Locked", isPublic: true });
    await untilRoom(alice, spaceId);
    await bob.moderation.join(spaceId);
    await untilRoom(bob, spaceId);
    const { room_id: roomId } = await bob.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { name: "Bobs" },
    });
    await untilRoom(bob, roomId);
    expect(await bobSpaces.addRooms(spaceId, [roomId])).toBe(false);
    expect(bobSpaces.error.getSnapshot()).toMatch(/m\.space\.child/);
    expect(await bobSpaces.leave(spaceId)).toBe(true);
  });

  it("without the hierarchy API (old /versions), lists the space's children from local state", async () => {
    const spaceId = await aliceSpaces.createSpace({ name: "Offline", isPublic: false });
    await untilRoom(alice, spaceId);
    const roomId = await aliceSpaces.createRoomIn(spaceId, "Cellar");
    await untilRoom(alice, roomId);
    await until(() => alice.rooms.get(spaceId).getSnapshot().state.spaceChildren.includes(roomId), "child");
    const features = await alice.serverFeatures();
    const old: typeof alice = Object.create(alice, {
      serverFeatures: { value: () => Promise.resolve({ ...features, spaceHierarchy: false }) },
    }) as typeof alice;
    const explore = await new SpacesViewModel(
      old,
      new RoomListViewModel(alice.rooms, scope.child()),
      scope.child(),
    ).explore(spaceId);
    await explore.load();
    expect(explore.state.getSnapshot()).toMatchObject({
      source: "local",
      entries: [{ roomId, name: "Cellar", joined: true, via: ["localhost"] }],
    });
  });
});
