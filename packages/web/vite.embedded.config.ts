/**
 * Vite configuration of the embedded page (embedded.html, src/embedded):
 * Lattice inside a host application as a widget. Its own build, so that
 * it shares no chunk with the app's page, and four swaps keep it small:
 * `i18next` resolves to src/i18n/tiny.ts (the part of its API the app
 * uses); `@tanstack/react-virtual` to src/embedded/virtual.ts (the
 * timeline's windowed list, the part of its API Timeline.tsx uses);
 * i18n.ts's English catalogue to src/embedded/locales.ts (the namespaces
 * the page shows before its view; each view adds its own); the composer's
 * sticker button to src/embedded/noStickers.ts (none: the page has no
 * account widgets). `npm run build` writes it into the app's dist/ after
 * the app (emptyOutDir off).
 *
 * It ships on Preact: react and react-dom resolve to preact/compat
 * (subpaths included), about 55 KB gzip less than React DOM; the app's
 * own page stays on React. Why that is safe, and what it relies on:
 * docs/architecture/0034-embedded-client.md. LATTICE_EMBEDDED_REACT=1
 * builds and serves the page on React instead, to compare (bench/web).
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { Plugin } from "vite";
import { cspPlugin, sharedConfig } from "./vite.config";

// preact/compat's folder, found from this package (npm may install Preact under packages/web/node_modules,
// where React's importers in the root node_modules would not find it by name).
const preact = process.env["LATTICE_EMBEDDED_REACT"] !== "1";
const preactCompat = dirname(createRequire(import.meta.url).resolve("preact/compat/package.json"));

const src = (path: string): string => fileURLToPath(new URL(`src/${path}`, import.meta.url));

/**
 * i18n.ts's catalogue import, answered with the embedded page's namespaces; the composer's sticker
 * button, with none (it shows only with the app's account widgets, which the page has not: the host
 * owns its stickers), so the page carries no widget definition code.
 */
function embeddedSwaps(): Plugin {
  return {
    name: "lattice-embedded-swaps",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "./locales/en" && importer?.endsWith("/src/i18n/i18n.ts"))
        return src("embedded/locales.ts");
      if (
        source === "../widgets/StickerButton" &&
        importer?.endsWith("/src/features/composer/RoomComposer.tsx")
      )
        return src("embedded/noStickers.ts");
      return null;
    },
  };
}

export default defineConfig({
  ...sharedConfig,
  plugins: [cspPlugin(), embeddedSwaps()],
  resolve: {
    alias: {
      i18next: src("i18n/tiny.ts"),
      "@tanstack/react-virtual": src("embedded/virtual.ts"),
      ...(preact ? { react: preactCompat, "react-dom": preactCompat } : {}),
    },
  },
  optimizeDeps: {
    ...sharedConfig.optimizeDeps,
    include: [
      ...(sharedConfig.optimizeDeps?.include ?? []),
      ...(preact
        ? [
            "preact",
            "preact/compat",
            "preact/compat/client",
            "preact/compat/jsx-runtime",
            "preact/compat/jsx-dev-runtime",
            "preact/hooks",
          ]
        : []),
    ],
  },
  build: {
    emptyOutDir: false,
    rollupOptions: {
      input: { embedded: fileURLToPath(new URL("embedded.html", import.meta.url)) },
    },
  },
});
