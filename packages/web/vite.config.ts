/**
 * Vite configuration for the Lattice web app. JSX is compiled by Vite's own
 * transformer (automatic runtime), so no React plugin is needed. Every HTML
 * page served or built gets the Content-Security-Policy meta tag (csp.ts):
 * strict in the build, with inline styles allowed only by the dev server.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { Plugin } from "vite";
import { contentSecurityPolicy } from "./csp";
import { elementCallPlugin } from "./elementCallHosting";

function cspPlugin(): Plugin {
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

export default defineConfig({
  server: {
    host: "127.0.0.1",
    strictPort: true,
    // Browser tests run in a working tree others edit: without a watcher a saved file cannot reload the page mid-test.
    ...(process.env["LATTICE_E2E_NO_WATCH"] === "1" ? { hmr: false, watch: null } : {}),
  },
  preview: { host: "127.0.0.1", strictPort: true },
  oxc: { jsx: { runtime: "automatic" } },
  plugins: [cspPlugin(), elementCallPlugin()],
  // The crypto engine finds its .wasm beside its module (new URL(..., import.meta.url)):
  // pre-bundling would move the module away from the file, so the dev server serves it as is.
  // The build emits the .wasm as an asset of the lazily loaded crypto chunk.
  // Lazily imported dependencies are pre-bundled up front, so their first dynamic import cannot make the dev server reload the page.
  // Two pages: the app (index.html) and the embedded widget (embedded.html, src/embedded), each with its own chunks.
  build: {
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL("index.html", import.meta.url)),
        embedded: fileURLToPath(new URL("embedded.html", import.meta.url)),
      },
    },
  },
  optimizeDeps: {
    exclude: ["@matrix-org/matrix-sdk-crypto-wasm"],
    include: ["marked", "blurhash", "oauth4webapi"],
  },
});
