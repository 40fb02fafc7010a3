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
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { build } from "esbuild";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HostConfig } from "./embedded/host-page";
import { startWebHarness } from "./harness";

const ROOM_NAME = "Embedded room";
let alice = "";
let bob = "";
let roomId = "";
let otherRoomId = "";

const harness = startWebHarness({
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
    await call(
      bob,
      `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/b1`,
      { msgtype: "m.text", body: "hello from bob" },
      "PUT",
    );
  },
});

let hostDir = "";
let hostServer: Server | undefined;
let hostUrl = "";

beforeAll(async () => {
  hostDir = await mkdtemp(join(tmpdir(), "lattice-embedded-host-"));
  await build({
    entryPoints: [new URL("./embedded/host-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    outfile: join(hostDir, "host.js"),
    logLevel: "silent",
  });
  await writeFile(
    join(hostDir, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body><script type="module" src="/host.js"></script></body></html>',
  );
  hostServer = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = join(hostDir, path === "/" ? "index.html" : path.replace(/^\/+/, "").replace(/\.\./g, ""));
    readFile(file).then(
      (body) => {
        res.writeHead(200, { "content-type": extname(file) === ".js" ? "text/javascript" : "text/html" });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => hostServer?.listen(0, "127.0.0.1", ok));
  hostUrl = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}/`;
}, 60_000);

afterAll(async () => {
  await new Promise((ok) => hostServer?.close(ok));
  await rm(hostDir, { recursive: true, force: true });
});

/** A host page embedding the room view; resolves with the page and the widget's frame. */
async function openHost(options: Partial<HostConfig> = {}): Promise<{ page: Page; frame: Frame }> {
  const page = await harness.newPage();
  await page.goto(hostUrl);
  const config: HostConfig = {
    homeserver: harness.server.url,
    token: alice,
    roomId,
    widgetUrl: new URL("embedded.html", harness.appUrl).toString(),
    view: "room",
    ...options,
  };
  await page.evaluate((c) => window.startHost(c), config);
  const frame = await expect
    .poll(() => page.frames().find((f) => f.url().includes("embedded.html")), { timeout: 30_000 })
    .toBeTruthy()
    .then(() => page.frames().find((f) => f.url().includes("embedded.html")));
  if (!frame) throw new Error("no widget frame");
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
  const { page, frame } = await openHost();
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
  const { page, frame } = await openHost({ holdCapabilities: true });
  expect(await errorOf(frame, { kind: "send", roomId })).toBe("Not connected yet");
  await page.evaluate(() => window.releaseCapabilities());
  await frame.getByText("hello from bob").waitFor({ timeout: 30_000 });
  expect(await errorOf(frame, { kind: "join", roomId: otherRoomId })).toBe(`Unknown room: ${otherRoomId}`);
  expect(await errorOf(frame, { kind: "send", roomId: otherRoomId })).toBe(`Unknown room: ${otherRoomId}`);
}, 120_000);

it("'widget api timeout' when the host leaves a send unanswered; the send queue retries it", async () => {
  const { page, frame } = await openHost({ hangSends: 2 });
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
