/**
 * Entry point of the embedded page (embedded.html): Lattice inside a host
 * application as a widget. It loads no sign-in, settings or room list:
 * only the embedded view model, the room view's timeline and composer,
 * and the call view.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { EmbeddedViewModel } from "../state/embedded/EmbeddedViewModel";
import { EmbeddedApp } from "./EmbeddedApp";
import "../styles/global.css";

/**
 * The page's localStorage, or none: framed by a host on another site, the browser may deny this
 * third-party document its storage, and reading `window.localStorage` then throws (the page
 * stayed blank). Without it the call preferences are this page's defaults.
 */
function pageStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const app = new EmbeddedViewModel({
  href: window.location.href,
  parent: window.parent,
  self: window,
  root: document.documentElement,
  storage: pageStorage(),
});
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <EmbeddedApp app={app} />
    </StrictMode>,
  );
}
// The view model on the window, for devtools and the browser tests (it holds no secret: the host has the token).
(window as unknown as { latticeEmbedded: EmbeddedViewModel }).latticeEmbedded = app;
void app.start();
