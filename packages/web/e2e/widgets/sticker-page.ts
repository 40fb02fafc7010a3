/**
 * A sticker picker for the browser tests (real matrix-widget-api WidgetApi,
 * served from the widget origin), set up as the account's m.stickerpicker
 * widget. It asks for the m.sticker capability; clicking its one sticker
 * sends it (the host turns it into an m.sticker event in the open room).
 * The sticker's mxc URI comes from the page's query (the test uploads it).
 */
import { MatrixCapabilities, WidgetApi } from "matrix-widget-api";

const params = new URLSearchParams(location.search);
const api = new WidgetApi(params.get("widgetId"), params.get("clientOrigin"));
api.requestCapability(MatrixCapabilities.StickerSending);

const status = document.getElementById("status");
const state = { ready: false, sent: 0, error: "" };
api.on("ready", () => {
  state.ready = true;
  if (status) status.textContent = "ready";
});
api.start();

const button = document.createElement("button");
button.type = "button";
button.textContent = "Send the cat sticker";
button.addEventListener("click", () => {
  api
    .sendSticker({
      name: "Cat",
      description: "A cat sticker",
      content: {
        url: params.get("mxc") ?? "",
        info: { w: 64, h: 64, mimetype: "image/png", size: Number(params.get("size") ?? 0) },
      },
    })
    .then(
      () => void state.sent++,
      (e: unknown) => {
        state.error = e instanceof Error ? e.message : JSON.stringify(e);
      },
    );
});
document.body.appendChild(button);
(window as unknown as { sticker: typeof state }).sticker = state;
