/** A frame that pretends to be the widget: same widget id, but not the widget's iframe. */
import { WIDGET_ID } from "./scenarios";

const replies: unknown[] = [];
window.addEventListener("message", (ev) => replies.push(ev.data));
(window as unknown as { evilReplies: unknown[] }).evilReplies = replies;
for (const action of ["supported_api_versions", "set_always_on_screen", "get_openid"]) {
  window.parent.postMessage(
    { api: "fromWidget", widgetId: WIDGET_ID, requestId: `evil-${action}`, action, data: { value: true } },
    "*",
  );
}
