/**
 * The calls view model of a signed-in client: one per ClientViewModel (a
 * WeakMap, so StrictMode's double render reaches the same instance), with
 * the browser's side: desktop notifications while the tab is hidden, and
 * the room list's selection for "return to call".
 */
import { t } from "../../i18n/i18n";
import type { ClientViewModel } from "../ClientViewModel";
import { CallsViewModel } from "./CallsViewModel";
import type { CallsHost } from "./CallsViewModel";

const models = new WeakMap<ClientViewModel, CallsViewModel>();

function browserHost(client: ClientViewModel): CallsHost {
  return {
    openRoom: (roomId) => client.roomList.select(roomId),
    notify(title, _body, onClick) {
      const N = (globalThis as { Notification?: typeof Notification }).Notification;
      if (N === undefined || N.permission !== "granted" || document.visibilityState === "visible") return;
      try {
        const n = new N(t("calls", "notificationTitle", { name: title }), {
          body: t("calls", "notificationBody"),
          tag: "lattice-call",
          requireInteraction: true,
        });
        n.onclick = () => {
          window.focus();
          onClick();
          n.close();
        };
      } catch {
        // Some browsers only show notifications from a service worker: the toast and ringtone remain.
      }
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
