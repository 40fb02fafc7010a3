/** Host page: Lattice's ClientWidgetApi hosting a widget from another origin. */
import { ClientWidgetApi } from "../../../src/host/ClientWidgetApi";
import { FakeDriver } from "../../FakeDriver";
import { toWidgetScript } from "./toWidget";
import { VIEWED_ROOM, WIDGET_ID } from "./scenarios";

const widgetUrl = new URL(location.href).searchParams.get("widget") ?? "";
const driver = new FakeDriver();
driver.turnServers = [{ uris: ["turn:turn.example.org"], username: "u", password: "p" }];
driver.state = [
  {
    type: "org.example.s",
    state_key: "k",
    room_id: VIEWED_ROOM,
    sender: "@a:x",
    event_id: "$s",
    origin_server_ts: 1,
    content: {},
  },
];
let openIdCalls = 0;
const token = {
  access_token: "tok",
  expires_in: 3600,
  matrix_server_name: "example.org",
  token_type: "Bearer" as const,
};
driver.openId = (o) => {
  // First request: allowed at once. Later ones: pending user confirmation, then allowed.
  if (openIdCalls++ === 0) return o.update({ state: "allowed", token });
  o.update({ state: "request" });
  setTimeout(() => o.update({ state: "allowed", token }), 50);
};

const iframe = document.createElement("iframe");
iframe.src = `${widgetUrl}?widgetId=${WIDGET_ID}&parentUrl=${encodeURIComponent(location.href)}`;
document.body.appendChild(iframe);
const api = new ClientWidgetApi({
  widget: { id: WIDGET_ID, url: widgetUrl, waitForIframeLoad: true, kind: "modal" },
  frameWindow: iframe.contentWindow!,
  hostWindow: window,
  driver,
});
api.setViewedRoomId(VIEWED_ROOM);
iframe.addEventListener("load", () => api.onIframeLoad());
api.on("ready", () => (window.hostReady = true));

// Impostor frames (hardening test): each loads a page that reuses the widget's id.
for (const url of new URL(location.href).searchParams.getAll("impostor")) {
  const impostor = document.createElement("iframe");
  impostor.src = url;
  document.body.appendChild(impostor);
}
(window as unknown as { hostActions: string[] }).hostActions = [];
api.on("action", (r) => (window as unknown as { hostActions: string[] }).hostActions.push(r.requestId));

window.runToWidget = () =>
  toWidgetScript({
    theme: () => api.updateTheme({ name: "dark" }),
    language: () => api.updateLanguage("fr"),
    visibility: () => api.updateVisibility(false),
    config: () => api.sendWidgetConfig({ id: WIDGET_ID }),
    button: () => api.notifyModalWidgetButtonClicked("ok"),
    close: () => api.notifyModalWidgetClose({ result: 1 }),
    screenshot: () => api.takeScreenshot(),
    event: (ev) => api.feedEvent(ev),
    toDevice: (msg) => api.feedToDevice(msg, false),
    state: (ev) => api.feedStateUpdate(ev),
  });
