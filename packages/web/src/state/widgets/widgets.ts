/**
 * The widget host of a signed-in client, made once per ClientViewModel (a
 * WeakMap, so StrictMode's double render reaches the same instance) and
 * ended with it: the registry of running widgets (WidgetRegistry), the
 * user's remembered consent (WidgetConsent, in localStorage), the factory
 * that starts a WidgetSession for a widget, and one RoomWidgetsViewModel
 * per open room view, ended with the room's scope.
 */
import type { ClientViewModel } from "../ClientViewModel";
import type { RoomViewModel } from "../RoomViewModel";
import { RoomWidgetsViewModel } from "./RoomWidgetsViewModel";
import type { WidgetEnvironment } from "./RoomWidgetsViewModel";
import { WidgetConsent } from "./WidgetConsent";
import type { ConsentStorage } from "./WidgetConsent";
import { WidgetRegistry } from "./WidgetRegistry";
import { WidgetSession } from "./WidgetSession";
import { i18n } from "../../i18n/i18n";

/** The client id widgets see in `$org.matrix.msc2873.client_id`. */
export const WIDGET_CLIENT_ID = "org.lattice.web";

/** The widget host of one signed-in client. */
export interface AppWidgets {
  readonly registry: WidgetRegistry<WidgetSession>;
  readonly consent: WidgetConsent;
  readonly env: WidgetEnvironment;
}

function localStorageOrUndefined(): ConsentStorage | undefined {
  try {
    return (globalThis as { localStorage?: ConsentStorage }).localStorage;
  } catch {
    return undefined;
  }
}

/** "light" or "dark": the app's theme as the page shows it. */
function currentTheme(): string {
  if (typeof document === "undefined") return "light";
  const set = document.documentElement.getAttribute("data-theme");
  if (set === "light" || set === "dark") return set;
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

const hosts = new WeakMap<ClientViewModel, AppWidgets>();
const rooms = new WeakMap<RoomViewModel, RoomWidgetsViewModel>();

/** The widget host of `client`, made on first use and ended with it. */
export function widgetsOf(client: ClientViewModel): AppWidgets {
  let found = hosts.get(client);
  if (found !== undefined) return found;
  const consent = new WidgetConsent(localStorageOrUndefined(), client.userId);
  const registry = new WidgetRegistry<WidgetSession>(
    ({ roomId, widget, url }) =>
      new WidgetSession({
        client: client.client,
        roomId,
        // The frame loads the filled template; the session accepts only that url's origin.
        widget: { ...widget.definition, url },
        consent,
        options: {
          onNavigate: (uri) => {
            client.router.openLink(uri);
          },
          viewedRoomId: roomId,
        },
      }),
  );
  const env: WidgetEnvironment = {
    clientId: WIDGET_CLIENT_ID,
    theme: currentTheme,
    language: () => i18n.language || "en",
    baseUrl: client.homeserverUrl ?? "",
  };
  found = { registry, consent, env };
  // Every running widget hears which room the user views (SPEC §6: other rooms' events need a timeline capability).
  const viewed = (): string | null => client.room.getSnapshot()?.roomId ?? null;
  const tell = (): void => {
    for (const r of registry.running.getSnapshot()) r.session.setViewedRoom(viewed());
  };
  const stopRoom = client.room.subscribe(tell);
  const stopRunning = registry.running.subscribe(tell);
  client.onDispose(() => {
    stopRoom();
    stopRunning();
    registry.dispose();
  });
  hosts.set(client, found);
  return found;
}

/** The widgets view model of an open room, made once per room view model and ended with it. */
export function roomWidgetsOf(app: AppWidgets, room: RoomViewModel): RoomWidgetsViewModel {
  let vm = rooms.get(room);
  if (vm === undefined) {
    vm = new RoomWidgetsViewModel(room.client, room.room, app.registry, app.env, room.scope.child());
    rooms.set(room, vm);
  }
  return vm;
}
