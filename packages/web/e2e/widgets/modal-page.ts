/**
 * A modal widget for the browser tests (real matrix-widget-api WidgetApi,
 * served from the widget origin): the page another widget asks the app to
 * open with open_modal. It records the buttons the user clicks; "ok" closes
 * it with data for the opener. `window.modal` lets the test try disabling
 * buttons (the close button must be refused) and read what it saw.
 */
import { WidgetApi } from "matrix-widget-api";
import type { IWidgetApiRequest } from "matrix-widget-api";

const params = new URLSearchParams(location.search);
const api = new WidgetApi(params.get("widgetId"), params.get("clientOrigin"));

const status = document.getElementById("status");
const state = { ready: false, clicked: [] as string[] };

api.on("ready", () => {
  state.ready = true;
  if (status) status.textContent = "ready";
});
api.on("action:button_clicked", (ev: CustomEvent<IWidgetApiRequest & { data: { id?: unknown } }>) => {
  ev.preventDefault();
  api.transport.reply(ev.detail, {});
  const id = String(ev.detail.data.id);
  state.clicked.push(id);
  if (id === "ok") void api.closeModalWidget({ choice: "ok" });
});
api.start();

async function outcome(fn: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await fn();
    return { ok: true };
  } catch (e) {
    const err = e as { message?: unknown; response?: { error?: { message?: unknown } } };
    const message = err.response?.error?.message ?? err.message;
    return { ok: false, error: typeof message === "string" ? message : JSON.stringify(e) };
  }
}

const modal = {
  state,
  setEnabled: (id: string, enabled: boolean) => outcome(() => api.setModalButtonEnabled(id, enabled)),
};
(window as unknown as { modal: typeof modal }).modal = modal;
