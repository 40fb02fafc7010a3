/**
 * Entry point of the web app: mounts the root component. The app itself grows
 * in later issues; this placeholder shows which homeserver the app targets.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
