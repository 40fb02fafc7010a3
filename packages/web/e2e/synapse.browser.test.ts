/**
 * The web app in Chromium against a real homeserver, the current Synapse:
 * signing in with a password through the sign-in screen, the room list
 * shows a room the user is in, and a message typed in the composer reaches
 * another user's SDK client through the server. Then the embedded room view
 * (embedded.html, from the same dev server) inside matrix-widget-api's host
 * (e2e/embedded/host-page.ts, another origin) whose driver is signed in on
 * Synapse: it shows bob's message and sends one bob receives.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRoom } from "@lattice/sdk/api/rooms";
import { createClient, type Client } from "@lattice/sdk/client";
import { createHttpClient } from "@lattice/sdk/http/index";
import { startSynapse, type SynapseHandle, type SynapseUser } from "@lattice/testserver/synapse";
import { launchChromium, openSignedIn, serveWebApp } from "./browser";
import { openHost, serveHostPage } from "./embedded/host-server";
import type { ServedFolder } from "./serve-folder";

let synapse: SynapseHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let host: ServedFolder;
let alice: SynapseUser;
let bob: Client;
let roomId: string;
const closers: Array<() => Promise<void>> = [];
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

beforeAll(async () => {
  synapse = await startSynapse({ version: "current" });
  alice = await synapse.registerUser("alice", { password: "alice-password" });
  const bobUser = await synapse.registerUser("bob");
  const aliceHttp = createHttpClient({ baseUrl: synapse.url, accessToken: alice.accessToken, retry: false });
  roomId = (
    await createRoom(aliceHttp, { name: "Synapse Square", preset: "private_chat", invite: [bobUser.userId] })
  ).room_id;
  bob = createClient({
    baseUrl: synapse.url,
    accessToken: bobUser.accessToken,
    userId: bobUser.userId,
    deviceId: bobUser.deviceId,
    crypto: false,
    logger: quiet,
    sync: { pollTimeoutMs: 1_000 },
  });
  await bob.start();
  await bob.moderation.join(roomId);
  [app, browser, host] = await Promise.all([
    serveWebApp({ VITE_LATTICE_HOMESERVER: synapse.url, LATTICE_E2E_NO_WATCH: "1" }),
    launchChromium(),
    serveHostPage(),
  ]);
}, 180_000);

afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await app?.close().catch(() => undefined);
  await host?.close().catch(() => undefined);
  await bob?.dispose();
  await synapse?.stop();
});

/** Resolves with bob's copy of the first message whose body is `body`. */
async function bobReceives(body: string, timeoutMs: number): Promise<{ sender: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = bob.rooms.find(roomId)?.recentEvents.find((e) => e.content["body"] === body);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`bob never received "${body}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("signs in to Synapse with a password, shows the room and sends a message bob receives", async () => {
  const { context, page } = await openSignedIn(browser, {
    appUrl: app.url,
    homeserver: synapse.url,
    user: "alice",
    password: "alice-password",
    stepTimeoutMs: 45_000,
  });
  closers.push(() => context.close());
  const list = page.getByRole("listbox", { name: "Rooms" });
  await list.getByText("Synapse Square").waitFor({ timeout: 60_000 });
  await list.getByText("Synapse Square").click();
  await page.getByRole("heading", { name: "Synapse Square", level: 2 }).waitFor();

  const box = (p: Page) => p.getByRole("combobox", { name: "Message" });
  await box(page).click();
  await box(page).fill("hello from the browser, via Synapse");
  await page.keyboard.press("Enter");
  const received = await bobReceives("hello from the browser, via Synapse", 60_000);
  expect(received.sender).toBe(alice.userId);
  // The app shows its own message as sent, and the composer is empty again.
  await page.locator("[data-event-id]", { hasText: "hello from the browser, via Synapse" }).waitFor();
  expect(await box(page).inputValue()).toBe("");
});

it("the embedded room view in matrix-widget-api's host on Synapse reads bob's message and sends one he receives", async () => {
  const sent = bob.sendQueue.send(roomId, "m.room.message", {
    msgtype: "m.text",
    body: "bob, to the embedded view",
  });
  expect((await bob.sendQueue.whenSettled(sent.txnId))?.status).toBe("sent");
  const context = await browser.newContext();
  closers.push(() => context.close());
  const frame = await openHost(await context.newPage(), host.url, {
    homeserver: synapse.url,
    token: alice.accessToken,
    roomId,
    widgetUrl: new URL("embedded.html", app.url).toString(),
    view: "room",
  });
  await frame.getByText("bob, to the embedded view").waitFor({ timeout: 30_000 });
  const composer = frame.getByPlaceholder("Message Synapse Square…");
  await composer.fill("from the embedded view, via Synapse");
  await composer.press("Enter");
  const received = await bobReceives("from the embedded view, via Synapse", 30_000);
  expect(received.sender).toBe(alice.userId);
});
