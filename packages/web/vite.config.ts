/**
 * Vite configuration for the Lattice web app. JSX is compiled by Vite's own
 * transformer (automatic runtime), so no React plugin is needed. Every HTML
 * page served or built gets the Content-Security-Policy meta tag (csp.ts):
 * strict in the build, with inline styles allowed only by the dev server.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { Plugin, UserConfig } from "vite";
import { contentSecurityPolicy } from "./csp";
import { elementCallPlugin } from "./elementCallHosting";

/** The CSP meta tag on every page. */
export function cspPlugin(): Plugin {
  let dev = false;
  return {
    name: "lattice-csp",
    configResolved(config) {
      dev = config.command === "serve";
    },
    transformIndexHtml() {
      const policy = contentSecurityPolicy({ homeserver: process.env["VITE_LATTICE_HOMESERVER"], dev });
      return [
        {
          tag: "meta",
          attrs: { "http-equiv": "Content-Security-Policy", content: policy },
          injectTo: "head-prepend",
        },
      ];
    },
  };
}

/**
 * What both builds share (this app's, and the embedded page's in
 * vite.embedded.config.ts): the dev server, the JSX transform, the CSP and
 * the crypto engine's pre-bundling rule.
 */
export const sharedConfig: UserConfig = {
  server: {
    host: "127.0.0.1",
    strictPort: true,
    // Browser tests run in a working tree others edit: without a watcher a saved file cannot reload the page mid-test.
    ...(process.env["LATTICE_E2E_NO_WATCH"] === "1" ? { hmr: false, watch: null } : {}),
  },
  preview: { host: "127.0.0.1", strictPort: true },
  oxc: { jsx: { runtime: "automatic" } },
  // The crypto engine finds its .wasm beside its module (new URL(..., import.meta.url)):
  // pre-bundling would move the module away from the file, so the dev server serves it as is.
  // The build emits the .wasm as an asset of the lazily loaded crypto chunk.
  // Lazily imported dependencies are pre-bundled up front, so their first dynamic import cannot make the dev server reload the page.
  optimizeDeps: {
    exclude: ["@matrix-org/matrix-sdk-crypto-wasm"],
    include: ["marked", "blurhash", "oauth4webapi"],
  },
};

// The app's page only: the embedded page (embedded.html) is its own build, sharing no chunk with it
// (vite.embedded.config.ts; `npm run build` runs both into dist/). This dev server still serves
// embedded.html, with the whole i18next and catalogue, for a quick look.
export default defineConfig({
  ...sharedConfig,
  plugins: [cspPlugin(), elementCallPlugin()],
  build: {
    rollupOptions: {
      input: { main: fileURLToPath(new URL("index.html", import.meta.url)) },
    },
  },
});
