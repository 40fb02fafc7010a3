/**
 * Entry point of the web app: builds the AppViewModel over the browser's
 * storage, IndexedDB and location, mounts the root component and starts
 * the app (session restore). The default homeserver comes from
 * VITE_LATTICE_HOMESERVER (npm start points it at the demo server). The
 * bundled colour emoji font is declared here and fetched by the browser
 * only when an emoji first shows.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { installEmojiFont } from "./platform/emojiFont";
import { startParserFrameWhenIdle } from "./features/timeline/html/parserFrame";
import { AppViewModel } from "./state/AppViewModel";
import { applyStoredAppearance } from "./state/settings/Appearance";
import "./styles/global.css";

const env = import.meta.env as Record<string, string | undefined>;
const app = new AppViewModel({
  storage: window.localStorage,
  tabStorage: window.sessionStorage,
  defaultHomeserver: env["VITE_LATTICE_HOMESERVER"] ?? "matrix.org",
  currentUrl: window.location.href,
  replaceUrl: (url) => window.history.replaceState(null, "", url),
  navigate: (url) => window.location.assign(url),
  indexedDB: window.indexedDB,
  themeRoot: document.documentElement,
  platformScope: window,
});

// The stored font size and layout before the first render, so the first paint is already in them.
applyStoredAppearance({ storage: window.localStorage, root: document.documentElement });
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App app={app} />
    </StrictMode>,
  );
}
startParserFrameWhenIdle(import.meta.env.BASE_URL);
installEmojiFont(document.fonts);
void app.start();
