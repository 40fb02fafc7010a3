/**
 * The browser tests' widget origin: the third-party widget page (built on
 * matrix-widget-api, widget-page.ts), the modal widget it opens
 * (modal-page.ts), a sticker picker (sticker-page.ts) and the hostile frame
 * (hostile-page.ts),
 * bundled with esbuild into a temporary folder and served from a second
 * loopback port, so the widget runs at an origin other than the app's.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { serveFolder } from "../serve-folder";

const page = (title: string, script: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;background:#fff;color:#111}</style></head>
<body><h1>${title}</h1><p id="status">starting</p><p id="referrer"></p>
<script>document.getElementById("referrer").textContent = "referrer:" + document.referrer;</script>
<script type="module" src="/${script}"></script></body></html>`;

/** The served widget origin. */
export interface WidgetServer {
  /** The origin, with a trailing slash: `<url>widget.html`, `<url>hostile.html`. */
  url: string;
  close(): Promise<void>;
}

/** Bundles the widget pages and serves them on a free loopback port. */
export async function serveWidgetPages(): Promise<WidgetServer> {
  const dir = await mkdtemp(join(tmpdir(), "lattice-widgets-"));
  await build({
    entryPoints: {
      widget: new URL("./widget-page.ts", import.meta.url).pathname,
      hostile: new URL("./hostile-page.ts", import.meta.url).pathname,
      modal: new URL("./modal-page.ts", import.meta.url).pathname,
      sticker: new URL("./sticker-page.ts", import.meta.url).pathname,
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    outdir: dir,
    logLevel: "error",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  await writeFile(join(dir, "widget.html"), page("Echo widget", "widget.js"));
  await writeFile(join(dir, "hostile.html"), page("Hostile frame", "hostile.js"));
  await writeFile(join(dir, "modal.html"), page("Modal widget", "modal.js"));
  await writeFile(join(dir, "sticker.html"), page("Sticker picker", "sticker.js"));
  return serveFolder(dir);
}
