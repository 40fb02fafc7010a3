/**
 * Vite configuration of the embedded page (embedded.html, src/embedded):
 * Lattice inside a host application as a widget. Its own build, so that
 * it shares no chunk with the app's page and can swap React for Preact's
 * compatibility layer (react and react-dom resolve to preact/compat,
 * subpaths included: react/jsx-runtime, react-dom/client): React DOM alone
 * would be about half of the page's budget (docs/architecture
 * 0034-embedded-client.md, bench/web/embedded.ts). Only this page is
 * built and served on Preact; the app stays on React. Two more swaps
 * keep the page small: `i18next` resolves to src/i18n/tiny.ts (the part
 * of its API the app uses), and i18n.ts's English catalogue to
 * src/embedded/locales.ts (the namespaces the page shows). `npm run build`
 * writes it into the app's dist/ after the app (emptyOutDir off).
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { Plugin } from "vite";
import { cspPlugin, sharedConfig } from "./vite.config";

// preact/compat's folder, found from this package (npm may install Preact under packages/web/node_modules,
// where React's importers in the root node_modules would not find it by name).
const preactCompat = dirname(createRequire(import.meta.url).resolve("preact/compat/package.json"));

const src = (path: string): string => fileURLToPath(new URL(`src/${path}`, import.meta.url));

/** i18n.ts's catalogue import, answered with the embedded page's namespaces. */
function embeddedLocales(): Plugin {
  return {
    name: "lattice-embedded-locales",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "./locales/en" && importer?.endsWith("/src/i18n/i18n.ts"))
        return src("embedded/locales.ts");
      return null;
    },
  };
}

export default defineConfig({
  ...sharedConfig,
  plugins: [cspPlugin(), embeddedLocales()],
  resolve: {
    alias: { react: preactCompat, "react-dom": preactCompat, i18next: src("i18n/tiny.ts") },
  },
  optimizeDeps: {
    ...sharedConfig.optimizeDeps,
    include: [
      ...(sharedConfig.optimizeDeps?.include ?? []),
      "preact",
      "preact/compat",
      "preact/compat/client",
      "preact/compat/jsx-runtime",
      "preact/compat/jsx-dev-runtime",
      "preact/hooks",
    ],
  },
  build: {
    emptyOutDir: false,
    rollupOptions: {
      input: { embedded: fileURLToPath(new URL("embedded.html", import.meta.url)) },
    },
  },
});
