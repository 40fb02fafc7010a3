/**
 * The composer in Chromium against the test homeserver: markdown sent as
 * HTML, a mention completed by keyboard (listbox, arrows, Enter), the emoji
 * picker (its chunk loads only when opened) and :shortcode: completion,
 * reply from the action bar, edit with the up-arrow, an image uploaded by
 * the file chooser (progress shown; dimensions and blurhash computed in the
 * page), a pasted file, a draft that survives a reload, /me and a command
 * error. What was sent is read back from the server. Screenshots go to
 * test-results/web.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import type { DemoSeed } from "@lattice/testserver/demo/seed";
import { messages } from "@lattice/sdk/api/timeline";
import { createHttpClient } from "../src/sdk";
import { launchChromium, openSignedIn, serveWebApp } from "./browser";

const SHOTS = new URL("../../../test-results/web/", import.meta.url).pathname;

let server: TestServerHandle;
let seed: DemoSeed;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
let lounge: string;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  seed = await seedDemo(server.url, { historySize: 6, log: () => undefined });
  lounge = seed.rooms["lounge"] ?? "";
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

async function signedIn(user: string, dark = false): Promise<Page> {
  const { context, page } = await openSignedIn(browser, {
    appUrl: app.url,
    homeserver: server.url,
    user,
    password: `lattice-${user}`,
    dark,
    viewport: { width: 1200, height: 800 },
    onPageError: (e) => errors.push(`${user}: ${e.message}`),
  });
  contexts.push(context);
  page.on("console", (m) => {
    if (m.type() === "error") console.error(`[${user}]`, m.text());
  });
  return page;
}

async function openLounge(page: Page): Promise<void> {
  await page.getByRole("listbox", { name: "Rooms" }).getByText("Lattice Lounge", { exact: true }).click();
  await page.getByRole("heading", { name: "Lattice Lounge", level: 2 }).waitFor();
}

/** The newest events of the lounge as the server has them (alice's view). */
async function latest(
  count = 10,
): Promise<Array<{ event_id: string; type: string; content: Record<string, unknown> }>> {
  const http = createHttpClient({
    baseUrl: server.url,
    accessToken: seed.users.alice.accessToken,
    retry: false,
  });
  const page = await messages(http, lounge, { dir: "b", limit: count });
  return page.chunk;
}

/**
 * The content of the newest message the server has that matches, polled until it is there. The
 * bound is generous (a loaded machine is slow, not wrong); when it runs out, the error says what
 * the server had instead.
 */
