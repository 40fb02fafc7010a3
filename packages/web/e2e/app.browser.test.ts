/**
 * The web app in Chromium against the test homeserver with the demo data:
 * sign-in as alice shows the demo rooms, a wrong password shows the error,
 * a reload restores the session, a room opens with its messages, the
 * keyboard reaches the room list, and screenshots of the sign-in and main
 * screens (light and dark, desktop and phone) go to test-results/.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { launchChromium, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.url, { historySize: 40, log: () => undefined });
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await server?.stop();
});

async function newPage(options: { dark?: boolean; width?: number } = {}): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: options.dark === true ? "dark" : "light",
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  return page;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(app.url);
  await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("sign-in and the room list", () => {
  it("signs alice in and shows the demo rooms", async () => {
    const page = await newPage();
    await page.goto(app.url);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
    await page.screenshot({ path: `${SHOTS}signin-light.png` });
    await signIn(page, "alice", "lattice-alice");
    const list = page.getByRole("listbox", { name: "Rooms" });
    await list.getByText("Lattice Lounge").waitFor({ timeout: 30_000 });
    const names = await list.getByRole("option").allTextContents();
    expect(names.some((n) => n.includes("Lattice Lounge"))).toBe(true);
    expect(names.length).toBeGreaterThanOrEqual(3);

    // Open the lounge: its header and recent messages show.
    await list.getByText("Lattice Lounge").click();
    await page.getByRole("heading", { name: "Lattice Lounge", level: 2 }).waitFor();
    await page.locator("[data-event-id]").first().waitFor({ timeout: 20_000 });
    expect(await page.locator("[data-event-id]").count()).toBeGreaterThan(5);
    await page.screenshot({ path: `${SHOTS}main-light.png` });

    // Ctrl+K jumps to the search box; typing filters the list; arrows move the selection.
    await page.keyboard.press("Control+k");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Search rooms",
    );
    await page.keyboard.type("lounge");
    await expect.poll(() => list.getByRole("option").count()).toBe(1);
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Backspace");
    await expect.poll(() => list.getByRole("option").count()).toBeGreaterThan(1);
    await list.focus();
    const before = await list.getAttribute("aria-activedescendant");
    const openBefore = await list.locator('[aria-selected="true"]').getAttribute("id");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => list.getAttribute("aria-activedescendant")).not.toBe(before);
    // The listbox pattern: the arrow moved the active option only; focus stays in the list and
    // no room opened (so none was marked read). Enter opens the active option.
    await page.keyboard.press("Home");
    if ((await list.getAttribute("aria-activedescendant")) === openBefore) await page.keyboard.press("End");
    expect(await list.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await list.locator('[aria-selected="true"]').getAttribute("id")).toBe(openBefore);
    const activeId = await list.getAttribute("aria-activedescendant");
    expect(activeId).not.toBe(openBefore);
    await page.keyboard.press("Enter");
    await expect.poll(() => list.locator('[aria-selected="true"]').getAttribute("id")).toBe(activeId);

    // A reload restores the session: no sign-in screen, the rooms come back (from the cache first).
    await page.reload();
    await list.getByText("Lattice Lounge").waitFor({ timeout: 30_000 });
    expect(await page.getByRole("heading", { name: "Sign in" }).count()).toBe(0);

    // Soft logout (the stored session without its token, as the SDK leaves it): the soft-logout
    // screen keeps local data, and the password resumes the same device.
    const deviceBefore = await page.evaluate(() => {
      const raw = localStorage.getItem("lattice.session") ?? "{}";
      const data = JSON.parse(raw) as Record<string, unknown>;
      delete data["accessToken"];
      delete data["refreshToken"];
      localStorage.setItem("lattice.session", JSON.stringify(data));
      return data["deviceId"];
    });
    await page.reload();
    await page.getByRole("heading", { name: "You're signed out" }).waitFor();
    await page.screenshot({ path: `${SHOTS}soft-logout-light.png` });
    await page.getByLabel("Password").fill("lattice-alice");
    await page.getByRole("button", { name: "Sign in" }).click();
    await list.getByText("Lattice Lounge").waitFor({ timeout: 30_000 });
    const deviceAfter = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem("lattice.session") ?? "{}") as Record<string, unknown>)["deviceId"],
    );
    expect(deviceAfter).toBe(deviceBefore);

    // Sign out: confirmed in a dialog, back to the sign-in screen, and a reload stays signed out.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => localStorage.getItem("lattice.session"))).toBeNull();
    await page.reload();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
  });

  it("shows a clear error for a wrong password", async () => {
    const page = await newPage();
    await signIn(page, "alice", "not-her-password");
    const alert = page.getByRole("alert").filter({ hasText: "Incorrect username or password." });
    await alert.waitFor();
    expect(await page.getByRole("listbox", { name: "Rooms" }).count()).toBe(0);
  });

  it("signs in through the server's SSO and drops the loginToken from the URL", async () => {
    const page = await newPage();
    await page.goto(app.url);
    await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
    await page.getByRole("button", { name: "Continue with Lattice test SSO" }).click();
    await page.waitForURL((u) => u.href.startsWith(server.url));
    await page.getByLabel("User name").fill("dave");
    await page.getByRole("button").first().click();
    await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 30_000 });
    expect(page.url()).not.toContain("loginToken");
    expect(await page.getByText("@dave:", { exact: false }).count()).toBeGreaterThan(0);
  });

  it("registers a new account and lands in the app", async () => {
    const page = await newPage();
    await page.goto(app.url);
    await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await page.screenshot({ path: `${SHOTS}register-light.png` });
    await page.getByLabel("Username").fill("erin");
    await page.getByLabel("Password", { exact: true }).fill("erin-password");
    await page.getByLabel("Confirm password").fill("erin-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 30_000 });
    expect(await page.getByText("@erin:", { exact: false }).count()).toBeGreaterThan(0);
  });

  it("reports an unreachable homeserver", async () => {
    const page = await newPage();
    await page.goto(app.url);
    await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
    await page.getByRole("button", { name: "Change", exact: true }).click();
    await page.getByLabel("Homeserver").fill("http://127.0.0.1:9");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByText("Cannot reach the homeserver", { exact: false }).waitFor({ timeout: 30_000 });
  });

  it("looks finished in dark mode and on a phone", async () => {
    const page = await newPage({ dark: true });
    await page.goto(app.url);
    await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
    await page.screenshot({ path: `${SHOTS}signin-dark.png` });
    await signIn(page, "bob", "lattice-bob");
    const list = page.getByRole("listbox", { name: "Rooms" });
    await list.getByText("Lattice Lounge").click({ timeout: 30_000 });
    await page.locator("[data-event-id]").first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}main-dark.png` });

    const phone = await newPage({ width: 360 });
    await signIn(phone, "carol", "lattice-carol");
    const phoneList = phone.getByRole("listbox", { name: "Rooms" });
    await phoneList.getByText("Lattice Lounge").waitFor({ timeout: 30_000 });
    // Nothing of the list pane is cut off at 360 px (the shell clips overflow, so check the edges).
    const signOut = await phone.getByRole("button", { name: "Sign out" }).boundingBox();
    const searchBox = await phone.getByLabel("Search rooms").boundingBox();
    expect(signOut !== null && signOut.x + signOut.width <= 360).toBe(true);
    expect(searchBox !== null && searchBox.x + searchBox.width <= 360).toBe(true);
    await phone.screenshot({ path: `${SHOTS}list-phone.png` });
    await phoneList.getByText("Lattice Lounge").click();
    await phone.getByRole("button", { name: "Back to rooms" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: `${SHOTS}room-phone.png` });
  });
});
