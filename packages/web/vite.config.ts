/**
 * Vite configuration for the Lattice web app. JSX is compiled by Vite's own
 * transformer (automatic runtime), so no React plugin is needed.
 */
import { defineConfig } from "vite";

export default defineConfig({
  server: { host: "127.0.0.1", strictPort: true },
  preview: { host: "127.0.0.1", strictPort: true },
  oxc: { jsx: { runtime: "automatic" } },
});
