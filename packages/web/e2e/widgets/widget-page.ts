/**
 * A third-party widget for the browser tests, built on the real
 * matrix-widget-api WidgetApi (bundled by widget-server.ts and served from
 * its own loopback origin). It asks for: sending and reading m.room.message,
 * sending `org.example.unticked` (the test unticks it), and
 * m.always_on_screen; it can open a modal widget (open_modal) and records
 * what comes back (close_modal). `window.widget` lets the test drive it; every answer
 * and error is returned as plain data so the test can assert the host's
 * literal messages.
 */
import { MatrixCapabilities, ModalButtonKind, WidgetApi } from "matrix-widget-api";
import type { IWidgetApiRequest } from "matrix-widget-api";

const params = new URLSearchParams(location.search);
const api = new WidgetApi(params.get("widgetId"), params.get("clientOrigin"));
api.requestCapabilityToSendEvent("m.room.message");
api.requestCapabilityToReceiveEvent("m.room.message");
api.requestCapabilityToSendEvent("org.example.unticked");
api.requestCapability(MatrixCapabilities.AlwaysOnScreen);

interface Outcome {
  ok: boolean;
  value?: unknown;
  error?: string;
}

const status = document.getElementById("status");
const state = {
  ready: false,
  approved: [] as string[],
  live: [] as string[],
  modalClosed: [] as Array<Record<string, unknown>>,
};

api.on("ready", () => {
  state.ready = true;
  if (status) status.textContent = "ready";
});
api.on("action:notify_capabilities", (ev: CustomEvent<{ data: { approved?: string[] } }>) => {
  state.approved = ev.detail.data.approved ?? [];
});
// The modal it opened was closed: the data comes back (the close button sends none of its own).
api.on("action:close_modal", (ev: CustomEvent<IWidgetApiRequest & { data: Record<string, unknown> }>) => {
  ev.preventDefault();
  api.transport.reply(ev.detail, {});
  state.modalClosed.push({ ...ev.detail.data });
});
api.on(
  "action:send_event",
  (ev: CustomEvent<IWidgetApiRequest & { data: { content?: { body?: unknown } } }>) => {
    // Live events the host pushes: answered, as the widget API wants every to-widget request answered.
    ev.preventDefault();
    api.transport.reply(ev.detail, {});
    const body = ev.detail.data.content?.body;
    if (typeof body === "string") state.live.push(body);
  },
);
api.start();

async function outcome(fn: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    const err = e as { message?: unknown; response?: { error?: { message?: unknown } } };
    const message = err.response?.error?.message ?? err.message;
    return { ok: false, error: typeof message === "string" ? message : JSON.stringify(e) };
  }
}

const widget = {
  state,
  send: (body: string) => outcome(() => api.sendRoomEvent("m.room.message", { msgtype: "m.text", body })),
  sendUnticked: () => outcome(() => api.sendRoomEvent("org.example.unticked", { hello: true })),
  read: () =>
    outcome(async () =>
      (await api.readRoomEvents("m.room.message", 20)).map((e) => (e.content as { body?: string }).body),
    ),
  openId: () => outcome(() => api.requestOpenIDConnectToken()),
  alwaysOnScreen: (on: boolean) => outcome(() => api.setAlwaysOnScreen(on)),
  /** open_modal for the modal page with all five button kinds. */
  openModal: (url: string) =>
    outcome(() =>
      api.openModalWidget(
        url,
        "Pick one",
        [
          { id: "ok", label: "Choose", kind: ModalButtonKind.Primary },
          { id: "later", label: "Later", kind: ModalButtonKind.Secondary },
          { id: "careful", label: "Careful", kind: ModalButtonKind.Warning },
          { id: "nope", label: "Delete", kind: ModalButtonKind.Danger },
          { id: "more", label: "Learn more", kind: ModalButtonKind.Link },
        ],
        { question: "which?" },
      ),
    ),
};
(window as unknown as { widget: typeof widget }).widget = widget;
