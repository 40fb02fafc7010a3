/**
 * The web app boots in Chromium and shows which homeserver it targets.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, serveWebApp } from "./browser";

let browser: Browser;
let app: { url: string; close(): Promise<void> };

beforeAll(async () => {
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: "http://127.0.0.1:9" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it("renders the app shell with the configured homeserver", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(app.url);
  await expect(page.getByRole("heading", { name: "Lattice" }).textContent()).resolves.toBe("Lattice");
  expect(await page.textContent("main")).toContain("http://127.0.0.1:9");
  expect(errors).toEqual([]);
});
