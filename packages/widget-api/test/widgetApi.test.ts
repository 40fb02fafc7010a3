/**
 * Our widget side against our host over the in-memory postMessage pair:
 * negotiation, every from-widget method, to-widget handling, local checks
 * and the 'not supported by the client' errors for old clients.
 */
import { describe, expect, it } from "vitest";
import { MatrixCapabilities } from "../src/capabilities/MatrixCapabilities";
import { WidgetApiResponseError } from "../src/util/errors";
import { WidgetApi } from "../src/widget/WidgetApi";
import { FakeDriver, roomEvent } from "./FakeDriver";
import { embed, FakeWindow, flush } from "./fakeWindows";
import { HOST_ORIGIN, recordingLogger, setupPair, until, VIEWED_ROOM, WIDGET_ORIGIN } from "./harness";

async function readyPair(caps: string[], opts: Parameters<typeof setupPair>[0] = {}) {
  const env = setupPair(opts);
  env.widget.requestCapabilities(caps);
  let ready = false;
  env.widget.on("ready", () => (ready = true));
  env.widget.start();
  env.host.setViewedRoomId(VIEWED_ROOM);
  env.host.onIframeLoad();
  await until(() => ready && env.host.negotiationState === "ready");
  return env;
}

describe("WidgetApi against our host", () => {
  it("negotiates once and learns approved capabilities", async () => {
    const driver = new FakeDriver();
    driver.grant = () => new Set([MatrixCapabilities.AlwaysOnScreen]);
    const { widget, host } = await readyPair(
      [MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.MSC2931Navigate],
      { driver },
    );
    expect(widget.approvedCapabilities).toEqual([MatrixCapabilities.AlwaysOnScreen]);
    expect(widget.hasCapability(MatrixCapabilities.MSC2931Navigate)).toBe(false);
    // A second capabilities request is refused by the widget side.
    await expect(host.transport.send("capabilities", {})).rejects.toThrow(
      "Capability negotiation already completed",
    );
    host.stop();
  });

  it("renegotiates newly requested capabilities", async () => {
    const { widget, host } = await readyPair([]);
    widget.requestCapability(MatrixCapabilities.MSC2931Navigate);
    await widget.updateRequestedCapabilities();
    await until(
      () => widget.hasCapability(MatrixCapabilities.MSC2931Navigate) && widget.approvedCapabilities !== null,
    );
    expect(host.capabilities.has(MatrixCapabilities.MSC2931Navigate)).toBe(true);
    host.stop();
  });

  it("exercises every from-widget action", async () => {
    const driver = new FakeDriver();
    driver.turnServers = [{ uris: ["turn:t"], username: "u", password: "p" }];
    driver.timeline = [roomEvent({ type: "m.reaction", room_id: VIEWED_ROOM, event_id: "$r" })];
    driver.openId = (o) => {
      o.update({ state: "request" });
      setTimeout(
        () =>
          o.update({
            state: "allowed",
            token: { access_token: "t", expires_in: 1, matrix_server_name: "x", token_type: "Bearer" },
          }),
        0,
      );
    };
    const caps = [
      MatrixCapabilities.StickerSending,
      MatrixCapabilities.AlwaysOnScreen,
      MatrixCapabilities.MSC2931Navigate,
      MatrixCapabilities.MSC3846TurnServers,
      MatrixCapabilities.MSC3973UserDirectorySearch,
      MatrixCapabilities.MSC4039UploadFile,
      MatrixCapabilities.MSC4039DownloadFile,
      MatrixCapabilities.MSC4157SendDelayedEvent,
      MatrixCapabilities.MSC4157UpdateDelayedEvent,
      MatrixCapabilities.MSC4515RtcTransports,
      "org.matrix.msc2762.send.event:m.reaction",
      "org.matrix.msc2762.receive.event:m.reaction",
      "org.matrix.msc2762.send.state_event:org.example.s#k",
      "org.matrix.msc2762.receive.state_event:org.example.s",
      "org.matrix.msc3819.send.to_device:org.example.ping",
      "com.beeper.capabilities.receive.room_account_data:org.example.prefs",
    ];
    const { widget, host } = await readyPair(caps, { driver, widget: { kind: "modal" } });
    expect(await widget.sendRoomEvent("m.reaction", {})).toEqual({ room_id: VIEWED_ROOM, event_id: "$sent" });
    expect(await widget.sendStateEvent("org.example.s", "k", {}, { delay: 10 })).toEqual({
      room_id: VIEWED_ROOM,
      delay_id: "syd_1",
    });
    // A child of a delayed event with no delay of its own (MSC4157): answered with a delay_id too.
    expect(await widget.sendStateEvent("org.example.s", "k", {}, { parentDelayId: "syd_1" })).toEqual({
      room_id: VIEWED_ROOM,
      delay_id: "syd_1",
    });
    await widget.cancelScheduledDelayedEvent("syd_1");
    await widget.restartScheduledDelayedEvent("syd_1");
    await widget.sendScheduledDelayedEvent("syd_1");
    await widget.sendToDevice("org.example.ping", false, { "@b:x": { D: { a: 1 } } });
    expect(await widget.requestOpenIdConnectToken()).toMatchObject({ state: "allowed", access_token: "t" });
    await widget.navigateTo("https://matrix.to/#/!r:x");
    expect((await widget.readRoomEvents("m.reaction", { limit: 5 })).map((e) => e.event_id)).toEqual(["$r"]);
    expect(await widget.readStateEvents("org.example.s")).toEqual([]);
    expect((await widget.readEventRelations("$e")).chunk).toHaveLength(1);
    expect((await widget.searchUserDirectory("bo")).results[0]?.user_id).toBe("@bob:example.org");
    expect(await widget.readRoomAccountData("org.example.prefs")).toEqual([]);
    expect(await widget.getMediaConfig()).toEqual({ "m.upload.size": 1000 });
    expect(await widget.uploadFile("bytes")).toEqual({ content_uri: "mxc://example.org/abc" });
    expect(await widget.downloadFile("mxc://example.org/abc")).toEqual({ file: "file-bytes" });
    expect(await widget.getRtcTransports()).toHaveLength(1);
    await widget.setModalButtonEnabled("ok", false);
    await widget.sendSticker({ name: "cat", content: { url: "mxc://a/cat" } });
    expect(await widget.setAlwaysOnScreen(true)).toBe(true);
    await widget.openModalWidget("https://localhost:9000/modal", "Modal", [
      { id: "ok", label: "OK", kind: "m.primary" },
    ]);
    await widget.closeModalWidget({ result: 1 });
    const turn = widget.getTurnServers();
    expect((await turn.next()).value).toEqual({ uris: ["turn:t"], username: "u", password: "p" });
    await turn.return(undefined);
    expect(driver.calls.map((c) => c.method)).toEqual(
      expect.arrayContaining([
        "sendEvent",
        "updateDelayedEvent",
        "sendToDevice",
        "askOpenId",
        "navigate",
        "readRoomTimeline",
        "readEventRelations",
        "searchUserDirectory",
        "readRoomAccountData",
        "getMediaConfig",
        "uploadFile",
        "downloadFile",
        "getRtcTransports",
        "setModalButtonEnabled",
        "sendSticker",
        "setAlwaysOnScreen",
        "openModal",
        "closeModal",
        "getTurnServers",
      ]),
    );
    driver.releaseTurn();
    host.stop();
  });

  it("checks locally: matrix.to links, the close button, delayed/state responses", async () => {
    const { widget, host } = await readyPair([]);
    await expect(widget.navigateTo("https://example.org")).rejects.toThrow("Invalid matrix.to URI");
    await expect(widget.setModalButtonEnabled("m.close", false)).rejects.toThrow(
      "The close button cannot be disabled",
    );
    const err = await widget.sendRoomEvent("m.reaction", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WidgetApiResponseError);
    expect((err as Error).message).toBe("Cannot send room events of this type");
    host.stop();
  });

  it("handles to-widget actions: theme, language, visibility, config, buttons, events, screenshots", async () => {
    const { widget, host } = await readyPair([
      MatrixCapabilities.Screenshots,
      "org.matrix.msc2762.receive.event:m.reaction",
    ]);
    const seen: string[] = [];
    widget.on("action", (r) => seen.push(r.action));
    widget.onAction("screenshot", () => ({ screenshot: "png-bytes" }));
    expect(await host.updateTheme({ name: "dark" })).toEqual({});
    expect(await host.updateLanguage("fr")).toEqual({});
    expect(await host.updateVisibility(false)).toEqual({});
    expect(await host.sendWidgetConfig({ id: "w1" })).toEqual({});
    expect(await host.notifyModalWidgetButtonClicked("ok")).toEqual({});
    expect(await host.notifyModalWidgetClose({ result: 1 })).toEqual({});
    expect(await host.takeScreenshot()).toEqual({ screenshot: "png-bytes" });
    await host.feedEvent(roomEvent({ type: "m.reaction", room_id: VIEWED_ROOM }));
    expect(seen).toEqual([
      "theme_change",
      "language_change",
      "visibility",
      "widget_config",
      "button_clicked",
      "close_modal",
      "screenshot",
      "send_event",
    ]);
    await expect(host.transport.send("org.example.unknown", {})).rejects.toThrow(
      "Unknown or unsupported action: org.example.unknown",
    );
    host.stop();
  });

  it("refuses actions an old client does not support", async () => {
    const hostWin = new FakeWindow(HOST_ORIGIN);
    const widgetWin = new FakeWindow(WIDGET_ORIGIN);
    const { parent } = embed(hostWin, widgetWin);
    // An old client: answers supported_api_versions with only the pre-release versions.
    hostWin.addEventListener("message", (ev) => {
      const m = ev.data as Record<string, unknown>;
      if (m["action"] === "supported_api_versions" && !("response" in m)) {
        widgetWin.dispatch({
          data: { ...m, response: { supported_versions: ["0.0.1", "0.0.2"] } },
          origin: HOST_ORIGIN,
          source: parent,
        });
      }
    });
    const widget = new WidgetApi({
      widgetId: "w1",
      parentWindow: parent,
      selfWindow: widgetWin,
      clientOrigin: HOST_ORIGIN,
      logger: recordingLogger(),
    });
    widget.start();
    await flush();
    await expect(widget.searchUserDirectory("x")).rejects.toThrow(
      "The user_directory_search action is not supported by the client",
    );
    await expect(widget.readEventRelations("$e")).rejects.toThrow(
      "The read_relations action is not supported by the client",
    );
    await expect(widget.getMediaConfig()).rejects.toThrow(
      "The get_media_config action is not supported by the client",
    );
    await expect(widget.uploadFile("x")).rejects.toThrow(
      "The upload_file action is not supported by the client",
    );
    await expect(widget.downloadFile("mxc://a/b")).rejects.toThrow(
      "The download_file action is not supported by the client",
    );
    await expect(widget.getRtcTransports()).rejects.toThrow(
      "The get_rtc_transports action is not supported by the client",
    );
    widget.stop();
  });

  it("accepts messages only from its parent window", async () => {
    const { widget, host, widgetWin } = await readyPair([]);
    const seen: string[] = [];
    widget.on("action", (r) => seen.push(r.action));
    widgetWin.dispatch({
      data: { api: "toWidget", widgetId: "w1", requestId: "x1", action: "theme_change", data: {} },
      origin: HOST_ORIGIN,
      source: {},
    });
    await flush();
    expect(seen).toEqual([]);
    host.stop();
  });
});
