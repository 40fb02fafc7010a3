/** Widget page: matrix-widget-api's WidgetApi (the reference), talking to whichever host embeds it. */
import { WidgetApi } from "matrix-widget-api";
import { CAPABILITIES, runScenarios } from "./scenarios";

const params = new URL(location.href).searchParams;
const api = new WidgetApi(params.get("widgetId"), new URL(params.get("parentUrl") ?? "").origin);
const received: string[] = [];
window.receivedActions = received;
api.transport.on("message", (ev: CustomEvent<{ action: string }>) => received.push(ev.detail.action));
for (const action of [
  "theme_change",
  "language_change",
  "widget_config",
  "button_clicked",
  "close_modal",
  "send_event",
  "send_to_device",
  "update_state",
]) {
  api.on(`action:${action}`, (ev: CustomEvent<never>) => {
    ev.preventDefault();
    api.transport.reply(ev.detail, {});
  });
}
api.on("action:screenshot", (ev: CustomEvent<never>) => {
  ev.preventDefault();
  api.transport.reply(ev.detail, { screenshot: "png-bytes" });
});
api.requestCapabilities(CAPABILITIES);
api.on("ready", () => (window.widgetReady = true));
api.start();

window.runFromWidget = async () => {
  const outcomes = await runScenarios((action, data) => api.transport.send(action, data));
  const highLevel: Record<string, unknown> = {};
  const creds = await api.requestOpenIDConnectToken();
  highLevel["openid"] = creds.access_token;
  const turn = api.getTurnServers();
  highLevel["turn"] = (await turn.next()).value;
  await turn.return(undefined);
  highLevel["closeButton"] = await Promise.resolve()
    .then(() => api.setModalButtonEnabled("m.close", false))
    .catch((e: Error) => e.message);
  highLevel["navigate"] = await Promise.resolve()
    .then(() => api.navigateTo("https://example.org"))
    .catch((e: Error) => e.message);
  return { outcomes, highLevel };
};
