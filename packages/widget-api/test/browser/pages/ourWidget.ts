/** Widget page: Lattice's WidgetApi, talking to whichever host embeds it. */
import { WidgetApi } from "../../../src/widget/WidgetApi";
import { CAPABILITIES, runScenarios } from "./scenarios";

const params = new URL(location.href).searchParams;
const api = new WidgetApi({
  widgetId: params.get("widgetId"),
  parentWindow: window.parent,
  selfWindow: window,
  clientOrigin: new URL(params.get("parentUrl") ?? "").origin,
});
const received: string[] = [];
window.receivedActions = received;
api.on("action", (r) => received.push(r.action));
api.onAction("screenshot", () => ({ screenshot: "png-bytes" }));
api.requestCapabilities(CAPABILITIES);
api.on("ready", () => (window.widgetReady = true));
api.start();

window.runFromWidget = async () => {
  const outcomes = await runScenarios((action, data) => api.transport.send(action, data));
  const highLevel: Record<string, unknown> = {};
  const creds = await api.requestOpenIdConnectToken();
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
