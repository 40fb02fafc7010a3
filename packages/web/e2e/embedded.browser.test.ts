/**
 * Lattice's embedded room view inside a host no one here wrote:
 * matrix-widget-api's ClientWidgetApi in a Chromium page on another origin
 * (a second 127.0.0.1 port), whose driver talks to the test homeserver with
 * the host user's own token (e2e/embedded/host-page.ts). The room view
 * shows what a normal client sends, and what it sends reaches the normal
 * client; the host's theme change reaches it. Then the SPEC §8 errors
 * through that real transport: 'Not connected yet' while the host holds the
 * capability approval, 'Unknown room: {room}' for a room the host did not
 * grant, and 'widget api timeout' for a send the host never answers, which
 * the send queue then retries until the normal client sees the message.
 * History older than the host's first read comes by scrolling back (reads
 * with larger limits); images go both ways through the host's MSC4039
 * upload_file and download_file.
 */
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HostConfig } from "./embedded/host-page";
import { openHost, serveHostPage } from "./embedded/host-server";
import { startWebHarness } from "./harness";
import type { ServedFolder } from "./serve-folder";

const ROOM_NAME = "Embedded room";
/** Messages before the last one: more than the first read (30) shows. */
const HISTORY = 40;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);
let alice = "";
let bob = "";
let roomId = "";
let otherRoomId = "";

