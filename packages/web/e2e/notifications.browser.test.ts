/**
 * Browser notifications in Chromium against the test homeserver: with the
 * permission granted through the browser context and window.Notification
 * wrapped by an init script (recording each notification), a message from
 * bob in a room alice is not looking at shows one notification titled with
 * the room; alice's own message shows none; clicking the notification
 * opens the room. A second context with the permission denied shows the
 * blocked state in settings.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { launchChromium, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let tokens: Record<string, string> = {};
let roomId = "";
const contexts: BrowserContext[] = [];

async function api(
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
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

let txn = 0;
function say(token: string, body: string): Promise<Record<string, unknown>> {
  return api(token, "PUT", `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t${++txn}`, {
    msgtype: "m.text",
    body,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const [alice, bob] = await Promise.all([register("alice"), register("bob")]);
  tokens = { alice, bob };
  roomId = String(
    (await api(alice, "POST", "/createRoom", { name: "Bell tower", preset: "public_chat" }))["room_id"],
  );
  await api(bob, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  await api(alice, "POST", "/createRoom", { name: "Quiet corner", preset: "private_chat" });
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await server?.stop();
});

/** Records every notification the app makes, keeping the real constructor's behaviour when it works. */
function recordNotifications(): void {
  const Original = window.Notification;
  const shown: Array<{ title: string; body: string; n: { onclick: unknown } }> = [];
  (window as unknown as { __shown: typeof shown }).__shown = shown;
  function Recording(this: unknown, title: string, options?: NotificationOptions): unknown {
    const n: { onclick: unknown; close(): void } = { onclick: null, close: () => undefined };
    try {
      const real = new Original(title, options);
      n.close = () => real.close();
    } catch {
      // Headless Chromium may refuse to show one: the record is what the test reads.
    }
    shown.push({ title, body: options?.body ?? "", n });
    return n;
  }
  Object.defineProperty(Recording, "permission", { get: () => Original.permission });
  (Recording as unknown as { requestPermission: unknown }).requestPermission = () =>
    Original.requestPermission();
  (window as unknown as { Notification: unknown }).Notification = Recording;
}

async function signIn(permission: "granted" | "denied", dark = false): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: dark ? "dark" : "light",
    viewport: { width: 1280, height: 800 },
  });
  contexts.push(context);
  context.setDefaultTimeout(45_000);
  if (permission === "granted") await context.grantPermissions(["notifications"], { origin: app.url });
  await context.addInitScript(recordNotifications);
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
    .getByText("Bell tower", { exact: true })
    .waitFor({ timeout: 30_000 });
  return page;
}

const shownOf = (page: Page): Promise<Array<{ title: string; body: string }>> =>
  page.evaluate(() =>
    (window as unknown as { __shown: Array<{ title: string; body: string }> }).__shown.map((s) => ({
      title: s.title,
      body: s.body,
    })),
  );

describe("browser notifications", () => {
  it("notifies bob's message, not alice's own, and a click opens the room", async () => {
    const page = await signIn("granted");
    await page.getByRole("listbox", { name: "Rooms" }).getByText("Quiet corner", { exact: true }).click();
    await page.getByRole("heading", { name: "Quiet corner", level: 2 }).waitFor();
    // Settings show the permission as granted.
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await page.getByRole("tab", { name: "Notifications" }).click();
    await page.getByText("Desktop notifications are on for this browser.").waitFor();
    await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).click();

    await say(tokens["alice"] ?? "", "alice talking to herself");
    await say(tokens["bob"] ?? "", "the bells are ringing");
    await expect.poll(() => shownOf(page), { timeout: 20_000 }).toHaveLength(1);
    const [note] = await shownOf(page);
    expect(note?.title).toBe("Bell tower");
    expect(note?.body).toContain("the bells are ringing");

    await page.evaluate(() => {
      const n = (window as unknown as { __shown: Array<{ n: { onclick: (() => void) | null } }> }).__shown[0]
        ?.n;
      n?.onclick?.();
    });
    await page.getByRole("heading", { name: "Bell tower", level: 2 }).waitFor();
    // Now the room is open in a focused window: bob's next message does not notify.
    await say(tokens["bob"] ?? "", "second peal");
    await page.locator("[data-event-id]").getByText("second peal").waitFor();
    expect(await shownOf(page)).toHaveLength(1);
  });

  it("shows the blocked state when the permission is denied", async () => {
    const page = await signIn("denied", true);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await page.getByRole("tab", { name: "Notifications" }).click();
    const panel = page.getByRole("tabpanel");
    // Chromium reports "default" until asked; asking in a denied context turns it to "denied".
    const ask = panel.getByRole("button", { name: "Enable desktop notifications" });
    if (await ask.isVisible()) await ask.click();
    await panel.getByText(/Notifications are blocked for this site/).waitFor();
    await page.screenshot({ path: `${SHOTS}settings-notifications-denied-dark.png` });
  });
});
