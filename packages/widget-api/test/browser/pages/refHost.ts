/** Host page: matrix-widget-api's ClientWidgetApi (the reference) with a canned driver, hosting a widget from another origin. */
import type { IOpenIDUpdate, IRoomEvent, ITurnServer, SimpleObservable } from "matrix-widget-api";
import { ClientWidgetApi, Widget, WidgetDriver } from "matrix-widget-api";
import { toWidgetScript } from "./toWidget";
import { VIEWED_ROOM, WIDGET_ID } from "./scenarios";

const token = {
  access_token: "tok",
  expires_in: 3600,
  matrix_server_name: "example.org",
  token_type: "Bearer" as const,
};

class RefDriver extends WidgetDriver {
  private openIdCalls = 0;
  public override validateCapabilities(requested: Set<string>): Promise<Set<string>> {
    return Promise.resolve(new Set(requested));
  }
  public override sendEvent(_t: string, _c: unknown, _s?: string | null, roomId?: string | null) {
    return Promise.resolve({ roomId: roomId ?? VIEWED_ROOM, eventId: "$sent" });
  }
  public override sendDelayedEvent(
    _d: number,
    _t: string,
    _c: unknown,
    _s?: string | null,
    roomId?: string | null,
  ) {
    return Promise.resolve({ roomId: roomId ?? VIEWED_ROOM, delayId: "syd_1" });
  }
  public override restartScheduledDelayedEvent(): Promise<void> {
    return Promise.resolve();
  }
  public override sendToDevice(): Promise<void> {
    return Promise.resolve();
  }
  public override askOpenID(observer: SimpleObservable<IOpenIDUpdate>): void {
    if (this.openIdCalls++ === 0) return observer.update({ state: "allowed" as never, token });
    observer.update({ state: "request" as never });
    setTimeout(() => observer.update({ state: "allowed" as never, token }), 50);
  }
  public override navigate(): Promise<void> {
    return Promise.resolve();
  }
  public override readRoomTimeline(): Promise<IRoomEvent[]> {
    return Promise.resolve([]);
  }
  public override readRoomState(roomId: string, type: string): Promise<IRoomEvent[]> {
    return Promise.resolve(
      type === "org.example.s"
        ? [
            {
              type,
              state_key: "k",
              room_id: roomId,
              sender: "@a:x",
              event_id: "$s",
              origin_server_ts: 1,
              content: {},
              unsigned: {},
            },
          ]
        : [],
    );
  }
  public override readEventRelations() {
    return Promise.resolve({ chunk: [], nextBatch: "next" });
  }
  public override searchUserDirectory() {
    return Promise.resolve({
      limited: false,
      results: [{ userId: "@bob:example.org", displayName: "Bob", avatarUrl: "mxc://x/y" }],
    });
  }
  public override readRoomAccountData() {
    return Promise.resolve([]);
  }
  public override getMediaConfig() {
    return Promise.resolve({ "m.upload.size": 1000 });
  }
  public override uploadFile() {
    return Promise.resolve({ contentUri: "mxc://example.org/abc" });
  }
  public override downloadFile() {
    return Promise.resolve({ file: "file-bytes" as unknown as Blob });
  }
  public override getRtcTransports() {
    return Promise.resolve({ rtc_transports: [{ type: "livekit" }] });
  }
  public override getKnownRooms(): string[] {
    return [VIEWED_ROOM];
  }
  public override async *getTurnServers(): AsyncGenerator<ITurnServer> {
    yield { uris: ["turn:turn.example.org"], username: "u", password: "p" };
    // The reference host awaits return() on unwatch, which waits for this await: keep it short.
    await new Promise((r) => setTimeout(r, 100));
  }
}

const widgetUrl = new URL(location.href).searchParams.get("widget") ?? "";
const iframe = document.createElement("iframe");
document.body.appendChild(iframe);
const api = new ClientWidgetApi(
  new Widget({
    id: WIDGET_ID,
    creatorUserId: "@me:example.org",
    type: "m.custom",
    url: widgetUrl,
    waitForIframeLoad: true,
  }),
  iframe,
  new RefDriver(),
);
// Element handles these outside ClientWidgetApi; emulate it the way Lattice's host behaves.
const reply = (action: string, body: (data: Record<string, unknown>) => Record<string, unknown>) =>
  api.on(`action:${action}`, (ev: CustomEvent<{ data: Record<string, unknown> }>) => {
    ev.preventDefault();
    api.transport.reply(ev.detail as never, body(ev.detail.data) as never);
  });
reply("m.sticker", () => ({}));
reply("set_always_on_screen", () => ({ success: true }));
reply("open_modal", () => ({}));
reply("close_modal", () => ({}));
reply("set_button_enabled", (d) =>
  d["button"] === "m.close" ? { error: { message: "The close button cannot be disabled" } } : {},
);
api.setViewedRoomId(VIEWED_ROOM);
api.on("ready", () => (window.hostReady = true));
iframe.src = `${widgetUrl}?widgetId=${WIDGET_ID}&parentUrl=${encodeURIComponent(location.href)}`;

window.runToWidget = () =>
  toWidgetScript({
    theme: () => api.updateTheme({ name: "dark" }),
    language: () => api.updateLanguage("fr"),
    visibility: () => api.updateVisibility(false),
    config: () => api.sendWidgetConfig({ id: WIDGET_ID } as never),
    button: () => api.notifyModalWidgetButtonClicked("ok"),
    close: () => api.notifyModalWidgetClose({ result: 1 }),
    screenshot: () => api.takeScreenshot(),
    event: (ev) => api.feedEvent(ev as IRoomEvent),
    toDevice: (msg) => api.feedToDevice(msg, false),
    state: (ev) => api.feedStateUpdate(ev as IRoomEvent),
  });
