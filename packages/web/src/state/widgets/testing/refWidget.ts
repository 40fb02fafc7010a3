/**
 * The real matrix-widget-api WidgetApi as the widget side of a Node test.
 * It reads its windows from globals (globalThis.parent, and message
 * listeners on globalThis), so one reference widget runs at a time: start
 * installs the globals for its in-memory window pair, stop removes them.
 */
import { WidgetApi as RefWidgetApi } from "matrix-widget-api";
import type { IWidgetApiRequest } from "matrix-widget-api";
import type { MessageEventLike, PostTarget } from "@lattice/widget-api";
import type { FakeWindow } from "./harness";

type Globals = {
  parent?: unknown;
  addEventListener?: unknown;
  removeEventListener?: unknown;
};

/** Starts a reference widget in `win` (embedded under `parent`); returns it and its stop. */
export function startRefWidget(
  win: FakeWindow,
  parent: PostTarget,
  widgetId: string,
  clientOrigin: string,
  capabilities: string[],
): { widget: RefWidgetApi; stop: () => void } {
  const g = globalThis as Globals;
  const saved = {
    parent: g.parent,
    addEventListener: g.addEventListener,
    removeEventListener: g.removeEventListener,
  };
  g.parent = parent;
  g.addEventListener = (type: "message", l: (ev: MessageEventLike) => void) => win.addEventListener(type, l);
  g.removeEventListener = (type: "message", l: (ev: MessageEventLike) => void) =>
    win.removeEventListener(type, l);
  const widget = new RefWidgetApi(widgetId, clientOrigin);
  widget.requestCapabilities(capabilities);
  // Acknowledge the pushes a real widget would handle (events, to-device, state, TURN).
  for (const action of ["send_event", "send_to_device", "update_state", "update_turn_servers"]) {
    widget.on(`action:${action}`, (ev: CustomEvent<IWidgetApiRequest>) => {
      ev.preventDefault();
      widget.transport.reply(ev.detail, {});
    });
  }
  widget.start();
  return {
    widget,
    stop: () => {
      widget.transport.stop();
      Object.assign(g, saved);
    },
  };
}