// The embedded page as it ships: served by its own Vite configuration (vite.embedded.config.ts).
const harness = startWebHarness({
  config: "embedded",
  seed: async (server) => {
    const call = async (token: string | undefined, path: string, body: unknown = {}, method = "POST") => {
      const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const register = async (name: string) =>
      String(
        (
          await call(undefined, "/register", {
            username: name,
            password: `${name}-pw`,
            auth: { type: "m.login.dummy" },
          })
        )["access_token"],
      );
    [alice, bob] = await Promise.all([register("alice"), register("bob")]);
    roomId = String(
      (await call(alice, "/createRoom", { preset: "public_chat", name: ROOM_NAME }))["room_id"],
    );
    otherRoomId = String(
      (await call(bob, "/createRoom", { preset: "public_chat", name: "Elsewhere" }))["room_id"],
    );
    await call(bob, `/join/${encodeURIComponent(roomId)}`);
    for (let i = 1; i <= HISTORY; i++)
      await call(
        bob,
        `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/h${i}`,
        { msgtype: "m.text", body: `history ${i}` },
        "PUT",
      );
    await call(
      bob,
      `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/b1`,
      { msgtype: "m.text", body: "hello from bob" },
      "PUT",
    );
  },
});

let host: ServedFolder | undefined;

beforeAll(async () => {
  host = await serveHostPage();
  // Warm the dev server: a first load can make Vite optimise dependencies and reload the page,
  // which would restart the widget under a host that already negotiated with it.
  const warm = await harness.newPage();
  await warm.goto(new URL("embedded.html", harness.appUrl).toString());
  await warm.getByText("Missing parameters", { exact: false }).waitFor({ timeout: 90_000 });
  await warm.waitForLoadState("networkidle");
  await warm.close();
}, 150_000);

afterAll(async () => {
  await host?.close();
});

/** A host page embedding the room view; resolves with the page and the widget's frame. */
async function openHostPage(options: Partial<HostConfig> = {}): Promise<{ page: Page; frame: Frame }> {
  const page = await harness.newPage();
  const frame = await openHost(page, host?.url ?? "", {
    homeserver: harness.server.url,
    token: alice,
    roomId,
    widgetUrl: new URL("embedded.html", harness.appUrl).toString(),
    view: "room",
    ...options,
  });
  return { page, frame };
}

/** Runs `request` against the widget's embedded client and resolves with its error message ("" when it succeeded). */
async function errorOf(frame: Frame, request: { kind: "send" | "join"; roomId: string }): Promise<string> {
  await frame.waitForFunction(() => "latticeEmbedded" in window, undefined, { timeout: 30_000 });
  return frame.evaluate(async ({ kind, roomId: room }) => {
    type Client = {
      http: { request(o: unknown): Promise<unknown> };
      moderation: { join(room: string): Promise<unknown> };
    };
    const app = (window as unknown as { latticeEmbedded: { embeddedClient: Client | null } }).latticeEmbedded;
    for (let i = 0; i < 200 && app.embeddedClient === null; i++) await new Promise((r) => setTimeout(r, 50));
    const client = app.embeddedClient;
    if (client === null) return "no client";
    try {
      if (kind === "join") await client.moderation.join(room);
      else
        await client.http.request({
          method: "PUT",
          path: `/rooms/${encodeURIComponent(room)}/send/m.room.message/probe${Date.now()}`,
          body: { msgtype: "m.text", body: "probe" },
        });
      return "";
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }, request);
}

/** The bodies of the room's last messages, as bob's own connection sees them. */
async function bobSees(): Promise<Array<{ sender: string; body: string }>> {
  const res = await fetch(
    `${harness.server.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=30`,
    { headers: { authorization: `Bearer ${bob}` } },
  );
  const json = (await res.json()) as { chunk: Array<{ sender: string; content: { body?: unknown } }> };
  return json.chunk.map((e) => ({
    sender: e.sender,
    body: typeof e.content.body === "string" ? e.content.body : "",
  }));
}

async function bobSends(body: string): Promise<void> {
  await fetch(
    `${harness.server.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/b${Date.now()}`,
    {
      method: "PUT",
      headers: { authorization: `Bearer ${bob}`, "content-type": "application/json" },
      body: JSON.stringify({ msgtype: "m.text", body }),
    },
  );
}

it("the room view in matrix-widget-api's host reads and sends what a normal client sees", async () => {
  const { page, frame } = await openHostPage();
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  expect(await frame.locator("h1").textContent()).toBe(ROOM_NAME);
  expect(await page.evaluate(() => window.hostReady)).toBe(true);

  const composer = frame.getByPlaceholder(`Message ${ROOM_NAME}…`);
  await composer.fill("hello from the widget");
  await composer.press("Enter");
  await expect
    .poll(async () => (await bobSees()).find((m) => m.body === "hello from the widget")?.sender, {
      timeout: 20_000,
    })
    .toMatch(/^@alice:/);

  await bobSends("bob answers");
  await frame.getByText("bob answers").waitFor({ timeout: 20_000 });

  // The host's theme change reaches the page.
  await page.evaluate(() => window.setHostTheme("dark"));
  await expect
    .poll(() => frame.evaluate(() => document.documentElement.getAttribute("data-theme")), {
      timeout: 10_000,
    })
    .toBe("dark");
}, 120_000);

it("'Not connected yet' before the host approves, 'Unknown room: {room}' for another room", async () => {
  const { page, frame } = await openHostPage({ holdCapabilities: true });
  expect(await errorOf(frame, { kind: "send", roomId })).toBe("Not connected yet");
  await page.evaluate(() => window.releaseCapabilities());
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  expect(await errorOf(frame, { kind: "join", roomId: otherRoomId })).toBe(`Unknown room: ${otherRoomId}`);
  expect(await errorOf(frame, { kind: "send", roomId: otherRoomId })).toBe(`Unknown room: ${otherRoomId}`);
}, 120_000);

it("'widget api timeout' when the host leaves a send unanswered; the send queue retries it", async () => {
  const { page, frame } = await openHostPage({ hangSends: 2 });
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  expect(await errorOf(frame, { kind: "send", roomId })).toBe("widget api timeout");
  const composer = frame.getByPlaceholder(`Message ${ROOM_NAME}…`);
  await composer.fill("sent after a time-out");
  await composer.press("Enter");
  await expect
    .poll(async () => (await bobSees()).some((m) => m.body === "sent after a time-out"), { timeout: 40_000 })
    .toBe(true);
  // One unanswered probe, one unanswered first attempt, then the retry that went through.
  expect(await page.evaluate(() => window.hostSends)).toBeGreaterThanOrEqual(3);
}, 120_000);

it("scrolling back shows the history before the host's first read", async () => {
  const { page, frame } = await openHostPage();
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  const scroller = frame.getByTestId("timeline-scroller");
  const oldest = frame.getByText("history 1", { exact: true });
  for (let i = 0; i < 30 && (await oldest.count()) === 0; i++) {
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.waitForTimeout(300);
  }
  await oldest.waitFor({ timeout: 10_000 });
  // The oldest pages joined up, in order and once each (the timeline renders only what is near the view).
  const second = frame.getByText("history 2", { exact: true });
  expect(await oldest.count()).toBe(1);
  expect(await second.count()).toBe(1);
  expect((await oldest.boundingBox())?.y ?? 0).toBeLessThan((await second.boundingBox())?.y ?? 0);
  const limits = await page.evaluate(() => window.hostReadLimits);
  expect(limits).toContain(30);
  expect(Math.max(...limits)).toBeGreaterThan(30);
}, 120_000);

it("images go both ways through the host's upload_file and download_file", async () => {
  const { page, frame } = await openHostPage();
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  const chooser = page.waitForEvent("filechooser");
  await frame.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
  const dialog = frame.getByRole("dialog", { name: "Upload files (1)" });
  await dialog.getByRole("button", { name: "Upload" }).click();
  const sent = await expect
    .poll(async () => (await bobSeesContent()).find((c) => c["filename"] === "dot.png"), { timeout: 30_000 })
    .toMatchObject({ msgtype: "m.image", url: expect.stringMatching(/^mxc:\/\//) as unknown })
    .then(async () => (await bobSeesContent()).find((c) => c["filename"] === "dot.png"));
  expect(await page.evaluate(() => window.hostUploads)).toBeGreaterThanOrEqual(1);
  // The normal client downloads the same bytes.
  const mxc = String(sent?.["url"]).replace(/^mxc:\/\//, "");
  const got = await fetch(`${harness.server.url}/_matrix/client/v1/media/download/${mxc}`, {
    headers: { authorization: `Bearer ${bob}` },
  });
  expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);

  // Bob's picture shows in the widget, fetched through the host.
  const up = await fetch(`${harness.server.url}/_matrix/media/v3/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${bob}`, "content-type": "image/png" },
    body: PNG,
  });
  const { content_uri } = (await up.json()) as { content_uri: string };
  await fetch(
    `${harness.server.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/img${Date.now()}`,
    {
      method: "PUT",
      headers: { authorization: `Bearer ${bob}`, "content-type": "application/json" },
      body: JSON.stringify({
        msgtype: "m.image",
        body: "bob.png",
        url: content_uri,
        info: { mimetype: "image/png", w: 2, h: 2, size: PNG.length },
      }),
    },
  );
  await expect
    .poll(
      () =>
        frame.evaluate(() =>
          [...document.querySelectorAll("img")].some(
            (img) => img.src.startsWith("blob:") && img.naturalWidth === 2 && img.alt.includes("bob.png"),
          ),
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(await page.evaluate(() => window.hostDownloads)).toBeGreaterThanOrEqual(1);
}, 120_000);

/** The contents of the room's last messages, as bob's own connection sees them. */
async function bobSeesContent(): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(
    `${harness.server.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=30`,
    { headers: { authorization: `Bearer ${bob}` } },
  );
  const json = (await res.json()) as { chunk: Array<{ content: Record<string, unknown> }> };
  return json.chunk.map((e) => e.content);
}
