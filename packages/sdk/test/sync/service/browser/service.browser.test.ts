/**
 * The SyncService in Chromium against the test homeserver: real IndexedDB
 * (instant start after a reload: rooms and their latest events before the
 * network answers, the next sync from the stored token), the browser's
 * offline/online events reaching the loop, and page hide forcing a save.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, register, sendText, startServer } from "../helpers";
import type { TestServerHandle, TestUser } from "../helpers";
import type { PageApi, PageConfig } from "./service-page";

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
let pageServer: Server;
let url: string;
let browser: Browser;
let server: TestServerHandle;
let alice: TestUser;

beforeAll(async () => {
  server = await startServer(49);
  alice = await register(server, "alice");
  dir = await mkdtemp(join(tmpdir(), "lattice-sync-service-"));
  await build({
    configFile: false,
    logLevel: "error",
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      lib: {
        entry: new URL("./service-page.ts", import.meta.url).pathname,
        formats: ["es"],
        fileName: () => "page.js",
      },
    },
  });
  const html = `<!doctype html><script type="module" src="/page.js"></script>`;
  // The build writes page.js and the chunks the SDK loads on first use (e.g. the sync transport).
  const scripts = new Map<string, Buffer>();
  for (const file of await readdir(dir))
    if (file.endsWith(".js")) scripts.set(`/${file}`, await readFile(join(dir, file)));
  pageServer = createServer((req, res) => {
    const script = scripts.get(req.url ?? "");
    res.writeHead(200, { "Content-Type": script ? "text/javascript" : "text/html" });
    res.end(script ?? html);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  const address = pageServer.address();
  if (!address || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}/`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (pageServer ? pageServer.close(() => resolve()) : resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
  await server?.stop();
});

type Lattice = { lattice: PageApi };

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => "lattice" in globalThis);
}

async function lastState(page: Page, state: string): Promise<void> {
  await page.waitForFunction((s) => (globalThis as unknown as Lattice).lattice.states().at(-1) === s, state, {
    timeout: 10_000,
  });
}

describe("SyncService in Chromium", () => {
  it("starts instantly from IndexedDB after a reload, follows offline/online, and saves on page hide", async () => {
    const roomId = String((await call(server, alice, "POST", "/createRoom", { name: "Browser" }))["room_id"]);
    const latest = await sendText(server, alice, roomId, "before reload");
    const config: PageConfig = {
      baseUrl: server.url,
      accessToken: alice.accessToken,
      userId: alice.userId,
      dbName: "lattice-service-test",
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    await page.evaluate((c) => (globalThis as unknown as Lattice).lattice.start(c), config);
    await lastState(page, "syncing");
    await page.evaluate(() => (globalThis as unknown as Lattice).lattice.stop());

    await page.reload();
    await ready(page);
    server.faults.add({ path: "/sync", delayMs: 1_000, times: 1 });
    const report = await page.evaluate((c) => (globalThis as unknown as Lattice).lattice.start(c), config);
    expect(report.syncRequestsAnsweredAtStart).toBe(0);
    expect(report.liveBatchesAtStart).toBe(0);
    expect(report.cachedRooms[roomId]).toBe(latest);
    await lastState(page, "syncing");
    const queries = await page.evaluate(() => (globalThis as unknown as Lattice).lattice.syncQueries());
    expect(typeof queries[0]?.["since"]).toBe("string");
    const before = await page.evaluate(() => (globalThis as unknown as Lattice).lattice.liveEvents());
    expect(before).not.toContain(latest);

    // The browser goes offline: the long-poll is cut, the loop reconnects; back online, it syncs again.
    await context.setOffline(true);
    await lastState(page, "reconnecting");
    await context.setOffline(false);
    await lastState(page, "syncing");

    const after = await sendText(server, alice, roomId, "after reconnect");
    await page.waitForFunction(
      (id) => (globalThis as unknown as Lattice).lattice.liveEvents().includes(id),
      after,
      { timeout: 10_000 },
    );
    // Page hide forces the snapshot to IndexedDB, ahead of the 5-minute throttle.
    await page.evaluate(() => {
      (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(
        new Event("pagehide"),
      );
    });
    await page.waitForFunction(
      async (db) => {
        const l = (globalThis as unknown as Lattice).lattice;
        return (await l.persistedToken(db)) === l.processedToken();
      },
      config.dbName,
      { timeout: 10_000 },
    );
    await page.evaluate(() => (globalThis as unknown as Lattice).lattice.stop());
    await context.close();
  });
});
