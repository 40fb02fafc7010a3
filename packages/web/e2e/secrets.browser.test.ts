/**
 * A full session in Chromium (issue 24): alice signs in, opens rooms, sends,
 * views an image through authenticated media and a URL preview. Two
 * promises are checked over everything the session did:
 *
 * 1. The access token never leaves except in the Authorization header of a
 *    request to the homeserver: it is in no request URL (the context's
 *    request events, service worker included), in no other header or
 *    destination, in no console message, in no postMessage of any frame,
 *    port, worker or channel, and in nothing the previewed page was sent
 *    (the homeserver's fetch). The web app hosts no widgets, so there is no
 *    widget message to check beyond the postMessage hook. A control shows
 *    the hooks catch a token that does leak.
 * 2. URL previews follow the policy: a member's link is previewed (its card
 *    shows), while a notice's link and a stranger's link (carol posted and
 *    left: no shared room) are never asked for, so the page they point at
 *    is never visited.
 */
import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAs, passwordOf, registerUser, startWebHarness } from "./harness";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

let pageServer: Server;
let pageUrl = "";
/** What the previewed pages were sent: path and headers of each visit. */
const visits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  pageServer = createServer((req, res) => {
    visits.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<html><head><title>t</title><meta property="og:title" content="Preview of ${req.url ?? ""}">` +
        `<meta property="og:description" content="A page on loopback"></head></html>`,
    );
  });
  await new Promise<void>((r) => pageServer.listen(0, "127.0.0.1", () => r()));
  const address = pageServer.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  pageUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise((r) => pageServer?.close(r));
});

let lobby = "";
let bobToken = "";

async function send(token: string, roomId: string, content: Record<string, unknown>): Promise<void> {
  await callAs(
    web.server.url,
    token,
    `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t${Date.now()}${Math.random()}`,
    content,
    "PUT",
  );
}

const web = startWebHarness({
  async seed(server) {
    const [, bob, carol] = await Promise.all([
      registerUser(server.url, "alice"),
      registerUser(server.url, "bob"),
      registerUser(server.url, "carol"),
    ]);
    bobToken = bob;
    const { room_id: roomId } = await callAs(server.url, bob, "/createRoom", {
      name: "Lobby",
      preset: "public_chat",
    });
    lobby = String(roomId);
    await callAs(server.url, bob, "/createRoom", { name: "Annex", preset: "public_chat", invite: [] });
    // carol's link, posted before she leaves: from then on she shares no room with alice.
    await callAs(server.url, carol, `/join/${encodeURIComponent(lobby)}`);
    // Filled in once the page server listens (seed runs in the harness's beforeAll, after ours).
    const url = (path: string): string => `${pageUrl}${path}`;
    await send(carol, lobby, { msgtype: "m.text", body: `carol's link ${url("/stranger")}` });
    await callAs(server.url, carol, `/rooms/${encodeURIComponent(lobby)}/leave`);
    await send(bob, lobby, { msgtype: "m.notice", body: `bot notice ${url("/notice")}` });
    const upload = await fetch(`${server.url}/_matrix/media/v3/upload?filename=dots.png`, {
      method: "POST",
      headers: { authorization: `Bearer ${bob}`, "content-type": "image/png" },
      body: PNG,
    });
    const { content_uri: mxc } = (await upload.json()) as { content_uri: string };
    await send(bob, lobby, {
      msgtype: "m.image",
      body: "dots.png",
      url: mxc,
      info: { w: 200, h: 150, mimetype: "image/png", size: PNG.length },
    });
  },
});

/** Records every postMessage of every frame, port, worker and channel, and what workers post back. */
function hookMessages(): void {
  const w = window as unknown as { __posted: string[] };
  w.__posted = [];
  const record = (data: unknown): void => {
    try {
      w.__posted.push(typeof data === "string" ? data : JSON.stringify(data));
    } catch {
      w.__posted.push(String(data));
    }
  };
  const wrap = (proto: { postMessage: (...a: unknown[]) => void } | undefined): void => {
    if (proto === undefined) return;
    const original = proto.postMessage;
    proto.postMessage = function (this: unknown, ...args: unknown[]) {
      record(args[0]);
      original.apply(this, args);
    };
  };
  wrap(Window.prototype as unknown as { postMessage: (...a: unknown[]) => void });
  wrap(MessagePort.prototype as unknown as { postMessage: (...a: unknown[]) => void });
  wrap(Worker.prototype as unknown as { postMessage: (...a: unknown[]) => void });
  wrap(BroadcastChannel.prototype);
  if (typeof ServiceWorker !== "undefined")
    wrap(ServiceWorker.prototype as unknown as { postMessage: (...a: unknown[]) => void });
  // Messages arriving in this frame, from any window or worker.
  window.addEventListener("message", (e) => record(e.data), true);
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener("message", (e) => record(e.data));
    }
  };
}

interface Seen {
  requests: Array<{ url: string; headers: Record<string, string> }>;
  console: string[];
}

