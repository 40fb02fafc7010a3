/**
 * The Element Call of a signed-in client: one ElementCalls per
 * ClientViewModel (a WeakMap, so StrictMode's double render reaches the same
 * instance), wired to the browser: Element Call's URL (the configured second
 * origin, else under the app's own base; see elementCallHosting.ts), the page as parent,
 * the app's theme, language and font size, and the widget host over the
 * SDK client (ElementCallHost.ts). Guests and sessions without a device
 * get none: Element Call needs a device for its keys.
 */
import { i18n } from "../../i18n/i18n";
import type { RtcService } from "../../sdk";
import type { ClientViewModel } from "../ClientViewModel";
import { lazyElementCallHostFactory } from "./lazyElementCallHost";
import type { ElementCallTheme } from "./ElementCallParams";
import { ELEMENT_CALL_BASE_PATH } from "./ElementCallParams";
import { ElementCalls } from "./ElementCalls";

const models = new WeakMap<ClientViewModel, ElementCalls | null>();

/** The app's theme as Element Call names it: the chosen one, else the system's. */
export function currentElementCallTheme(): ElementCallTheme {
  const chosen = document.documentElement.getAttribute("data-theme");
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches === true ? "dark" : "light";
}

function fontScale(): number {
  const px = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(px) && px > 0 ? Math.round((px / 16) * 100) / 100 : 1;
}

/**
 * Where Element Call's index.html lives: VITE_LATTICE_ELEMENT_CALL_URL (its folder on another
 * origin, so the frame's sandbox confines it from the app; the dev server sets it to a second
 * port), else the app's own `element-call/`.
 */
function elementCallBaseHref(): string {
  const configured = (import.meta.env as Record<string, string | undefined>)["VITE_LATTICE_ELEMENT_CALL_URL"];
  if (configured) return new URL(configured, window.location.href).href;
  return new URL(`${import.meta.env.BASE_URL}${ELEMENT_CALL_BASE_PATH}`, window.location.href).href;
}

/** The client's Element Call, made on first use and ended with it; null where it cannot run. */
export function elementCallsOf(client: ClientViewModel): ElementCalls | null {
  if (models.has(client)) return models.get(client) ?? null;
  const sdk = client.client;
  const deviceId = sdk.deviceId;
  const homeserverUrl = client.homeserverUrl;
  if (
    typeof window === "undefined" ||
    client.isGuest ||
    deviceId === undefined ||
    homeserverUrl === undefined
  ) {
    models.set(client, null);
    return null;
  }
  // The SDK loads MatrixRTC off the first screen (ADR 0038); until it has, no call is known to run.
  let rtc: RtcService | undefined;
  void sdk.rtc().then(
    (service) => (rtc = service),
    () => undefined,
  );
  const calls = new ElementCalls({
    userId: client.userId,
    deviceId,
    homeserverUrl,
    settings: client.callSettings,
    callRunning: (roomId) => rtc?.active.getSnapshot().has(roomId) ?? false,
    roomName: (roomId) => sdk.rooms.find(roomId)?.getSnapshot().name.name ?? roomId,
    hostFactory: lazyElementCallHostFactory(sdk),
    // A host may frame another call widget page in Element Call's place (Lattice's embedded call view).
    baseHref: () => client.callSettings.current.callWidgetUrl ?? elementCallBaseHref(),
    parentUrl: () => window.location.href,
    theme: currentElementCallTheme,
    lang: () => i18n.language || "en",
    fontScale,
  });
  client.onDispose(() => calls.dispose());
  models.set(client, calls);
  return calls;
}
