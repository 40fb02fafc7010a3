/**
 * The widget host end to end in Node: WidgetSession + SdkWidgetDriver on
 * real SDK clients against the real test homeserver (response validation
 * on), with a widget on a second origin speaking over in-memory windows
 * that behave like postMessage. The widget side is the real
 * matrix-widget-api WidgetApi where a test needs no more than it offers,
 * else Lattice's own WidgetApi. Every message a widget window received is
 * checked at the end: none contains the user's access token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { getEvent } from "../../sdk";
import type { Client } from "../../sdk";
import { WidgetConsent } from "./WidgetConsent";
import { WidgetSession } from "./WidgetSession";
import { FakeWindow, HOST_ORIGIN, WIDGET_ORIGIN, embed, startUser, toWidget, until } from "./testing/harness";
import { approveAndWait, definition, errorOf, memoryStorage, open, opened } from "./testing/open";
import { startRefWidget } from "./testing/refWidget";

const SEND_MESSAGE = "org.matrix.msc2762.send.event:m.room.message";
const RECEIVE_MESSAGE = "org.matrix.msc2762.receive.event:m.room.message";
const RECEIVE_MEMBER = "org.matrix.msc2762.receive.state_event:m.room.member";
const SEND_TOPIC = "org.matrix.msc2762.send.state_event:m.room.topic";
const TURN = "town.robin.msc3846.turn_servers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let aliceToken: string;
let bobToken: string;
let plainRoom: string;
let secretRoom: string;
const widgetWindows = opened.windows;
const sessions = opened.sessions;

beforeAll(async () => {
  server = await startTestServer({
    seed: "widget-host",
    turnUris: ["turn:127.0.0.1:3478?transport=udp"],
    rtcTransports: [{ type: "livekit", livekit_service_url: "https://sfu.example.org/livekit" }],
  });
  ({ client: alice, accessToken: aliceToken } = await startUser(server, "alice"));
  ({ client: bob, accessToken: bobToken } = await startUser(server, "bob"));
  plainRoom = (
    await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { preset: "private_chat", invite: [bob.userId], name: "Widgets" },
    })
  ).room_id;
  secretRoom = (
    await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: {
        preset: "private_chat",
        invite: [bob.userId],
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
      },
    })
  ).room_id;
  for (const roomId of [plainRoom, secretRoom]) {
    await until(() => bob.rooms.find(roomId), "bob's invite");
    await bob.moderation.join(roomId);
    await until(
      () => alice.rooms.find(roomId)?.getSnapshot().state.membershipOf(bob.userId) === "join",
      "bob joined",
    );
  }
}, 60_000);

afterAll(async () => {
  for (const s of sessions) s.dispose();
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

describe("capability consent", () => {
  it("asks in plain words, grants what the user leaves ticked, and remembers it for the next session", async () => {
    const storage = memoryStorage();
    const consent = new WidgetConsent(storage, alice.userId);
    const first = open(alice, plainRoom, [SEND_MESSAGE, RECEIVE_MEMBER, TURN], consent);
    const asked = await until(() => first.session.approval.getSnapshot(), "the approval prompt");
    expect(asked.requested).toEqual([SEND_MESSAGE, RECEIVE_MEMBER, TURN]);
    expect(asked.descriptions).toEqual([
      "Send messages as you in this room",
      "Read m.room.member state",
      "See your TURN servers",
    ]);
    first.session.approve([SEND_MESSAGE, RECEIVE_MEMBER]);
    await until(() => first.widget.approvedCapabilities, "notify_capabilities");
    expect([...(first.widget.approvedCapabilities ?? [])].sort()).toEqual(
      [RECEIVE_MEMBER, SEND_MESSAGE].sort(),
    );
    first.session.dispose();

    // A reload: a new consent read back from storage, a new session, no prompt.
    const again = new WidgetConsent(storage, alice.userId);
    const second = open(alice, plainRoom, [SEND_MESSAGE, RECEIVE_MEMBER, TURN], again);
    await until(() => second.session.state.getSnapshot() === "ready", "ready without a prompt");
    expect(second.session.approval.getSnapshot()).toBeNull();
    expect([...second.session.granted.getSnapshot()].sort()).toEqual([RECEIVE_MEMBER, SEND_MESSAGE].sort());
    // Remembered per (widget, room): the same widget id in another room asks again.
    const elsewhere = open(alice, secretRoom, [SEND_MESSAGE], again);
    await until(() => elsewhere.session.approval.getSnapshot(), "a prompt in another room");
    second.session.dispose();
    elsewhere.session.dispose();
  });

  it("asks again after an answer given with Remember unticked", async () => {
    const storage = memoryStorage();
    const consent = new WidgetConsent(storage, alice.userId);
    const first = open(alice, plainRoom, [SEND_MESSAGE], consent);
    await until(() => first.session.approval.getSnapshot(), "the approval prompt");
    first.session.approve([SEND_MESSAGE], { remember: false });
    await until(() => first.widget.approvedCapabilities, "notify_capabilities");
    expect([...(first.widget.approvedCapabilities ?? [])]).toEqual([SEND_MESSAGE]);
    first.session.dispose();
    const second = open(alice, plainRoom, [SEND_MESSAGE], new WidgetConsent(storage, alice.userId));
    const asked = await until(() => second.session.approval.getSnapshot(), "a second prompt");
    expect(asked.requested).toEqual([SEND_MESSAGE]);
    second.session.dispose();
  });

  it("keeps a widget id such as __proto__ as data", () => {
    const storage = memoryStorage();
    const consent = new WidgetConsent(storage, alice.userId);
    consent.rememberCapabilities("__proto__", plainRoom, [SEND_MESSAGE], new Set([SEND_MESSAGE]));
    consent.rememberOpenId("constructor", null, "always");
    const back = new WidgetConsent(storage, alice.userId);
    expect(back.rememberedGrant("__proto__", plainRoom, [SEND_MESSAGE])).toEqual(new Set([SEND_MESSAGE]));
    expect(back.openIdChoice("constructor", null)).toBe("always");
    expect(back.openIdChoice("toString", null)).toBeNull();
    expect(({} as Record<string, unknown>)[SEND_MESSAGE]).toBeUndefined();
  });

  it("grants pre-approved capabilities without asking", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const o = open(alice, plainRoom, [SEND_MESSAGE, TURN], consent, { preApproved: [SEND_MESSAGE, TURN] });
    await until(() => o.session.state.getSnapshot() === "ready", "ready");
    expect(o.session.approval.getSnapshot()).toBeNull();
    expect([...o.session.granted.getSnapshot()].sort()).toEqual([SEND_MESSAGE, TURN].sort());
    o.session.dispose();
  });
});

describe("sending", () => {
  it("sends a message bob receives, and a denied capability gets the spec's message", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const o = open(alice, plainRoom, [SEND_MESSAGE, SEND_TOPIC], consent);
    await approveAndWait(o, [SEND_MESSAGE]);
    const sent = await o.widget.sendRoomEvent("m.room.message", { msgtype: "m.text", body: "from a widget" });
    expect(sent.room_id).toBe(plainRoom);
    await until(
      () => bob.rooms.find(plainRoom)?.recentEvents.find((e) => e.event_id === sent.event_id),
      "bob sees the widget's message",
    );
    expect(await errorOf(o.widget.sendStateEvent("m.room.topic", "", { topic: "no" }))).toBe(
      "Cannot send state events of this type",
    );
    expect(await errorOf(o.widget.sendRoomEvent("org.example.other", {}))).toBe(
      "Cannot send room events of this type",
    );
    o.session.dispose();
  });
});

describe("the reference widget (matrix-widget-api)", () => {
  it("negotiates, sends a state event and reads it back", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const hostWin = new FakeWindow(HOST_ORIGIN);
    const widgetWin = new FakeWindow(WIDGET_ORIGIN);
    widgetWindows.push(widgetWin);
    const { frame, parent } = embed(hostWin, widgetWin);
    const session = new WidgetSession({
      client: alice,
      roomId: plainRoom,
      widget: definition("ref"),
      consent,
      options: { onNavigate: () => undefined, hostWindow: hostWin },
    });
    sessions.push(session);
    session.attach(frame, WIDGET_ORIGIN);
    const readTopic = "org.matrix.msc2762.receive.state_event:m.room.topic";
    const ref = startRefWidget(widgetWin, parent, "ref", HOST_ORIGIN, [SEND_TOPIC, readTopic]);
    try {
      const ready = new Promise<void>((resolve) => ref.widget.once("ready", () => resolve()));
      session.onIframeLoad();
      await until(() => session.approval.getSnapshot(), "the approval prompt");
      session.approve([SEND_TOPIC, readTopic]);
      await ready;
      const sent = await ref.widget.sendStateEvent("m.room.topic", "", { topic: "set by a widget" });
      expect(sent.event_id).toMatch(/^\$/);
      await until(
        () =>
          alice.rooms.find(plainRoom)?.getSnapshot().state.content("m.room.topic")?.["topic"] ===
          "set by a widget",
        "the topic in alice's room state",
      );
      const state = await ref.widget.readStateEvents("m.room.topic", 5, "");
      expect(state.map((e) => e.content)).toEqual([{ topic: "set by a widget" }]);
      expect(await errorOf(ref.widget.sendRoomEvent("m.room.message", { body: "no" }))).toBe(
        "Cannot send room events of this type",
      );
    } finally {
      ref.stop();
      session.dispose();
    }
  });
});

describe("encrypted rooms", () => {
  it("delivers bob's message decrypted, and only to a widget with the capability", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const reader = open(alice, secretRoom, [RECEIVE_MESSAGE], consent, {}, "reader");
    await approveAndWait(reader, [RECEIVE_MESSAGE]);
    const other = open(
      alice,
      secretRoom,
      ["org.matrix.msc2762.receive.event:org.example.other"],
      consent,
      {},
      "other",
    );
    await approveAndWait(other, ["org.matrix.msc2762.receive.event:org.example.other"]);

    const pending = bob.sendQueue.send(secretRoom, "m.room.message", {
      msgtype: "m.text",
      body: "for your eyes",
    });
    const settled = await bob.sendQueue.whenSettled(pending.txnId);
    const eventId = settled?.eventId ?? "";
    expect(eventId).toMatch(/^\$/);
    const pushed = await until(
      () =>
        toWidget(reader.widgetWin, "send_event").find(
          (m) => (m["data"] as { event_id?: string }).event_id === eventId,
        ),
      "the decrypted event pushed to the widget",
    );
    const data = pushed["data"] as Record<string, unknown>;
    expect(data["type"]).toBe("m.room.message");
    expect(data["room_id"]).toBe(secretRoom);
    expect(data["content"]).toMatchObject({ msgtype: "m.text", body: "for your eyes" });

    // read_events pages /messages and decrypts it.
    const read = await reader.widget.readRoomEvents("m.room.message", { limit: 5 });
    expect(read.find((e) => e.event_id === eventId)?.content).toMatchObject({ body: "for your eyes" });

    // Wait for a later event to reach the other widget's window, then check it got nothing of bob's.
    await until(
      () => alice.rooms.find(secretRoom)?.recentEvents.some((e) => e.event_id === eventId),
      "alice synced",
    );
    await new Promise((r) => setTimeout(r, 200));
    for (const win of [reader.widgetWin, other.widgetWin]) {
      expect(JSON.stringify(win.received.map((e) => e.data))).not.toContain(
        'm.megolm.v1.aes-sha2","ciphertext',
      );
    }
    expect(toWidget(other.widgetWin, "send_event")).toEqual([]);
    expect(await errorOf(other.widget.readRoomEvents("m.room.message"))).toBe(
      "Cannot read room events of this type",
    );
    reader.session.dispose();
    other.session.dispose();
  });

  it("sends a widget's message encrypted into an encrypted room", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const o = open(alice, secretRoom, [SEND_MESSAGE], consent, {}, "writer");
    await approveAndWait(o, [SEND_MESSAGE]);
    const sent = await o.widget.sendRoomEvent("m.room.message", { msgtype: "m.text", body: "sealed" });
    const seen = await until(
      () => bob.rooms.find(secretRoom)?.recentEvents.find((e) => e.event_id === sent.event_id),
      "bob decrypts it",
    );
    expect(seen.type).toBe("m.room.message");
    expect(seen.content["body"]).toBe("sealed");
    o.session.dispose();
  });
});

describe("to-device", () => {
  it("sends an Olm-encrypted message from alice's widget to bob's widget", async () => {
    const type = "org.example.ping";
    const send = `org.matrix.msc3819.send.to_device:${type}`;
    const receive = `org.matrix.msc3819.receive.to_device:${type}`;
    const sender = open(alice, plainRoom, [send], new WidgetConsent(undefined, alice.userId), {}, "tx");
    await approveAndWait(sender, [send]);
    const receiver = open(bob, plainRoom, [receive], new WidgetConsent(undefined, bob.userId), {}, "rx");
    await approveAndWait(receiver, [receive]);
    await sender.widget.sendToDevice(type, true, {
      [bob.userId]: { [bob.deviceId ?? ""]: { secret: "olm-only" } },
    });
    const got = await until(
      () => toWidget(receiver.widgetWin, "send_to_device")[0],
      "bob's widget gets it",
      20_000,
    );
    expect(got["data"]).toMatchObject({
      type,
      sender: alice.userId,
      content: { secret: "olm-only" },
      encrypted: true,
    });
    expect(await errorOf(sender.widget.sendToDevice("org.example.other", false, {}))).toBe(
      "Cannot send to-device events of this type",
    );
    sender.session.dispose();
    receiver.session.dispose();
  }, 30_000);
});

describe("delayed events", () => {
  it("schedules a message, then sends it now; restart and cancel reach the server", async () => {
    const caps = [
      SEND_MESSAGE,
      "org.matrix.msc4157.send.delayed_event",
      "org.matrix.msc4157.update_delayed_event",
    ];
    const o = open(alice, plainRoom, caps, new WidgetConsent(undefined, alice.userId), {}, "delayer");
    await approveAndWait(o, caps);
    const scheduled = await o.widget.sendRoomEvent(
      "m.room.message",
      { msgtype: "m.text", body: "later" },
      { delay: 60_000 },
    );
    expect(scheduled.delay_id).toEqual(expect.any(String));
    await o.widget.restartScheduledDelayedEvent(scheduled.delay_id ?? "");
    await o.widget.sendScheduledDelayedEvent(scheduled.delay_id ?? "");
    await until(
      () => bob.rooms.find(plainRoom)?.recentEvents.find((e) => e.content["body"] === "later"),
      "the delayed message sent",
    );
    const second = await o.widget.sendRoomEvent("m.room.message", { body: "never" }, { delay: 60_000 });
    await o.widget.cancelScheduledDelayedEvent(second.delay_id ?? "");
    expect(await errorOf(o.widget.sendScheduledDelayedEvent(second.delay_id ?? ""))).toBe(
      "Error updating delayed event",
    );
    o.session.dispose();
  });

  it("a child of a delayed event with no delay of its own gets a delay id and goes out with its parent", async () => {
    const caps = [
      SEND_MESSAGE,
      "org.matrix.msc4157.send.delayed_event",
      "org.matrix.msc4157.update_delayed_event",
    ];
    const o = open(alice, plainRoom, caps, new WidgetConsent(undefined, alice.userId), {}, "chained");
    await approveAndWait(o, caps);
    const parent = await o.widget.sendRoomEvent(
      "m.room.message",
      { msgtype: "m.text", body: "parent" },
      { delay: 60_000 },
    );
    // MSC4157: parent_delay_id without delay is still a delayed send, answered with a delay_id (it was 'Error sending event').
    const child = await o.widget.sendRoomEvent(
      "m.room.message",
      { msgtype: "m.text", body: "child" },
      { parentDelayId: parent.delay_id ?? "" },
    );
    expect(child).toEqual({ room_id: plainRoom, delay_id: expect.any(String) });
    expect(child.delay_id).not.toBe(parent.delay_id);
    await o.widget.sendScheduledDelayedEvent(parent.delay_id ?? "");
    await until(
      () => bob.rooms.find(plainRoom)?.recentEvents.find((e) => e.content["body"] === "child"),
      "the child sent after its parent",
    );
    o.session.dispose();
  });

  it("encrypts a delayed message in an encrypted room (it never leaves in the clear)", async () => {
    const caps = [
      SEND_MESSAGE,
      "org.matrix.msc4157.send.delayed_event",
      "org.matrix.msc4157.update_delayed_event",
    ];
    const o = open(alice, secretRoom, caps, new WidgetConsent(undefined, alice.userId), {}, "sealed-later");
    await approveAndWait(o, caps);
    const scheduled = await o.widget.sendRoomEvent(
      "m.room.message",
      { msgtype: "m.text", body: "sealed and late" },
      { delay: 60_000 },
    );
    await o.widget.sendScheduledDelayedEvent(scheduled.delay_id ?? "");
    const seen = await until(
      () => bob.rooms.find(secretRoom)?.recentEvents.find((e) => e.content["body"] === "sealed and late"),
      "bob decrypts the delayed message",
    );
    expect(seen.type).toBe("m.room.message");
    // On the server it is ciphertext.
    const raw = await getEvent(bob.http, secretRoom, seen.event_id);
    expect(raw.type).toBe("m.room.encrypted");
    expect(JSON.stringify(raw.content)).not.toContain("sealed and late");
    o.session.dispose();
  });

  it("refuses a delay without the capability, and a sticky event the server does not support", async () => {
    const caps = [SEND_MESSAGE, "org.matrix.msc4407.send.sticky_event"];
    const o = open(alice, plainRoom, caps, new WidgetConsent(undefined, alice.userId), {}, "sticky");
    await approveAndWait(o, caps);
    expect(await errorOf(o.widget.sendRoomEvent("m.room.message", { body: "x" }, { delay: 10 }))).toBe(
      "Missing capability for org.matrix.msc4157.send.delayed_event",
    );
    // The test homeserver does not advertise org.matrix.msc4354: nothing is sent.
    expect(
      await errorOf(o.widget.sendRoomEvent("m.room.message", { body: "x" }, { stickyDurationMs: 1000 })),
    ).toBe("Error sending event");
    o.session.dispose();
  });
});

describe("OpenID", () => {
  it("once asks every time, always and block are remembered, and a pending request is answered once", async () => {
    const storage = memoryStorage();
    const consent = new WidgetConsent(storage, alice.userId);
    const o = open(alice, plainRoom, [], consent, {}, "oidc");
    await until(() => o.session.state.getSnapshot() === "ready", "ready");

    const first = o.widget.requestOpenIdConnectToken();
    const prompt = await until(() => o.session.openId.getSnapshot(), "the OpenID prompt");
    expect(prompt.origin).toBe(WIDGET_ORIGIN);
    o.session.answerOpenId("once");
    o.session.answerOpenId("block"); // answered already: ignored
    const token = await first;
    expect(token.access_token).toEqual(expect.any(String));
    expect(token.access_token).not.toBe(aliceToken);
    expect(token.matrix_server_name).toBe(alice.userId.split(":")[1]);

    const second = o.widget.requestOpenIdConnectToken();
    await until(() => o.session.openId.getSnapshot(), "asked again after once");
    o.session.answerOpenId("always");
    await second;
    expect(await o.widget.requestOpenIdConnectToken()).toMatchObject({ token_type: "Bearer" });
    expect(o.session.openId.getSnapshot()).toBeNull();
    o.session.dispose();

    const blocked = open(alice, plainRoom, [], consent, {}, "oidc-blocked");
    await until(() => blocked.session.state.getSnapshot() === "ready", "ready");
    const refused = blocked.widget.requestOpenIdConnectToken();
    await until(() => blocked.session.openId.getSnapshot(), "the prompt");
    blocked.session.answerOpenId("block");
    await expect(refused).rejects.toThrow();
    await expect(blocked.widget.requestOpenIdConnectToken()).rejects.toThrow();
    expect(new WidgetConsent(storage, alice.userId).openIdChoice("oidc-blocked", plainRoom)).toBe("block");
    blocked.session.dispose();
  });
});

describe("a hostile frame", () => {
  it("reusing the widget's id from another window is ignored", async () => {
    const consent = new WidgetConsent(undefined, alice.userId);
    const o = open(alice, plainRoom, [SEND_MESSAGE], consent, {}, "victim");
    await approveAndWait(o, [SEND_MESSAGE]);
    // Another frame on the same origin, posting into the host window with the victim's id.
    const evil = new FakeWindow(WIDGET_ORIGIN);
    widgetWindows.push(evil);
    const { parent: evilParent } = embed(o.hostWin, evil);
    evilParent.postMessage(
      {
        api: "fromWidget",
        widgetId: "victim",
        requestId: "evil-1",
        action: "send_event",
        data: { type: "m.room.message", content: { msgtype: "m.text", body: "forged" } },
      },
      HOST_ORIGIN,
    );
    // The real widget's next request is answered: the host is alive and saw the forgery first.
    await o.widget.sendRoomEvent("m.room.message", { msgtype: "m.text", body: "genuine" });
    await new Promise((r) => setTimeout(r, 100));
    expect(evil.received).toEqual([]);
    expect(o.widgetWin.received.some((e) => (e.data as { requestId?: string }).requestId === "evil-1")).toBe(
      false,
    );
    const bodies = (await o.widget.readRoomEvents("m.room.message", { limit: 20 }).catch(() => [])).map(
      (e) => e.content["body"],
    );
    expect(bodies).not.toContain("forged");
    expect(
      alice.sendQueue
        .room(plainRoom)
        .getSnapshot()
        .some((p) => p.content["body"] === "forged"),
    ).toBe(false);
    o.session.dispose();
  });

  it("refuses to attach a frame at another origin", () => {
    const session = new WidgetSession({
      client: alice,
      roomId: plainRoom,
      widget: definition("strict"),
      consent: new WidgetConsent(undefined, alice.userId),
      options: { onNavigate: () => undefined, hostWindow: new FakeWindow(HOST_ORIGIN) },
    });
    expect(() => session.attach({ postMessage: () => undefined }, "https://evil.example")).toThrow(
      `The widget runs at ${WIDGET_ORIGIN}, not https://evil.example`,
    );
  });
});

describe("the access token", () => {
  it("never reaches a widget window", () => {
    const all = JSON.stringify(widgetWindows.map((win) => win.received.map((ev) => ev.data)));
    // The windows did get traffic: events, state, capabilities, OpenID tokens.
    expect(all).toContain("for your eyes");
    expect(all).toContain("notify_capabilities");
    expect(aliceToken.length).toBeGreaterThan(8);
    expect(all).not.toContain(aliceToken);
    expect(all).not.toContain(bobToken);
  });
});