async function signInWatched(page: Page, seen: Seen): Promise<void> {
  page.context().on("request", (req) => {
    // allHeaders is async; headers() has what the page set, which is where a token would be.
    seen.requests.push({ url: req.url(), headers: req.headers() });
  });
  page.on("console", (msg) => seen.console.push(msg.text()));
  await page.context().addInitScript(hookMessages);
  await page.goto(web.appUrl, { timeout: 60_000 });
  await page.getByTestId("homeserver").filter({ hasText: web.server.url }).waitFor();
  await page.getByLabel("Username").fill("alice");
  await page.getByLabel("Password", { exact: true }).fill(passwordOf("alice"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 30_000 });
}

/** Every place the token was found other than a homeserver request's Authorization header. */
async function leaksOf(token: string, seen: Seen, page: Page): Promise<string[]> {
  const hs = new URL(web.server.url).origin;
  const leaks: string[] = [];
  for (const r of seen.requests) {
    if (r.url.includes(token)) leaks.push(`URL ${r.url}`);
    for (const [name, value] of Object.entries(r.headers)) {
      if (!value.includes(token)) continue;
      const allowed = name.toLowerCase() === "authorization" && new URL(r.url).origin === hs;
      if (!allowed) leaks.push(`header ${name} to ${r.url}`);
    }
  }
  for (const line of seen.console) if (line.includes(token)) leaks.push(`console: ${line.slice(0, 200)}`);
  for (const frame of page.frames()) {
    const posted = await frame
      .evaluate(() => (window as unknown as { __posted?: string[] }).__posted ?? [])
      .catch(() => [] as string[]);
    for (const p of posted)
      if (p.includes(token)) leaks.push(`postMessage in ${frame.url()}: ${p.slice(0, 200)}`);
  }
  for (const v of visits) {
    if (v.url.includes(token) || JSON.stringify(v.headers).includes(token))
      leaks.push(`preview fetch ${v.url}`);
  }
  return leaks;
}

describe("a full session", () => {
  it("keeps the access token to homeserver Authorization headers, and previews only what the policy allows", async () => {
    const page = await web.newPage();
    const seen: Seen = { requests: [], console: [] };
    await signInWatched(page, seen);
    const auth = seen.requests
      .map((r) => r.headers["authorization"])
      .find((h): h is string => h?.startsWith("Bearer ") === true);
    expect(auth, "the app sent an authorised request").toBeDefined();
    const token = (auth ?? "").slice("Bearer ".length);
    expect(token.length).toBeGreaterThan(8);

    // Open rooms: join the lobby (public), visit the annex too.
    await page.goto(`${web.appUrl}#/room/${encodeURIComponent(lobby)}`);
    const prompt = page.getByTestId("join-prompt");
    await prompt.getByRole("button", { name: "Join room" }).click();
    await page.getByRole("heading", { name: "Lobby", level: 2 }).waitFor({ timeout: 30_000 });

    // bob's link, after alice joined: a member's link, previewed.
    await send(bobToken, lobby, { msgtype: "m.text", body: `have a look: ${pageUrl}/member` });
    const card = page.getByTestId("url-preview");
    await card.filter({ hasText: "Preview of /member" }).waitFor({ timeout: 30_000 });

    // Send; view the image and its lightbox (authenticated media).
    const composer = page.getByTestId("composer").locator("textarea");
    await composer.fill("hello from alice");
    await composer.press("Enter");
    await page.locator("article").filter({ hasText: "hello from alice" }).waitFor();
    await page.getByRole("img", { name: "dots.png" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Open image dots.png" }).click();
    await page.getByRole("dialog", { name: "Image viewer" }).getByRole("img").waitFor();
    await page.keyboard.press("Escape");

    // The notice's and the stranger's links: shown, never previewed.
    await page.locator("article").filter({ hasText: "bot notice" }).waitFor();
    await page.locator("article").filter({ hasText: "carol's link" }).waitFor();
    await page.waitForTimeout(1_000);
    expect(await card.count()).toBe(1);
    expect(visits.map((v) => v.url)).toEqual(["/member"]);
    const previewAsks = seen.requests.filter((r) => r.url.includes("/preview_url")).map((r) => r.url);
    expect(previewAsks.some((u) => /notice|stranger/.test(decodeURIComponent(u)))).toBe(false);

    await page.getByRole("listbox", { name: "Rooms" }).getByText("Lobby", { exact: true }).click();
    expect(await leaksOf(token, seen, page)).toEqual([]);

    // Control: a token that does leak, in a URL, a console line and a postMessage, is caught.
    await page.evaluate((t) => {
      console.log(`leaked ${t}`);
      window.postMessage({ leaked: t }, "*");
      void fetch(`/control?token=${t}`).catch(() => undefined);
    }, token);
    await page.waitForFunction(
      (t) => ((window as unknown as { __posted: string[] }).__posted ?? []).some((p) => p.includes(t)),
      token,
    );
    const caught = await leaksOf(token, seen, page);
    expect(caught.some((l) => l.startsWith("URL "))).toBe(true);
    expect(caught.some((l) => l.startsWith("console: "))).toBe(true);
    expect(caught.some((l) => l.startsWith("postMessage "))).toBe(true);
  }, 180_000);
});
