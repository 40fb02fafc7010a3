/**
 * The calls view model of a signed-in client: one per ClientViewModel (a
 * WeakMap, so StrictMode's double render reaches the same instance), with
 * the browser's side: desktop notifications while the tab is hidden
 * (through the app's notifier, which clicks through to the room), and
 * the room list's selection for "return to call".
 */
import { t } from "../../i18n/i18n";
import type { ClientViewModel } from "../ClientViewModel";
import { notifierOf } from "../notifications/notifier";
import { CallsViewModel } from "./CallsViewModel";
import type { CallsHost } from "./CallsViewModel";

const models = new WeakMap<ClientViewModel, CallsViewModel>();

function browserHost(client: ClientViewModel): CallsHost {
  return {
    openRoom: (roomId) => client.roomList.select(roomId),
    notify(call) {
      // Only while the tab is hidden: otherwise the toast and the ringtone are on screen.
      if (typeof document === "undefined" || document.visibilityState === "visible") return;
      notifierOf(client).announce({
        roomId: call.roomId,
        eventId: call.id,
        title: t("calls", "notificationTitle", { name: call.callerName }),
        body: t("calls", call.video ? "incomingVideo" : "incomingVoice"),
        sound: false,
      });
    },
  };
}

/** The calls view model of `client`, made on first use and ended with it. */
export function callsOf(client: ClientViewModel): CallsViewModel {
  let vm = models.get(client);
  if (vm === undefined) {
    vm = new CallsViewModel(client.client, client.callSettings, client.mediaPlatform, browserHost(client));
    const made = vm;
    client.onDispose(() => made.dispose());
    models.set(client, vm);
  }
  return vm;
}
