/**
 * Reload in Chromium with real IndexedDB: a page bundled with Vite runs the
 * processor against an in-page scripted server, is reloaded, and must show
 * the stored rooms and their latest events before its first request; across
 * several reloads every event is emitted exactly once.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "./page/reload-page";

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
let url: string;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lattice-reload-"));
  await build({
    configFile: false,
    logLevel: "error",
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      lib: {
        entry: new URL("./page/reload-page.ts", import.meta.url).pathname,
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
  url = `http://127.0.0.1:${address.port}/`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function runClient(page: Page, budget: number): Promise<RunReport> {
  await page.waitForFunction(() => "runClient" in globalThis);
  return page.evaluate(
    (b) => (globalThis as unknown as { runClient(b: number): Promise<RunReport> }).runClient(b),
    budget,
  );
}

describe("reload in Chromium", () => {
  it("restores rooms and latest events from IndexedDB after a reload, and emits every event once", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    const all = await page.evaluate(() =>
      (globalThis as unknown as { allEventIds(): string[] }).allEventIds(),
    );
    const first = await runClient(page, 10);
    expect(first.storeKind).toBe("indexeddb");
    expect(first.restored).toBeNull();
    expect(first.endToken).toBe("s9");
    const counts = new Map<string, number>();
    const count = (ids: string[]) => ids.forEach((id) => counts.set(id, (counts.get(id) ?? 0) + 1));
    count(first.live);

    for (const budget of [7, 13, 100]) {
      await page.reload();
      const report = await runClient(page, budget);
      expect(report.requestsBeforeRestore).toBe(0);
      const position = Number(report.restoredToken?.slice(1));
      const expected = await page.evaluate(
        (p) =>
          (globalThis as unknown as { expectedRooms(p: number): Record<string, string[]> }).expectedRooms(p),
        position,
      );
      expect(report.restored).toEqual(expected);
      count(report.live);
    }
    expect([...counts.keys()].sort()).toEqual([...all].sort());
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    await context.close();
  });
});
