/**
 * OIDC sign-in in Chromium: the SDK bundled into a page on its own origin
 * discovers the provider through the test homeserver, registers, sends the
 * browser to the real provider (oidc-provider), where the test fills in the
 * login and consent pages, and finishes on the redirect back, with the
 * sign-in state kept in sessionStorage and every provider call made across
 * origins (CORS). The token then works at the homeserver.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOidcTestbed } from "@lattice/testserver/oidc";
import type { OidcTestbed } from "@lattice/testserver/oidc";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

let dir: string;
let http: Server;
let origin: string;
let browser: Browser;
let bed: OidcTestbed;

beforeAll(async () => {
  bed = await startOidcTestbed();
  bed.createUser("carol", "pa55word");
  dir = await mkdtemp(join(tmpdir(), "lattice-oidc-"));
  await build({
    configFile: false,
    logLevel: "error",
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      lib: {
        entry: new URL("./page/oidc-page.ts", import.meta.url).pathname,
        formats: ["es"],
        fileName: () => "page.js",
      },
    },
  });
  const script = await readFile(join(dir, "page.js"));
  await writeFile(join(dir, "index.html"), `<!doctype html><script type="module" src="/page.js"></script>`);
  const html = await readFile(join(dir, "index.html"));
  http = createServer((req, res) => {
    const isScript = req.url === "/page.js";
    res.writeHead(200, { "Content-Type": isScript ? "text/javascript" : "text/html" });
    res.end(isScript ? script : html);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  if (!address || typeof address === "string") throw new Error("no port");
  origin = `http://127.0.0.1:${address.port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
  await bed?.stop();
});

describe("OIDC sign-in in Chromium", () => {
  it("signs in through the provider's pages and calls the homeserver with the token", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => "startSignIn" in globalThis);
    const hs = bed.homeserver.url;
    const authorizeUrl = await page.evaluate(async (homeserverUrl) => {
      const g = globalThis as unknown as { startSignIn(hs: string): Promise<string> };
      return g.startSignIn(homeserverUrl);
    }, hs);
    expect(authorizeUrl.startsWith(bed.provider.issuer)).toBe(true);

    await page.goto(authorizeUrl);
    await page.fill('input[name="username"]', "carol");
    await page.fill('input[name="password"]', "pa55word");
    await page.click('button[type="submit"]');
    await page.click('text="Allow"');
    await page.waitForURL(`${origin}/callback?**`);
    await page.waitForFunction(() => "finishSignIn" in globalThis);
    const result = await page.evaluate(() => {
      const g = globalThis as unknown as { finishSignIn(): Promise<unknown> };
      return g.finishSignIn();
    });
    expect(result).toMatchObject({ userId: "@carol:localhost", refresh: true });
    expect((result as { deviceId: string }).deviceId).toMatch(/^[A-Za-z0-9]{10}$/);
    await context.close();
  });
});
