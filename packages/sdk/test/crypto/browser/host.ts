/**
 * Hosting a bundled test page in Debian's Chromium: Vite bundles one entry
 * (the SDK source and the crypto engine's WebAssembly with it) into a
 * temporary folder, a loopback HTTP server serves it, and playwright-core
 * launches /usr/bin/chromium with the team's flags (never a downloaded
 * browser). One host per test file; `close` removes everything.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
import { build } from "vite";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".html": "text/html",
};

export interface PageHost {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Bundles `entry`, serves it at `url` (index.html loads it as a module) and launches Chromium. */
export async function hostPage(entry: string): Promise<PageHost> {
  const dir = await mkdtemp(join(tmpdir(), "lattice-crypto-page-"));
  await build({
    configFile: false,
    logLevel: "error",
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      // Keep the engine's WebAssembly a file of its own rather than inlined base64.
      assetsInlineLimit: 0,
      rollupOptions: { input: entry, output: { entryFileNames: "page.js", format: "es" } },
    },
  });
  const files = new Map<string, Buffer>();
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, name);
    if (extname(path) !== "") files.set(`/${name}`, await readFile(path));
  }
  files.set("/", Buffer.from(`<!doctype html><script type="module" src="/page.js"></script>`));
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[extname(path)] ?? "text/html" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return {
    url: `http://127.0.0.1:${address.port}/`,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
