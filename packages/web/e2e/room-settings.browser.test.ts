/**
 * Room settings in Chromium against the test homeserver: alice renames the
 * room, sets its topic and opens it to anyone from the settings dialog; her
 * room header follows, and bob's page (dark) shows the new name and topic
 * in his header and the new join rule in his settings, where he (a plain
 * member) cannot change it. Screenshots of each tab go to test-results/web.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../testserver/src/index";
import type { TestServerHandle } from "../../testserver/src/index";
import { launchChromium, openSignedIn, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;
const ROOM = "Settings lab";

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
const contexts: BrowserContext[] = [];

async function register(name: string): Promise<string> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  if (!res.ok) throw new Error(`register ${name}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function call(token: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startTestServer({ validate: false });
  const [alice, bob] = await Promise.all([register("alice"), register("bob")]);
  const { room_id: roomId } = await call(alice, "/createRoom", {
    name: ROOM,
    preset: "private_chat",
    invite: ["@bob:localhost"],
  });
  await call(bob, `/join/${encodeURIComponent(String(roomId))}`, {});
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

async function openRoom(name: string, dark = false): Promise<Page> {
  const { context, page } = await openSignedIn(browser, {
    appUrl: app.url,
    homeserver: server.url,
    user: name,
    password: `${name}-password`,
    dark,
    stepTimeoutMs: 45_000,
  });
  contexts.push(context);
  await page.getByRole("listbox", { name: "Rooms" }).getByText(ROOM).click({ timeout: 30_000 });
  await page.getByRole("heading", { name: ROOM, level: 2, exact: true }).waitFor();
  return page;
}

describe("room settings", () => {
  it("changes name, topic and join rule, seen in both headers and in bob's settings", async () => {
    const alice = await openRoom("alice");
    const bob = await openRoom("bob", true);

    await alice.getByRole("button", { name: "Room settings" }).click();
    const dialog = alice.getByRole("dialog", { name: /^Room settings/ });
    await dialog.getByLabel("Room name").fill("Renamed lab");
    await dialog.getByRole("button", { name: "Save" }).first().click();
    await dialog.getByText("Saved.").waitFor();
    await dialog.getByLabel("Topic").fill("Where settings are tried");
    await dialog.getByRole("button", { name: "Save" }).nth(1).click();
    await alice
      .getByRole("heading", { name: "Renamed lab", level: 2, exact: true })
      .waitFor({ timeout: 20_000 });
    await alice.screenshot({ path: `${SHOTS}room-settings-general-light.png` });

    await dialog.getByRole("tab", { name: "Security" }).click();
    expect(await dialog.getByLabel("Invite only").isChecked()).toBe(true);
    // A controlled radio: it turns on when the server has taken the change, so click and wait.
    await dialog.getByLabel("Anyone", { exact: true }).click();
    await dialog.getByText("Saved.").waitFor();
    await expect.poll(() => dialog.getByLabel("Anyone", { exact: true }).isChecked()).toBe(true);
    await alice.screenshot({ path: `${SHOTS}room-settings-security-light.png` });
    await dialog.getByRole("tab", { name: "Roles & permissions" }).click();
    await dialog.getByLabel("Ban people").waitFor();
    await alice.screenshot({ path: `${SHOTS}room-settings-roles-light.png` });
    await dialog.getByRole("tab", { name: "Advanced" }).click();
    await dialog.getByText("Room version").waitFor();
    await alice.screenshot({ path: `${SHOTS}room-settings-advanced-light.png` });
    await dialog.getByRole("button", { name: "Close" }).last().click();
    await alice.getByText("Where settings are tried").first().waitFor();

    // Bob's header follows, and his settings show the join rule, which he cannot change.
    await bob
      .getByRole("heading", { name: "Renamed lab", level: 2, exact: true })
      .waitFor({ timeout: 20_000 });
    await bob.getByText("Where settings are tried").first().waitFor();
    await bob.getByRole("button", { name: "Room settings" }).click();
    const bobDialog = bob.getByRole("dialog", { name: "Room settings · Renamed lab" });
    expect(await bobDialog.getByLabel("Room name").isDisabled()).toBe(true);
    await bobDialog.getByRole("tab", { name: "Security" }).click();
    expect(await bobDialog.getByLabel("Anyone", { exact: true }).isChecked()).toBe(true);
    expect(await bobDialog.getByLabel("Anyone", { exact: true }).isDisabled()).toBe(true);
    await bob.screenshot({ path: `${SHOTS}room-settings-security-dark.png` });
  }, 120_000);
});
