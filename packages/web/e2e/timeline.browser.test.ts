/**
 * The timeline in Chromium against the test homeserver: alice and bob in
 * two pages see each other's messages, typing and receipts in real time;
 * reactions, deletion and the edit history through the action bar; a reply
 * quote that jumps; an image with its lightbox; the encrypted demo room
 * (the crypto WebAssembly loads under the CSP) with its undecryptable
 * placeholders. Messages are sent by SDK clients in Node (the composer has
 * its own tests). The 10,000-event room is timeline-scale.browser.test.ts.
 * Screenshots go to test-results/web.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { createClient, createHttpClient, loginWithPassword, Session } from "../src/sdk";
import type { Client } from "../src/sdk";
import { uploadContent } from "@lattice/sdk/api/media";
import { launchChromium, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;
/** A 2×2 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

let server: TestServerHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let lounge: string;
let bob: Client;
let alice: Client;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

async function nodeClient(user: string): Promise<Client> {
  const session = new Session(new MemorySessionStorage());
  const http = createHttpClient({ baseUrl: server.url, retry: false });
  await session.signIn(await loginWithPassword(http, { userId: user }, `lattice-${user}`));
  const client = createClient({ session, crypto: false });
  await client.start();
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  const seed = await seedDemo(server.url, { historySize: 12, log: () => undefined });
  lounge = seed.rooms["lounge"] ?? "";
  app = await serveWebApp({ VITE_LATTICE_HOMESERVER: server.url, LATTICE_E2E_NO_WATCH: "1" });
  browser = await launchChromium();
  bob = await nodeClient("bob");
  alice = await nodeClient("alice");
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await alice?.dispose();
  await bob?.dispose();
  await app?.close();
  await server?.stop();
});

async function signedIn(user: string, options: { dark?: boolean; width?: number } = {}): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: options.dark === true ? "dark" : "light",
    viewport: { width: options.width ?? 1200, height: 800 },
  });
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(`${user}: ${e.message}`));
  await page.goto(app.url, { timeout: 90_000 });
  await page.getByTestId("homeserver").filter({ hasText: server.url }).waitFor();
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(`lattice-${user}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 30_000 });
  return page;
}

async function openRoom(page: Page, name: string): Promise<void> {
  await page.getByRole("listbox", { name: "Rooms" }).getByText(name, { exact: true }).click();
  await page.getByRole("heading", { name, level: 2 }).waitFor();
}

async function sendText(
  client: Client,
  roomId: string,
  body: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const p = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body, ...extra });
  const done = await client.sendQueue.whenSettled(p.txnId);
  if (done?.eventId === undefined) throw new Error(`not sent: ${body}`);
  return done.eventId;
}

const message = (page: Page, eventId: string) => page.locator(`article[data-event-id="${eventId}"]`);

describe("the timeline", () => {
  let alicePage: Page;
  let bobPage: Page;

  it("shows messages, typing and read receipts to both people in real time", async () => {
    [alicePage, bobPage] = await Promise.all([signedIn("alice"), signedIn("bob", { dark: true })]);
    await Promise.all([openRoom(alicePage, "Lattice Lounge"), openRoom(bobPage, "Lattice Lounge")]);
    const fromBob = await sendText(bob, lounge, "hello from bob");
    await message(alicePage, fromBob).getByText("hello from bob").waitFor();
    const fromAlice = await sendText(alice, lounge, "hi bob, with a link https://example.org/page");
    await message(bobPage, fromAlice)
      .getByText(/hi bob/)
      .waitFor();
    await message(alicePage, fromAlice).waitFor();

    await bob.typing.setTyping(lounge, true);
    await alicePage.getByText("Bob Builder is typing…").waitFor();
    await bob.typing.setTyping(lounge, false);

    // Each page reads the newest message: the other sees the receipt avatar under it.
    await message(bobPage, fromAlice).getByTestId("receipts").waitFor({ timeout: 30_000 });
    await alicePage.screenshot({ path: `${SHOTS}timeline-light.png` });
    await bobPage.screenshot({ path: `${SHOTS}timeline-dark.png` });
  }, 120_000);

  it("reacts, deletes with a reason, shows edits with their history, and jumps from a reply", async () => {
    const target = await sendText(bob, lounge, "react to this");
    const tile = message(alicePage, target);
    await tile.waitFor();
    await tile.focus();
    await tile.getByRole("button", { name: "React" }).click();
    await tile.getByRole("button", { name: "👍" }).click();
    const chip = message(bobPage, target).getByRole("button", { name: /^👍: 1/ });
    await chip.waitFor();
    expect(await tile.getByRole("button", { name: /^👍: 1/ }).getAttribute("aria-pressed")).toBe("true");
    await tile.getByRole("button", { name: /^👍: 1/ }).click();
    await chip.waitFor({ state: "detached" });

    const own = await sendText(alice, lounge, "a message alice regrets");
    const ownTile = message(alicePage, own);
    await ownTile.waitFor();
    await ownTile.focus();
    await ownTile.getByRole("button", { name: "Delete" }).click();
    await alicePage.getByLabel("Reason (optional)").fill("oops");
    await alicePage.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await message(bobPage, own).getByText("Message deleted").waitFor();

    const edited = await sendText(bob, lounge, "first version");
    await sendText(bob, lounge, " * second version", {
      "m.new_content": { msgtype: "m.text", body: "second version" },
      "m.relates_to": { rel_type: "m.replace", event_id: edited },
    });
    await message(alicePage, edited).getByText("second version").waitFor();
    await message(alicePage, edited).getByRole("button", { name: "(edited)" }).click();
    const history = alicePage.getByTestId("edit-history");
    await history.getByText("first version").waitFor();
    expect(await history.locator("li").count()).toBe(2);
    await alicePage.getByRole("dialog").getByRole("button", { name: "Close" }).click();

    const reply = await sendText(bob, lounge, "replying to the reaction target", {
      "m.relates_to": { "m.in_reply_to": { event_id: target } },
    });
    const quote = message(alicePage, reply).getByTestId("reply-quote");
    await quote.getByText("react to this").waitFor();
    await quote.click();
    await alicePage.locator(`article[data-event-id="${target}"]`).waitFor();
  }, 60_000);

  it("shows an image through authenticated media, with its lightbox", async () => {
    const up = await uploadContent(bob.http, PNG, { contentType: "image/png", fileName: "dots.png" });
    const image = await sendText(bob, lounge, "dots.png", {
      msgtype: "m.image",
      url: up.content_uri,
      info: {
        w: 200,
        h: 150,
        mimetype: "image/png",
        size: PNG.length,
        "xyz.amorgan.blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
      },
    });
    const tile = message(alicePage, image);
    const img = tile.getByRole("img", { name: "dots.png" });
    await img.waitFor();
    expect(await img.getAttribute("src")).toMatch(/^blob:/);
    await tile.getByRole("button", { name: "Open image dots.png" }).click();
    await alicePage.getByRole("dialog", { name: "Image viewer" }).getByRole("img").waitFor();
    await alicePage.screenshot({ path: `${SHOTS}timeline-lightbox.png` });
    await alicePage.keyboard.press("Escape");
  }, 60_000);

  it("opens the encrypted room: the crypto engine loads and undecryptable messages say so", async () => {
    await openRoom(bobPage, "Secret Garden");
    await bobPage.getByTestId("utd").first().waitFor({ timeout: 30_000 });
    expect(await bobPage.getByTestId("utd").first().textContent()).toContain("** Unable to decrypt");
    await bobPage.screenshot({ path: `${SHOTS}timeline-encrypted-dark.png` });
    expect(errors).toEqual([]);
  }, 60_000);
});
