/**
 * The browser tests' widget origin: the third-party widget page (built on
 * matrix-widget-api, widget-page.ts) and the hostile frame (hostile-page.ts),
 * bundled with esbuild into a temporary folder and served from a second
 * loopback port, so the widget runs at an origin other than the app's.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { build } from "esbuild";

const page = (title: string, script: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;background:#fff;color:#111}</style></head>
<body><h1>${title}</h1><p id="status">starting</p><p id="referrer"></p>
<script>document.getElementById("referrer").textContent = "referrer:" + document.referrer;</script>
<script type="module" src="/${script}"></script></body></html>`;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

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
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/+/, "");
    if (path.includes("..") || path === "") {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, path)).then(
      (body) =>
        res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
