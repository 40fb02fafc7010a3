/**
 * The browser notifier of a signed-in client: one NotificationsViewModel
 * per ClientViewModel (a WeakMap, so StrictMode's double render reaches the
 * same instance), over `window`, following the room list's selection.
 */
import type { ClientViewModel } from "../ClientViewModel";
import { Scope } from "../Scope";
import { NotificationsViewModel, playChime } from "./NotificationsViewModel";
import type { NotificationHost } from "./NotificationsViewModel";

const notifiers = new WeakMap<ClientViewModel, NotificationsViewModel>();

/** The browser's side (window, document) of notifications. */
function browserHost(): NotificationHost {
  const w = globalThis as unknown as Window & { Notification?: NotificationHost["Notification"] };
  return {
    ...(w.Notification !== undefined ? { Notification: w.Notification } : {}),
    hasFocus: () => document.visibilityState === "visible" && document.hasFocus(),
    focus: () => w.focus(),
    playTone: playChime,
  };
}

/** The notifier of `client`, made on first use. */
export function notifierOf(client: ClientViewModel): NotificationsViewModel {
  let vm = notifiers.get(client);
  if (vm === undefined) {
    vm = new NotificationsViewModel(
      {
        client: client.client,
        host: browserHost(),
        selectedRoom: () => client.roomList.selected.getSnapshot(),
        openRoom: (roomId) => client.roomList.select(roomId),
      },
      new Scope(),
    );
    notifiers.set(client, vm);
  }
  return vm;
}
