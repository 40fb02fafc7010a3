/**
 * The rest of SPEC §7's widget actions through WidgetSession and the SDK
 * driver, on the real test homeserver: TURN servers, RTC transports
 * (MSC4515), user directory search, media config, upload and download,
 * relations, room account data, update_state pushes, navigate, stickers,
 * always-on-screen, modal widgets, theme, language and visibility pushes,
 * and Element Call's custom actions through the onAction hook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { sendStateEvent } from "../../sdk";
import type { Client } from "../../sdk";
import { WidgetConsent } from "./WidgetConsent";
import { startUser, toWidget, until } from "./testing/harness";
import { approveAndWait, errorOf, open, opened } from "./testing/open";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
let aliceToken: string;

beforeAll(async () => {
  server = await startTestServer({
    seed: "widget-actions",
    turnUris: ["turn:127.0.0.1:3478?transport=udp"],
    rtcTransports: [{ type: "livekit", livekit_service_url: "https://sfu.example.org/livekit" }],
  });
  ({ client: alice, accessToken: aliceToken } = await startUser(server, "alice"));
  ({ client: bob } = await startUser(server, "bob"));
  roomId = (
    await alice.http.request<{ room_id: string }>({
      method: "POST",
      path: "/createRoom",
      body: { preset: "public_chat", invite: [bob.userId], name: "Actions" },
    })
  ).room_id;
  await until(() => bob.rooms.find(roomId), "bob's invite");
  await bob.moderation.join(roomId);
  await until(
    () => alice.rooms.find(roomId)?.getSnapshot().state.membershipOf(bob.userId) === "join",
    "joined",
  );
}, 60_000);

afterAll(async () => {
  for (const s of opened.sessions) s.dispose();
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

describe("services", () => {
  it("TURN servers, RTC transports, user directory and media, each behind its capability", async () => {
    const caps = [
      "town.robin.msc3846.turn_servers",
      "org.matrix.msc4515.rtc_transports",
      "org.matrix.msc3973.user_directory_search",
      "org.matrix.msc4039.upload_file",
      "org.matrix.msc4039.download_file",
    ];
    const o = open(alice, roomId, caps, new WidgetConsent(undefined, alice.userId), {}, "services");
    await approveAndWait(o, caps);

    const turn = o.widget.getTurnServers();
    const first = await turn.next();
    expect(first.value).toMatchObject({ uris: ["turn:127.0.0.1:3478?transport=udp"] });
    expect(first.value?.username).toEqual(expect.any(String));
    expect(first.value?.password).toEqual(expect.any(String));
    await turn.return(undefined);

    expect(await o.widget.getRtcTransports()).toEqual([
      { type: "livekit", livekit_service_url: "https://sfu.example.org/livekit" },
    ]);

    const found = await o.widget.searchUserDirectory("bob", 5);
    expect(found.results.map((r) => r.user_id)).toContain(bob.userId);

    const config = await o.widget.getMediaConfig();
    expect(config["m.upload.size"]).toEqual(expect.any(Number));
    const bytes = new TextEncoder().encode("widget file");
    const uploaded = await o.widget.uploadFile(new Blob([bytes], { type: "text/plain" }));
    expect(uploaded.content_uri).toMatch(/^mxc:\/\//);
    const downloaded = await o.widget.downloadFile(uploaded.content_uri);
    expect(downloaded.file).toBeInstanceOf(Blob);
    expect(await (downloaded.file as Blob).text()).toBe("widget file");
    o.session.dispose();
  });

  it("refuses each without its capability: 'Missing capability'", async () => {
    const o = open(alice, roomId, [], new WidgetConsent(undefined, alice.userId), {}, "bare");
    await until(() => o.session.state.getSnapshot() === "ready", "ready");
    expect(await errorOf(o.widget.getRtcTransports())).toBe("Missing capability");
    expect(await errorOf(o.widget.searchUserDirectory("bob"))).toBe("Missing capability");
    expect(await errorOf(o.widget.getMediaConfig())).toBe("Missing capability");
    expect(await errorOf(o.widget.setAlwaysOnScreen(true))).toBe("Missing capability");
    o.session.dispose();
  });
});

describe("reading", () => {
  it("reads relations and room account data", async () => {
    const caps = [
      "org.matrix.msc2762.receive.event:m.room.message",
      "org.matrix.msc2762.receive.event:m.reaction",
      "com.beeper.capabilities.receive.room_account_data:org.example.settings",
    ];
    const message = alice.sendQueue.send(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "react to me",
    });
    const eventId = (await alice.sendQueue.whenSettled(message.txnId))?.eventId ?? "";
    const reaction = alice.sendQueue.react(roomId, eventId, "👍");
    await alice.sendQueue.whenSettled(reaction.txnId);
    await alice.accountData.setRoom(roomId, "org.example.settings", { colour: "green" });
    await until(
      () => alice.rooms.find(roomId)?.getSnapshot().accountData.get("org.example.settings"),
      "the room account data synced",
    );

    const o = open(alice, roomId, caps, new WidgetConsent(undefined, alice.userId), {}, "reader");
    await approveAndWait(o, caps);
    const rel = await o.widget.readEventRelations(eventId, { relType: "m.annotation" });
    expect(rel.chunk.map((e) => (e as { content: Record<string, unknown> }).content["m.relates_to"])).toEqual(
      [{ rel_type: "m.annotation", event_id: eventId, key: "👍" }],
    );
    expect(await o.widget.readRoomAccountData("org.example.settings")).toEqual([
      { type: "org.example.settings", room_id: roomId, content: { colour: "green" } },
    ]);
    expect(await errorOf(o.widget.readRoomAccountData("org.example.secret"))).toBe(
      "Cannot read room account data of this type",
    );
    o.session.dispose();
  });

  it("pushes the readable state after approval and each change (update_state)", async () => {
    const caps = ["org.matrix.msc2762.receive.state_event:m.room.name"];
    const o = open(alice, roomId, caps, new WidgetConsent(undefined, alice.userId), {}, "stateful");
    await approveAndWait(o, caps);
    const initial = await until(() => toWidget(o.widgetWin, "update_state")[0], "the first update_state");
    expect(JSON.stringify(initial["data"])).toContain('"name":"Actions"');
    await sendStateEvent(alice.http, roomId, "m.room.name", { name: "Renamed" });
    await until(
      () =>
        toWidget(o.widgetWin, "update_state").some((m) => JSON.stringify(m["data"]).includes('"Renamed"')),
      "the change pushed",
    );
    expect(JSON.stringify(toWidget(o.widgetWin, "update_state"))).not.toContain("m.room.join_rules");
    o.session.dispose();
  });
});

describe("the app's side", () => {
  it("navigates, sends stickers, stays on screen, opens a modal and pushes theme, language and visibility", async () => {
    const caps = ["org.matrix.msc2931.navigate", "m.sticker", "m.always_on_screen"];
    const navigated: string[] = [];
    const o = open(
      alice,
      roomId,
      caps,
      new WidgetConsent(undefined, alice.userId),
      { onNavigate: (uri) => void navigated.push(uri) },
      "app",
    );
    await approveAndWait(o, caps);

    await o.widget.navigateTo("https://matrix.to/#/#lounge:localhost");
    expect(navigated).toEqual(["https://matrix.to/#/#lounge:localhost"]);

    await o.widget.sendSticker({
      name: "cat",
      content: { url: "mxc://localhost/cat", info: { w: 64, h: 64 } },
    });
    const sticker = await until(
      () => bob.rooms.find(roomId)?.recentEvents.find((e) => e.type === "m.sticker"),
      "bob sees the sticker",
    );
    expect(sticker.content["url"]).toBe("mxc://localhost/cat");

    expect(await o.widget.setAlwaysOnScreen(true)).toBe(true);
    expect(o.session.alwaysOnScreen.getSnapshot()).toBe(true);

    await o.widget.openModalWidget("http://localhost:9090/modal.html", "Pick", [
      { id: "ok", label: "OK", kind: "m.primary" },
      { id: "go", label: "Help", kind: "m.link" },
    ]);
    expect(o.session.modal.getSnapshot()).toMatchObject({
      url: "http://localhost:9090/modal.html",
      name: "Pick",
      buttons: [
        { id: "ok", kind: "m.primary" },
        { id: "go", kind: "m.link" },
      ],
      openerWidgetId: "app",
    });
    await o.session.modalClosed({ chosen: "ok" });
    expect(o.session.modal.getSnapshot()).toBeNull();
    expect(toWidget(o.widgetWin, "close_modal").map((m) => m["data"])).toEqual([{ chosen: "ok" }]);

    await o.session.setTheme({ name: "dark" });
    await o.session.setLanguage("fr");
    await o.session.setVisible(false);
    expect(toWidget(o.widgetWin, "theme_change").map((m) => m["data"])).toEqual([{ name: "dark" }]);
    expect(toWidget(o.widgetWin, "language_change").map((m) => m["data"])).toEqual([{ lang: "fr" }]);
    expect(toWidget(o.widgetWin, "visibility").map((m) => m["data"])).toEqual([{ visible: false }]);
    o.session.dispose();
    expect(o.session.alwaysOnScreen.getSnapshot()).toBe(false);
  });

  it("a modal widget sets its buttons but never disables m.close", async () => {
    const o = open(alice, roomId, [], new WidgetConsent(undefined, alice.userId), {}, "modal", "modal");
    await until(() => o.session.state.getSnapshot() === "ready", "ready");
    await o.widget.setModalButtonEnabled("ok", false);
    expect(o.session.modalButtonsEnabled.getSnapshot().get("ok")).toBe(false);
    expect(await errorOf(o.widget.setModalButtonEnabled("m.close", false))).toBe(
      "The close button cannot be disabled",
    );
    await o.widget.closeModalWidget({ result: 1 });
    expect(o.session.closeRequest.getSnapshot()).toEqual({ result: 1 });
    o.session.dispose();
  });

  it("answers Element Call's custom actions through onAction, and sends custom actions to the widget", async () => {
    const seen: string[] = [];
    const o = open(
      alice,
      roomId,
      [],
      new WidgetConsent(undefined, alice.userId),
      {
        onAction: (action) => {
          if (
            !["io.element.join", "im.vector.hangup", "io.element.close", "io.element.device_mute"].includes(
              action,
            )
          )
            return null;
          seen.push(action);
          return {};
        },
      },
      "ecall",
    );
    await until(() => o.session.state.getSnapshot() === "ready", "ready");
    for (const action of [
      "io.element.join",
      "im.vector.hangup",
      "io.element.device_mute",
      "io.element.close",
    ]) {
      expect(await o.widget.transport.send(action, {})).toEqual({});
    }
    expect(seen).toEqual([
      "io.element.join",
      "im.vector.hangup",
      "io.element.device_mute",
      "io.element.close",
    ]);
    expect(await errorOf(o.widget.transport.send("io.element.unknown", {}))).toBe(
      "Unknown or unsupported action: io.element.unknown",
    );
    o.widget.onAction("io.element.device_mute", () => ({ audio_enabled: false }));
    expect(await o.session.sendCustom("io.element.device_mute", { audio_enabled: false })).toEqual({
      audio_enabled: false,
    });
    o.session.dispose();
  });
});

describe("the access token", () => {
  it("never reaches a widget window", () => {
    const all = JSON.stringify(opened.windows.map((win) => win.received.map((ev) => ev.data)));
    expect(all).toContain("update_turn_servers");
    expect(all).not.toContain(aliceToken);
  });
});
