/**
 * The iframe policy of every widget frame, in one place (docs/architecture/
 * 0031-widget-host.md): a tight sandbox (scripts, its own origin so it can
 * keep its storage, forms, popups that leave the sandbox, downloads; no
 * top navigation, no modals, no pointer lock), camera, microphone and
 * screen capture delegated only to call widgets, and no Referer (the room
 * URL in the app's address never reaches the widget's server).
 */

/** The sandbox tokens of a widget frame. */
export const WIDGET_SANDBOX =
  "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads";

/** The permissions policy a call widget (m.call, jitsi) gets; every other widget gets none. */
const CALL_WIDGET_ALLOW = "camera; microphone; display-capture";

/** What other widgets get: the same features, denied outright (even to a same-origin page). */
const NO_MEDIA_ALLOW = "camera 'none'; microphone 'none'; display-capture 'none'";

/** The `allow` attribute of a widget frame. */
export function allowOf(isCall: boolean): string {
  return isCall ? CALL_WIDGET_ALLOW : NO_MEDIA_ALLOW;
}