async function sentWith(
  match: (content: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const events = await latest();
    const found = events.find((e) => e.type === "m.room.message" && match(e.content));
    if (found !== undefined) return found.content;
    if (Date.now() > deadline) {
      const bodies = events.map((e) => JSON.stringify(e.content["body"] ?? e.type));
      throw new Error(`the message never reached the server (its newest: ${bodies.join(", ")})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the composer", () => {
  let page: Page;
  const box = (): ReturnType<Page["getByRole"]> => page.getByRole("combobox", { name: "Message" });

  it("sends markdown, completes a mention by keyboard and picks emoji", async () => {
    page = await signedIn("alice");
    await openLounge(page);
    await box().click();
    await box().fill("**bold move** and <b>typed html</b>");
    await page.keyboard.press("Enter");
    const rich = await sentWith((c) => c["body"] === "**bold move** and <b>typed html</b>");
    expect(rich["formatted_body"]).toBe("<strong>bold move</strong> and &lt;b&gt;typed html&lt;/b&gt;");
    await page.locator("[data-event-id] strong", { hasText: "bold move" }).waitFor();
    expect(await box().inputValue()).toBe("");

    await box().pressSequentially("hi @b");
    const list = page.getByRole("listbox", { name: "Suggestions" });
    await list.getByRole("option", { name: /Bob Builder/ }).waitFor();
    expect(await box().getAttribute("aria-expanded")).toBe("true");
    await page.screenshot({ path: `${SHOTS}composer-mention-light.png` });
    const options = await list.getByRole("option").allTextContents();
    const bobAt = options.findIndex((o) => o.includes("Bob Builder"));
    for (let i = 0; i < bobAt; i++) await page.keyboard.press("ArrowDown");
    expect(await list.getByRole("option", { selected: true }).textContent()).toContain("Bob Builder");
    await page.keyboard.press("Enter");
    expect(await box().inputValue()).toBe("hi Bob Builder ");
    await box().pressSequentially("welcome");
    await page.keyboard.press("Enter");
    const mention = await sentWith((c) => c["body"] === "hi Bob Builder welcome");
    expect(mention["m.mentions"]).toEqual({ user_ids: [seed.users.bob.userId] });
    expect(String(mention["formatted_body"])).toContain(
      `href="https://matrix.to/#/${seed.users.bob.userId}"`,
    );

    // The emoji data is a lazy chunk: no emojibase request until the picker opens.
    const emojiRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("emojibase")) emojiRequests.push(r.url());
    });
    await box().pressSequentially("party ");
    expect(emojiRequests).toEqual([]);
    await page.getByRole("button", { name: "Emoji" }).click();
    const picker = page.getByRole("dialog", { name: "Emoji" });
    await picker.getByRole("button", { name: "grinning face", exact: true }).waitFor({ timeout: 30_000 });
    expect(emojiRequests.length).toBeGreaterThan(0);
    await picker.getByRole("searchbox", { name: "Search emoji" }).fill("party popper");
    await picker.getByRole("button", { name: "party popper" }).click();
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "detached" });
    await box().press("End");
    await box().pressSequentially(" :thumbsu");
    await list.getByRole("option", { name: /👍/ }).waitFor();
    await page.keyboard.press("Tab");
    // Emoji may carry the presentation selector (U+FE0F).
    expect((await box().inputValue()).replace(/\uFE0F/g, "")).toBe("party 🎉 👍 ");
    await page.keyboard.press("Enter");
    await sentWith((c) => String(c["body"]).replace(/\uFE0F/g, "") === "party 🎉 👍 ");
  }, 90_000);

  it("replies from the action bar and edits the last message with the up arrow", async () => {
    const target = (await latest()).find((e) => e.content["body"] === "hi Bob Builder welcome");
    if (target === undefined) throw new Error("no target");
    const tile = page.locator(`article[data-event-id="${target.event_id}"]`);
    await tile.hover();
    await tile.getByRole("button", { name: "Reply", exact: true }).click();
    await page.getByText("Replying to Alice Liddell").waitFor();
    await box().pressSequentially("replying here");
    await page.keyboard.press("Enter");
    const reply = await sentWith((c) => c["body"] === "replying here");
    expect(reply["m.relates_to"]).toEqual({ "m.in_reply_to": { event_id: target.event_id } });
    await page.getByText("Replying to Alice Liddell").waitFor({ state: "detached" });

    await page.keyboard.press("ArrowUp");
    await page.getByText("Editing message").waitFor();
    expect(await box().inputValue()).toBe("replying here");
    await page.screenshot({ path: `${SHOTS}composer-edit-light.png` });
    await box().fill("replying here, edited");
    await page.keyboard.press("Enter");
    const edit = await sentWith((c) => c["body"] === "* replying here, edited");
    expect(edit["m.new_content"]).toMatchObject({ body: "replying here, edited" });
    await page.getByText("replying here, edited").first().waitFor();

    // Escape leaves edit mode without sending.
    await page.keyboard.press("ArrowUp");
    await page.getByText("Editing message").waitFor();
    await page.keyboard.press("Escape");
    await page.getByText("Editing message").waitFor({ state: "detached" });
    expect(await box().inputValue()).toBe("");
  }, 60_000);

  it("uploads an image by the button with progress, and a pasted file", async () => {
    await page.evaluate(() => {
      const w = window as unknown as { sawProgress: boolean };
      w.sawProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="composer"] progress') !== null) w.sawProgress = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    // A real 1200x900 PNG drawn in the page, so the probe computes dimensions, thumbnail and blurhash.
    const png = await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 1200;
      canvas.height = 900;
      const ctx = canvas.getContext("2d");
      if (ctx === null) throw new Error("no canvas");
      ctx.fillStyle = "#3a5bd9";
      ctx.fillRect(0, 0, 1200, 900);
      ctx.fillStyle = "#f5b400";
      ctx.fillRect(300, 200, 600, 500);
      const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
      return Array.from(new Uint8Array(await (blob ?? new Blob()).arrayBuffer()));
    });
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach files" }).click();
    await (await chooser).setFiles({ name: "gradient.png", mimeType: "image/png", buffer: Buffer.from(png) });
    // The upload dialog holds the file until Upload.
    await page
      .getByRole("dialog", { name: "Upload files (1)" })
      .getByRole("button", { name: "Upload" })
      .click();
    const image = await sentWith((c) => c["msgtype"] === "m.image" && c["body"] === "gradient.png");
    expect(image["info"]).toMatchObject({
      w: 1200,
      h: 900,
      mimetype: "image/png",
      thumbnail_info: { w: 800, h: 600 },
    });
    const info = image["info"] as Record<string, unknown>;
    expect(String(info["xyz.amorgan.blurhash"])).toMatch(/^[0-9A-Za-z#$%*+,-.:;=?@[\]^_{|}~]{20,}$/);
    expect(String(info["thumbnail_url"])).toMatch(/^mxc:\/\//);
    expect(await page.evaluate(() => (window as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);

    await box().focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["pasted text file"], "pasted.txt", { type: "text/plain" }));
      const target = document.activeElement;
      target?.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await page
      .getByRole("dialog", { name: "Upload files (1)" })
      .getByRole("button", { name: "Upload" })
      .click();
    const file = await sentWith((c) => c["msgtype"] === "m.file" && c["body"] === "pasted.txt");
    expect(file["info"]).toMatchObject({ mimetype: "text/plain", size: 16 });
  }, 60_000);

  it("keeps a draft across a reload, sends /me and explains a bad command", async () => {
    await box().fill("a draft that must survive");
    // The draft is in storage before the reload (the composer saves it on every change).
    await page.waitForFunction(() =>
      Object.keys(localStorage).some(
        (k) =>
          k.startsWith("lattice.draft:") &&
          (localStorage.getItem(k) ?? "").includes("a draft that must survive"),
      ),
    );
    await page.reload();
    await openLounge(page);
    await expect.poll(() => box().inputValue(), { timeout: 20_000 }).toBe("a draft that must survive");

    await box().fill("/me waves at everyone");
    await page.keyboard.press("Enter");
    const emote = await sentWith((c) => c["body"] === "waves at everyone");
    expect(emote["msgtype"]).toBe("m.emote");

    await box().fill("/inv");
    await page
      .getByRole("listbox", { name: "Suggestions" })
      .getByRole("option", { name: /\/invite <user-id>/ })
      .waitFor();
    await page.keyboard.press("Tab");
    expect(await box().inputValue()).toBe("/invite ");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Usage: /invite <user-id>" }).waitFor();
    await box().fill("/dance");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Unknown command: /dance" }).waitFor();
    await box().fill("");
  }, 60_000);

  it("looks finished in dark mode with the emoji picker open", async () => {
    const dark = await signedIn("bob", true);
    await openLounge(dark);
    await dark.getByRole("button", { name: "Emoji" }).click();
    await dark
      .getByRole("dialog", { name: "Emoji" })
      .getByRole("button", { name: "grinning face", exact: true })
      .waitFor({ timeout: 30_000 });
    await dark.screenshot({ path: `${SHOTS}composer-emoji-dark.png` });
    expect(errors).toEqual([]);
  }, 60_000);
});
