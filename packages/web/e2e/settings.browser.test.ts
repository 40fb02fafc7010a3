/**
 * User settings and search in Chromium against the test homeserver. Alice
 * opens Settings: sets her display name (seen through the API), turns off
 * group-room notifications and adds a keyword (the push rules change on
 * the server), signs out her other session with her password (interactive
 * auth), adds an email address through "check your mail" (the outbox link
 * followed), and switches to the dark theme; a screenshot of each section
 * goes to test-results/web. Then Search finds bob's message across rooms
 * with the term highlighted and jumps to it in the timeline.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { launchChromium, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let alice = "";
let pancakeId = "";

async function api(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

async function register(name: string): Promise<string> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  server = await startTestServer();
  const [a, bob] = await Promise.all([register("alice"), register("bob")]);
  alice = a;
  const roomId = String(
    (await api(a, "POST", "/createRoom", { name: "Recipes", preset: "public_chat" }))["room_id"],
  );
  await api(a, "POST", "/createRoom", { name: "Elsewhere", preset: "private_chat" });
  await api(bob, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  const send = (body: string, i: number): Promise<Record<string, unknown>> =>
    api(bob, "PUT", `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/s${i}`, {
      msgtype: "m.text",
      body,
    });
  for (let i = 0; i < 30; i++) await send(`filler message ${i}`, i);
  pancakeId = String((await send("Sunday pancakes: flour, eggs and a pancake pan", 100))["event_id"]);
  for (let i = 30; i < 40; i++) await send(`more filler ${i}`, i);
  // A second session of alice's, to sign out from settings.
  await fetch(`${server.url}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "alice" },
      password: "alice-password",
      initial_device_display_name: "Old phone",
    }),
  });
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await server?.stop();
});

async function signIn(): Promise<Page> {
  const context = await browser.newContext({ colorScheme: "light", viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(45_000);
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  await page.goto(app.url, { timeout: 60_000 });
  await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
  await page.getByLabel("Username").fill("alice");
  await page.getByLabel("Password", { exact: true }).fill("alice-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page
    .getByRole("listbox", { name: "Rooms" })
    .getByText("Elsewhere", { exact: true })
    .click({ timeout: 30_000 });
  await page.getByRole("heading", { name: "Elsewhere", level: 2 }).waitFor();
  return page;
}

describe("user settings and search", () => {
  it("changes profile, notifications, sessions, email and theme, then finds and jumps to a message", async () => {
    const page = await signIn();
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    const panel = dialog.getByRole("tabpanel");
    const tab = (name: string): Promise<void> => dialog.getByRole("tab", { name }).click();

    // Profile.
    await panel.getByLabel("Display name").fill("Alice Liddell");
    await panel.getByRole("button", { name: "Save" }).click();
    await panel.getByText("Saved.").waitFor();
    expect((await api(alice, "GET", "/profile/%40alice%3Alocalhost"))["displayname"]).toBe("Alice Liddell");
    await page.screenshot({ path: `${SHOTS}settings-profile-light.png` });

    // Notifications: group rooms off, a keyword.
    await tab("Notifications");
    const group = panel.getByRole("switch", { name: "Messages in group rooms" });
    await group.waitFor();
    expect(await group.isChecked()).toBe(true);
    await group.click();
    await expect.poll(() => group.isChecked()).toBe(false);
    const rule = await api(alice, "GET", "/pushrules/global/underride/.m.rule.message");
    expect(rule["enabled"]).toBe(false);
    await panel.getByLabel("New keyword").fill("waffle");
    await panel.getByRole("button", { name: "Add", exact: true }).click();
    await panel.getByRole("list", { name: "Keywords" }).getByText("waffle").waitFor();
    expect((await api(alice, "GET", "/pushrules/global/content/waffle"))["pattern"]).toBe("waffle");
    await panel.getByRole("radio", { name: "Mute" }).click();
    await expect.poll(() => panel.getByRole("radio", { name: "Mute" }).isChecked()).toBe(true);
    await page.screenshot({ path: `${SHOTS}settings-notifications-light.png` });

    // Sessions: sign out the old phone with the password.
    await tab("Sessions");
    const old = panel.getByRole("listitem").filter({ hasText: "Old phone" });
    await old.waitFor();
    await panel.getByText("This device").waitFor();
    await page.screenshot({ path: `${SHOTS}settings-sessions-light.png` });
    await old.getByRole("button", { name: "Sign out" }).click();
    const auth = page.getByRole("dialog", { name: "Confirm it's you" });
    await auth.getByLabel("Password").fill("wrong-password");
    await auth.getByRole("button", { name: "Continue" }).click();
    await auth.getByRole("alert").waitFor();
    await auth.getByLabel("Password").fill("alice-password");
    await auth.getByRole("button", { name: "Continue" }).click();
    await old.waitFor({ state: "detached" });
    const devices = (await api(alice, "GET", "/devices"))["devices"] as Array<{ display_name?: string }>;
    expect(devices.some((d) => d.display_name === "Old phone")).toBe(false);

    // Security (the crypto engine loads on demand).
    await tab("Security & privacy");
    await panel.getByRole("heading", { name: "Cross-signing" }).waitFor({ timeout: 60_000 });
    // A new account is offered backup and recovery in one button (issue 16 point 10), cross-signing or not.
    await panel.getByRole("button", { name: "Set up backup and recovery" }).waitFor();
    await page.screenshot({ path: `${SHOTS}settings-security-light.png` });

    // Account: add an email address.
    await tab("Account");
    await panel.getByRole("textbox", { name: "Email address" }).fill("alice@example.org");
    await panel.getByRole("button", { name: "Add", exact: true }).click();
    await panel.getByText(/We sent an email to alice@example.org/).waitFor();
    const mail = server.outbox.last("alice@example.org");
    expect((await fetch(mail?.link ?? "")).ok).toBe(true);
    await panel.getByRole("button", { name: "I followed the link" }).click();
    await auth.getByLabel("Password").fill("alice-password");
    await auth.getByRole("button", { name: "Continue" }).click();
    await panel.getByRole("listitem").filter({ hasText: "alice@example.org" }).waitFor();
    await page.screenshot({ path: `${SHOTS}settings-account-light.png` });

    // Appearance: dark theme and a larger font.
    await tab("Appearance");
    await panel.getByRole("radio", { name: "Dark" }).click();
    expect(await page.evaluate(() => document.documentElement.dataset["theme"])).toBe("dark");
    await panel.getByRole("radio", { name: "Compact" }).click();
    expect(await page.evaluate(() => document.documentElement.dataset["layout"])).toBe("compact");
    await page.screenshot({ path: `${SHOTS}settings-appearance-dark.png` });
    await tab("Language");
    await page.screenshot({ path: `${SHOTS}settings-language-dark.png` });
    await dialog.getByRole("button", { name: "Close" }).click();

    // Search across rooms, then jump.
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const search = page.getByRole("dialog", { name: "Search" });
    await search.getByLabel("Search for").fill("pancake");
    await search.getByLabel("Search for").press("Enter");
    // The open room (Elsewhere) has no match; all rooms do.
    await search.getByText("No messages match “pancake”.").waitFor();
    await search.getByRole("radio", { name: "All rooms" }).click();
    const hit = search.getByRole("button", { name: "Jump to message in Recipes" });
    await hit.waitFor();
    expect(await hit.locator("mark").first().textContent()).toMatch(/pancake/i);
    await page.screenshot({ path: `${SHOTS}search-messages-dark.png` });
    await hit.first().click();
    await page.getByRole("heading", { name: "Recipes", level: 2 }).waitFor();
    await page.locator(`[data-event-id="${pancakeId}"]`).waitFor({ timeout: 30_000 });
  }, 150_000);
});
