/**
 * Where the page parses remote HTML: DOMPurify bound to a hidden, sandboxed
 * (no scripts), same-origin blank frame (public/parser-frame.html, served
 * without a CSP). Chromium checks the page's CSP while it parses markup,
 * even into inert documents, so parsing hostile HTML in the page itself
 * would file a CSP violation for every blocked event handler; parsing in
 * the frame keeps the page's violation reports for real attacks. The parse
 * is inert either way (DOMParser documents run nothing), and the output is
 * never inserted as HTML: htmlToReact rebuilds it from the allowlist.
 * Until the frame has loaded (or if it cannot), there is a fallback to the
 * page's own window after a short wait. DOMPurify itself is loaded lazily,
 * when the first formatted message subscribes to `pageSanitiser`, so it is
 * not part of the first screen's JavaScript. The app creates the frame when
 * the page is first idle (`startParserFrameWhenIdle`: adding it costs the
 * start about 13 ms before the room list shows), or at once when a
 * formatted message needs the sanitiser first.
 */
import { ObservableValue } from "../../../state/observables";
import type { ReadonlyObservable } from "../../../state/observables";
import type { Sanitiser } from "./sanitise";

/** The blank page the frame loads (in public/, so it is served as is). */
const PARSER_FRAME_FILE = "parser-frame.html";
/** How long to wait for the frame before parsing in the page. */
const PARSER_FRAME_TIMEOUT_MS = 3_000;

const sanitiser = new ObservableValue<Sanitiser | null>(null);
let started = false;
/** The window to parse in, once known: the frame's, or the page's after the wait. */
let parseWindow: (Window & typeof globalThis) | null = null;
/** Whether someone needs the sanitiser (the first subscriber loads DOMPurify). */
let wanted = false;
let loading: Promise<void> | null = null;
/** The app's base, when the frame's creation waits for an idle moment. */
let deferredBase: string | null = null;

/** How long the frame may wait for an idle moment. */
const IDLE_TIMEOUT_MS = 2_000;

/** Builds the sanitiser once both the window and a subscriber are there. */
function maybeCreate(): void {
  if (!wanted || parseWindow === null || loading !== null) return;
  const win = parseWindow;
  loading = import("./sanitise").then(
    ({ createSanitiser }) => {
      try {
        sanitiser.set(createSanitiser(win));
      } catch {
        // Not same-origin after all (a misconfigured server): parse in the page.
        sanitiser.set(createSanitiser(window));
      }
    },
    () => {
      // The chunk failed to load (offline): the next subscriber tries again.
      loading = null;
    },
  );
}

/** The page's sanitiser, null until the parser frame is ready and DOMPurify loaded. */
export const pageSanitiser: ReadonlyObservable<Sanitiser | null> = {
  getSnapshot: () => sanitiser.getSnapshot(),
  subscribe: (listener) => {
    wanted = true;
    if (!started && deferredBase !== null) startParserFrame(deferredBase);
    maybeCreate();
    return sanitiser.subscribe(listener);
  },
};

/** Creates the parser frame (once); `baseUrl` is the app's base (import.meta.env.BASE_URL). */
export function startParserFrame(baseUrl: string): void {
  if (started) return;
  started = true;
  const frame = document.createElement("iframe");
  frame.src = `${baseUrl}${PARSER_FRAME_FILE}`;
  // No allow-scripts: nothing can ever run in the frame; same origin so the page can use its DOMParser.
  frame.setAttribute("sandbox", "allow-same-origin");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.title = "HTML parser";
  frame.style.display = "none";
  const fallback = window.setTimeout(() => {
    parseWindow ??= window;
    maybeCreate();
  }, PARSER_FRAME_TIMEOUT_MS);
  frame.addEventListener("load", () => {
    const win = frame.contentWindow;
    if (win === null || parseWindow !== null) return;
    try {
      // Reading the frame's document throws when it is not same-origin: the timer then falls back to the page.
      void win.document;
      parseWindow = win as unknown as Window & typeof globalThis;
      window.clearTimeout(fallback);
      maybeCreate();
    } catch {
      // Not same-origin after all (a misconfigured server): the timer falls back to the page.
    }
  });
  document.body.appendChild(frame);
}

/** Creates the parser frame when the page is next idle (at most IDLE_TIMEOUT_MS later), or when first needed. */
export function startParserFrameWhenIdle(baseUrl: string): void {
  deferredBase = baseUrl;
  const start = (): void => startParserFrame(baseUrl);
  const idle = (window as { requestIdleCallback?: (cb: () => void, options: { timeout: number }) => number })
    .requestIdleCallback;
  if (typeof idle === "function") idle.call(window, start, { timeout: IDLE_TIMEOUT_MS });
  else window.setTimeout(start, IDLE_TIMEOUT_MS / 4);
}
