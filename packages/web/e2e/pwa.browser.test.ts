/**
 * The installable app: the production build served by `vite preview`
 * links a manifest whose icons load, registers its service worker, and
 * Chromium reports no installability error. The worker precaches the shell
 * (the page and its /assets/ files), never caches a Matrix API path, and
 * the page starts from the cache when the browser is offline. (The dev
 * server registers no worker: registration is compiled out there.)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { build, preview } from "vite";
import type { PreviewServer } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./browser";

const root = new URL("..", import.meta.url).pathname;
let outDir: string;
let web: PreviewServer;
let url: string;
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "lattice-pwa-build-"));
  process.env["VITE_LATTICE_HOMESERVER"] ??= "http://127.0.0.1:65500";
  const configFile = join(root, "vite.config.ts");
  // A production build as `npm run build` makes it (vitest runs with NODE_ENV=test, which keeps
  // import.meta.env.PROD false and would compile the worker registration out).
  const nodeEnv = process.env["NODE_ENV"];
  process.env["NODE_ENV"] = "production";
  try {
    await build({
      root,
      configFile,
      logLevel: "error",
      mode: "production",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env["NODE_ENV"] = nodeEnv;
  }
  web = await preview({
    root,
    configFile,
    logLevel: "error",
    build: { outDir },
    preview: { port: 0, host: "127.0.0.1", strictPort: false },
  });
  const address = web.httpServer.address();
  if (address === null || typeof address === "string") throw new Error("preview did not listen");
  url = `http://127.0.0.1:${address.port}/`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (web ? web.httpServer.close(() => resolve()) : resolve()));
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

it("is installable, precaches the shell, skips the API and starts offline", async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.goto(url);

  // The manifest and every icon it names load.
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  const manifest = (await (await fetch(new URL(href ?? "", url))).json()) as {
    name: string;
    display: string;
    icons: Array<{ src: string; sizes: string; type: string }>;
  };
  expect(manifest.name).toBe("Lattice");
  expect(manifest.display).toBe("standalone");
  expect(manifest.icons.some((i) => i.sizes === "512x512" && i.type === "image/png")).toBe(true);
  for (const icon of manifest.icons) {
    const res = await fetch(new URL(icon.src, url));
    expect(res.ok, icon.src).toBe(true);
    expect(res.headers.get("content-type") ?? "").toMatch(/^image\//);
  }

  // The worker registers and activates.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(url);
  const cdp = await context.newCDPSession(page);
  // A Playwright context is incognito, where Chromium never installs; every other check must pass.
  const installErrors = async (): Promise<string[]> =>
    (
      (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: Array<{ errorId: string }> }
    ).installabilityErrors
      .map((e) => e.errorId)
      .filter((id) => id !== "in-incognito");
  await expect.poll(installErrors, { timeout: 20_000 }).toEqual([]);

  // Precached shell: the page and its assets; a same-origin API path is never stored.
  await page.reload();
  await page.evaluate(() => fetch("/_matrix/client/versions").catch(() => undefined));
  const cached = await page.evaluate(async () => {
    const out: string[] = [];
    for (const key of await caches.keys()) {
      const cache = await caches.open(key);
      for (const req of await cache.keys()) out.push(new URL(req.url).pathname);
    }
    return out;
  });
  expect(cached).toContain("/");
  expect(cached.some((p) => p.startsWith("/assets/") && p.endsWith(".js"))).toBe(true);
  expect(cached.some((p) => p.startsWith("/_matrix/"))).toBe(false);

  // Offline: the shell still starts (the sign-in screen renders from cache).
  await context.setOffline(true);
  await page.reload();
  await page.locator("#root *").first().waitFor({ timeout: 20_000 });
  await context.setOffline(false);
  await context.close();
}, 90_000);
