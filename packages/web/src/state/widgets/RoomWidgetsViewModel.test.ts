/**
 * Room widgets over HTTP against the test homeserver: alice (creator) adds,
 * edits and removes a widget, bob (level 0) sees it and is refused before
 * any request (the SDK's FORBIDDEN_LOCALLY message) with no state sent; a
 * non-http url is refused with the SPEC's words; m.widget wins over the
 * legacy type for one state key; invalid events are no widgets; a widget
 * whose sender is now below the widget level is untrusted until clicked;
 * URL templates are filled and encoded; the registry keeps an
 * always-on-screen widget running with no slot and stops the others; and
 * the timeline lines read "alice added the widget Etherpad".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import type { Client, TimelineItem } from "../../sdk";
import { ObservableValue } from "../observables";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import { signUp, until, untilRoom } from "../rooms/testing";
import { Scope } from "../Scope";
import { widgetsOfRoom } from "./roomWidgets";
import { RoomWidgetsViewModel } from "./RoomWidgetsViewModel";
import type { WidgetEnvironment } from "./RoomWidgetsViewModel";
import { widgetSummary } from "./timeline";
import { WidgetRegistry } from "./WidgetRegistry";
import type { HostedSession } from "./WidgetRegistry";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const scope = new Scope();

const env: WidgetEnvironment = {
  clientId: "org.lattice.web",
  theme: () => "dark",
  language: () => "en",
  baseUrl: "http://hs.example",
};

class FakeSession implements HostedSession {
  readonly alwaysOnScreen = new ObservableValue(false);
  disposed = false;
  attach(): void {}
  dispose(): void {
    this.disposed = true;
  }
}

function registry(): WidgetRegistry<FakeSession> {
  return new WidgetRegistry<FakeSession>(() => new FakeSession());
}

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUp(server.url, "alice"), signUp(server.url, "bob")]);
  roomId = await new RoomActionsViewModel(alice).createRoom({ name: "Widgets", isPublic: true });
  await untilRoom(alice, roomId);
  await bob.moderation.join(roomId);
  await untilRoom(bob, roomId);
}, 30_000);

afterAll(async () => {
  scope.end();
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

describe("RoomWidgetsViewModel", () => {
  it("adds, edits and removes at the widget level; refuses below it and a non-http url", async () => {
    const mine = new RoomWidgetsViewModel(alice, alice.rooms.get(roomId), registry(), env, scope.child());
    const theirs = new RoomWidgetsViewModel(bob, bob.rooms.get(roomId), registry(), env, scope.child());
    expect(mine.canManage.getSnapshot()).toBe(true);
    expect(theirs.canManage.getSnapshot()).toBe(false);
    expect(theirs.requiredLevel()).toBe(50);

    await expect(mine.add({ name: "Pad", type: "m.etherpad", url: "ftp://pad.example" })).rejects.toThrow(
      "Widget URLs must be http or https",
    );
    const id = await mine.add({
      name: "Pad",
      type: "m.etherpad",
      url: "https://pad.example/p/$matrix_room_id",
    });
    await until(() => theirs.widgets.getSnapshot().length === 1, "bob sees the widget");
    const seen = theirs.widgets.getSnapshot()[0];
    expect(seen).toMatchObject({ id, label: "Pad", type: "m.etherpad", sender: alice.userId, trusted: true });
    expect(seen?.origin).toBe("https://pad.example");
    expect(seen?.eventType).toBe("im.vector.modular.widgets");

    await expect(theirs.add({ name: "X", type: "m.custom", url: "https://x.example" })).rejects.toThrow(
      `Your power level in ${roomId} does not allow you to set im.vector.modular.widgets`,
    );
    await expect(theirs.remove(seen as NonNullable<typeof seen>)).rejects.toThrow("does not allow you");
    expect(theirs.widgets.getSnapshot()).toHaveLength(1);

    await mine.edit(seen as NonNullable<typeof seen>, {
      name: "Notes",
      type: "m.etherpad",
      url: "https://pad.example/n",
    });
    await until(() => theirs.widgets.getSnapshot()[0]?.label === "Notes", "bob sees the edit");
    expect(theirs.widgets.getSnapshot()[0]?.definition.creatorUserId).toBe(alice.userId);

    await mine.remove(theirs.widgets.getSnapshot()[0] as NonNullable<typeof seen>);
    await until(() => theirs.widgets.getSnapshot().length === 0, "bob sees the removal");
  });

  it("fills the url template with encoded values", () => {
    const vm = new RoomWidgetsViewModel(alice, alice.rooms.get(roomId), registry(), env, scope.child());
    const url = vm.urlOf({
      id: "w&1",
      definition: {
        id: "w&1",
        creatorUserId: alice.userId,
        type: "m.custom",
        url: "https://w.example/?r=$matrix_room_id&u=$matrix_user_id&w=$matrix_widget_id&t=$org.matrix.msc2873.client_theme&b=$org.matrix.msc4039.matrix_base_url",
        waitForIframeLoad: true,
        data: {},
        kind: "room",
      },
      eventType: "m.widget",
      sender: alice.userId,
      label: "w",
      type: "m.custom",
      origin: "https://w.example",
      isCall: false,
      trusted: true,
    });
    const q = new URL(url).searchParams;
    expect(q.get("r")).toBe(roomId);
    expect(q.get("u")).toBe(alice.userId);
    expect(q.get("w")).toBe("w&1");
    expect(q.get("t")).toBe("dark");
    expect(q.get("b")).toBe("http://hs.example");
    expect(url).toContain(`u=${encodeURIComponent(alice.userId)}`);
  });
});

describe("widgetsOfRoom", () => {
  it("prefers m.widget, drops invalid events, and trusts by the sender's level now", async () => {
    const sid = await new RoomActionsViewModel(alice).createRoom({ name: "Trust", isPublic: true });
    await untilRoom(alice, sid);
    await bob.moderation.join(sid);
    await untilRoom(bob, sid);
    const pl = alice.rooms.get(sid).getSnapshot().state.content("m.room.power_levels") ?? {};
    const events = (pl["events"] ?? {}) as Record<string, number>;
    await alice.state.setState(sid, "m.room.power_levels", "", {
      ...pl,
      events: { ...events, "m.widget": 0 },
    });
    await until(
      () => bob.rooms.get(sid).getSnapshot().state.powerLevels.canSendEvent(bob.userId, "m.widget", true),
      "level 0",
    );
    await bob.state.setState(sid, "m.widget", "b1", {
      type: "m.custom",
      url: "https://b.example/",
      name: "Bobs",
    });
    await alice.state.setState(sid, "im.vector.modular.widgets", "a1", {
      type: "m.custom",
      url: "https://legacy.example/",
    });
    await alice.state.setState(sid, "m.widget", "a1", { type: "m.custom", url: "https://stable.example/" });
    await alice.state.setState(sid, "m.widget", "bad", { type: "m.custom", url: "javascript:alert(1)" });
    await alice.state.setState(sid, "m.widget", "notype", { url: "https://x.example/" });
    await until(
      () => widgetsOfRoom(alice.rooms.get(sid).getSnapshot(), alice.userId).length === 2,
      "two widgets",
    );
    let list = widgetsOfRoom(alice.rooms.get(sid).getSnapshot(), alice.userId);
    expect(list.map((w) => [w.id, w.eventType, w.origin, w.trusted])).toEqual([
      ["a1", "m.widget", "https://stable.example", true],
      ["b1", "m.widget", "https://b.example", true],
    ]);
    // The widget level goes back up: bob's widget is no longer trusted (for alice), his own stays his.
    await alice.state.setState(sid, "m.room.power_levels", "", {
      ...pl,
      events: { ...events, "m.widget": 50 },
    });
    await until(
      () => widgetsOfRoom(alice.rooms.get(sid).getSnapshot(), alice.userId).some((w) => !w.trusted),
      "untrusted",
    );
    list = widgetsOfRoom(alice.rooms.get(sid).getSnapshot(), alice.userId);
    expect(list.find((w) => w.id === "b1")?.trusted).toBe(false);
    const vm = new RoomWidgetsViewModel(alice, alice.rooms.get(sid), registry(), env, scope.child());
    const b1 = vm.widgets.getSnapshot().find((w) => w.id === "b1");
    if (b1 === undefined) throw new Error("no b1");
    expect(vm.mayLoad(b1)).toBe(false);
    vm.allowLoad(b1);
    expect(vm.mayLoad(b1)).toBe(true);
    await until(
      () => widgetsOfRoom(bob.rooms.get(sid).getSnapshot(), bob.userId).length === 2,
      "bob sees both",
    );
    expect(
      widgetsOfRoom(bob.rooms.get(sid).getSnapshot(), bob.userId).find((w) => w.id === "b1")?.trusted,
    ).toBe(true);
  });
});

describe("widget timeline lines", () => {
  const item = (content: Record<string, unknown>, prev?: Record<string, unknown>): TimelineItem =>
    ({
      type: "im.vector.modular.widgets",
      stateKey: "w1",
      sender: "@alice:x",
      content,
      event: { unsigned: prev === undefined ? {} : { prev_content: prev } },
    }) as unknown as TimelineItem;
  const nameOf = (u: string) => (u === "@alice:x" ? "alice" : u);
  const pad = { type: "m.etherpad", url: "https://pad.example/", name: "Etherpad" };

  it("says added, changed and removed, with the widget's name", () => {
    expect(widgetSummary(item(pad), nameOf)).toBe("alice added the widget Etherpad");
    expect(widgetSummary(item({ ...pad, name: "Notes" }, pad), nameOf)).toBe(
      "alice changed the widget Notes",
    );
    expect(widgetSummary(item({}, pad), nameOf)).toBe("alice removed the widget Etherpad");
    expect(widgetSummary(item({ type: "m.custom", url: "https://x/" }, {}), nameOf)).toBe(
      "alice added the widget m.custom",
    );
  });
});

describe("WidgetRegistry", () => {
  const widget = {
    id: "w",
    definition: {
      id: "w",
      creatorUserId: "@a:x",
      type: "m.custom",
      url: "https://w.example/",
      waitForIframeLoad: true,
      data: {},
      kind: "room" as const,
    },
    eventType: "m.widget" as const,
    sender: "@a:x",
    label: "w",
    type: "m.custom",
    origin: "https://w.example",
    isCall: false,
    trusted: true,
  };
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it("stops a widget whose slot goes, keeps an always-on-screen one in picture-in-picture", async () => {
    const reg = registry();
    const slot = {} as HTMLElement;
    const release = reg.show("!r", widget, "https://w.example/", slot);
    const first = reg.find("!r", "w");
    expect(first?.slot.getSnapshot()).toBe(slot);
    release();
    await until(() => reg.find("!r", "w") === undefined, "stopped");
    expect((first?.session as FakeSession).disposed).toBe(true);

    const again = reg.show("!r", widget, "https://w.example/", slot);
    const running = reg.find("!r", "w");
    (running?.session as FakeSession).alwaysOnScreen.set(true);
    again();
    await tick();
    expect(reg.find("!r", "w")).toBe(running);
    expect(running?.slot.getSnapshot()).toBeNull();
    // Back in its room: the same session, drawn over the new slot.
    const slot2 = {} as HTMLElement;
    reg.show("!r", widget, "https://w.example/", slot2);
    expect(reg.find("!r", "w")).toBe(running);
    expect(running?.slot.getSnapshot()).toBe(slot2);
    // A new url restarts it.
    reg.show("!r", widget, "https://w.example/?v=2", slot2);
    expect(reg.find("!r", "w")).not.toBe(running);
    expect((running?.session as FakeSession).disposed).toBe(true);
    reg.dispose();
    expect(reg.running.getSnapshot()).toHaveLength(0);
  });

  it("keeps one maximised widget per room", () => {
    const reg = registry();
    reg.place("!r", "a", "maximised");
    reg.place("!r", "b", "maximised");
    expect([...reg.layoutOf("!r").getSnapshot()]).toEqual([
      ["a", "top"],
      ["b", "maximised"],
    ]);
  });
});
