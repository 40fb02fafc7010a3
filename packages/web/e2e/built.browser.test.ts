/**
 * The production build under its strict CSP (no 'unsafe-inline' for styles
 * either): built with Vite, served by `vite preview` on loopback, alice signs
 * in against the test homeserver and reads a room with formatted messages
 * and an image, and the page files no CSP violation and loads no inline
 * script.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { launchChromium, serveBuiltApp } from "./browser";
import type { BuiltApp } from "./browser";

let server: TestServerHandle;
let app: BuiltApp;
let url: string;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.url, { historySize: 20, log: () => undefined });
  [app, browser] = await Promise.all([serveBuiltApp({ homeserver: server.url }), launchChromium()]);
  url = app.url;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await server?.stop();
});

it("runs under the strict policy with no violation", async () => {
  const html = await readFile(join(app.outDir, "index.html"), "utf8");
  expect(html).toMatch(/http-equiv="Content-Security-Policy"/);
  expect(html).not.toMatch(/unsafe-inline/);
  // Every script is an external module: nothing inline for the policy to allow.
  expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? []).toEqual([]);

  const page = await browser.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor({ timeout: 20_000 });
  await page.getByLabel("Username").fill("alice");
  await page.getByLabel("Password", { exact: true }).fill("lattice-alice");
  await page.getByRole("button", { name: "Sign in" }).click();
  const list = page.getByRole("listbox", { name: "Rooms" });
  await list.getByText("Lattice Lounge").click({ timeout: 30_000 });
  await page.locator("[data-event-id]").first().waitFor({ timeout: 20_000 });
  // The demo image arrives through authenticated media as an object URL.
  await page.locator('img[src^="blob:"]').first().waitFor({ timeout: 20_000 });
  // Styles applied: the design tokens reached the page from the external stylesheet.
  const accent = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--color-accent").trim(),
  );
  expect(accent).not.toBe("");

  const violations = await page.evaluate(
    () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
  );
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
});
