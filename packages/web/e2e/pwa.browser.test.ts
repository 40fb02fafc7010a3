/**
 * The installable app: the production build served by `vite preview`
 * links a manifest whose icons load, registers its service worker, and
 * Chromium reports no installability error. The worker precaches the shell
 * (the page and its /assets/ files), never caches a Matrix API path, and
 * the page starts from the cache when the browser is offline. (The dev
 * server registers no worker: registration is compiled out there.)
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium, serveBuiltApp } from "./browser";
import type { BuiltApp } from "./browser";

let app: BuiltApp;
let url: string;
let browser: Browser;

beforeAll(async () => {
  // A production build as `npm run build` makes it, so the service worker registration is compiled in.
  const homeserver = process.env["VITE_LATTICE_HOMESERVER"] ?? "http://127.0.0.1:65500";
  [app, browser] = await Promise.all([serveBuiltApp({ homeserver, production: true }), launchChromium()]);
  url = app.url;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
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
