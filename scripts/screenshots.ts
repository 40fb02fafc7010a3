/**
 * Refreshes docs/screenshots/: the web app against the test homeserver with
 * the demo seed (alice, bob and carol; the Lattice Lounge with a thread,
 * reactions and an image; a space), in Debian's Chromium, light and dark:
 * the main screen, a busy room, a thread, settings, spaces and the phone
 * layout. Run with `npm run screenshots`. Each shot is tried on its own: a
 * failure is printed and the others still run (the exit code says so).
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { startTestServer } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { launchChromium, serveWebApp } from "../packages/web/e2e/browser";

const OUT = new URL("../docs/screenshots/", import.meta.url).pathname;
const DESKTOP = { width: 1200, height: 760 };
const PHONE = { width: 390, height: 780 };

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const server = await startTestServer();
  await seedDemo(server.url, { historySize: 40, log: () => undefined });
  const app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" });
  const browser = await launchChromium();
  let failed = 0;
  try {
    for (const theme of ["light", "dark"] as const) {
      const open = async (viewport: { width: number; height: number }): Promise<Page> => {
        const context = await browser.newContext({ colorScheme: theme, viewport });
        context.setDefaultTimeout(60_000);
        const page = await context.newPage();
        await page.goto(app.url, { timeout: 90_000 });
        await page.getByLabel("Username").fill("alice");
        await page.getByLabel("Password", { exact: true }).fill("lattice-alice");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("listbox", { name: "Rooms" }).getByRole("option").first().waitFor();
        return page;
      };
      const shot = async (name: string, page: Page, steps: () => Promise<void>): Promise<void> => {
        try {
          await steps();
          await page.screenshot({ path: `${OUT}${name}-${theme}.png` });
          console.log(`wrote docs/screenshots/${name}-${theme}.png`);
        } catch (e) {
          failed++;
          console.error(`${name}-${theme}: ${e instanceof Error ? e.message : String(e)}`);
        }
      };
      const page = await open(DESKTOP);
      await shot("main", page, () => page.getByRole("listbox", { name: "Rooms" }).waitFor());
      await shot("busy-room", page, async () => {
        await page.getByRole("listbox", { name: "Rooms" }).getByText("Lattice Lounge").click();
        await page.getByRole("heading", { name: "Lattice Lounge", level: 2 }).waitFor();
        await page
          .getByTestId("timeline-scroller")
          .getByText(/Thread: what should we demo next/)
          .waitFor();
      });
      await shot("thread", page, async () => {
        await page.getByTestId("thread-summary").first().click();
        await page.getByTestId("thread-view").waitFor();
      });
      await shot("settings", page, async () => {
        await page.keyboard.press("Escape");
        await page.getByRole("button", { name: "Settings", exact: true }).click();
        await page.getByRole("dialog", { name: "Settings" }).waitFor();
      });
      await shot("spaces", page, async () => {
        await page.keyboard.press("Escape");
        await page
          .getByRole("navigation", { name: "Spaces" })
          .getByRole("button", { name: /Lattice Space/ })
          .first()
          .click();
        await page.getByRole("listbox", { name: "Rooms" }).getByRole("option").first().waitFor();
      });
      await page.context().close();
      const phone = await open(PHONE);
      await shot("phone", phone, async () => {
        await phone.getByRole("listbox", { name: "Rooms" }).getByText("Lattice Lounge").click();
        await phone.getByRole("heading", { name: "Lattice Lounge", level: 2 }).waitFor();
      });
      await phone.context().close();
    }
  } finally {
    await browser.close();
    await app.close();
    await server.stop();
  }
  if (failed > 0) {
    console.error(`${failed} screenshot(s) failed`);
    process.exitCode = 1;
  }
}

await main();
