/**
 * Interop in Chromium over two origins (two loopback ports):
 * (a) matrix-widget-api's WidgetApi in the iframe against Lattice's host;
 * (b) Lattice's widget side against matrix-widget-api's ClientWidgetApi.
 * Both run the same script of every widget-channel action (SPEC §7) and
 * their request/error pairs are compared, modulo Lattice's documented
 * message differences. One browser launch, two pages.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Outcome } from "./browser/pages/scenarios";
import { normalise, SCENARIOS } from "./browser/pages/scenarios";

const PAGES = resolve(import.meta.dirname, "browser/pages");
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

let outDir = "";
let browser: Browser | undefined;
const servers: Server[] = [];
let hostOrigin = "";
let widgetOrigin = "";

function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    const file = join(dir, path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () =>
      ok({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "lattice-widget-interop-"));
  await build({
    configFile: false,
    root: PAGES,
    logLevel: "silent",
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: {
        input: Object.fromEntries(
          ["ourHost", "refHost", "ourWidget", "refWidget", "evil"].map((n) => [n, join(PAGES, `${n}.html`)]),
        ),
      },
    },
  });
  for (const _ of [0, 1]) servers.push((await serve(outDir)).server);
  [hostOrigin, widgetOrigin] = servers.map(
    (s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
  ) as [string, string];
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

interface Run {
  fromWidget: Outcome[];
  highLevel: Record<string, unknown>;
  toWidget: Outcome[];
  received: string[];
  errors: string[];
}

async function runPairing(hostPage: string, widgetPage: string): Promise<Run> {
  const page: Page = await browser!.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on(
    "console",
    (m) => process.env["WIDGET_INTEROP_DEBUG"] && console.log(hostPage, m.type(), m.text().slice(0, 300)),
  );
  page.on(
    "pageerror",
    (e) => process.env["WIDGET_INTEROP_DEBUG"] && console.log(hostPage, "pageerror", e.message),
  );
  const widgetUrl = `${widgetOrigin}/${widgetPage}.html`;
  await page.goto(`${hostOrigin}/${hostPage}.html?widget=${encodeURIComponent(widgetUrl)}`);
  await page.waitForFunction(() => window.hostReady === true, undefined, { timeout: 15_000 });
  const frame: Frame | undefined = page.frames().find((f) => f.url().startsWith(widgetUrl));
  if (!frame) throw new Error("widget frame not found");
  expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin);
  await frame.waitForFunction(() => window.widgetReady === true, undefined, { timeout: 15_000 });
  const { outcomes, highLevel } = await frame.evaluate(() => window.runFromWidget!());
  const toWidget = await page.evaluate(() => window.runToWidget!());
  const received = await frame.evaluate(() => window.receivedActions ?? []);
  await page.close();
  return { fromWidget: outcomes, highLevel, toWidget, received, errors };
}

const TO_WIDGET_ACTIONS = [
  "supported_api_versions",
  "capabilities",
  "notify_capabilities",
  "openid_credentials",
  "update_turn_servers",
  "update_state",
  "theme_change",
  "language_change",
  "visibility",
  "widget_config",
  "button_clicked",
  "close_modal",
  "screenshot",
  "send_event",
  "send_to_device",
];

describe("interop with matrix-widget-api in Chromium over two origins", () => {
  let refWidgetOnOurHost: Run;
  let ourWidgetOnRefHost: Run;

  beforeAll(async () => {
    refWidgetOnOurHost = await runPairing("ourHost", "refWidget");
    ourWidgetOnRefHost = await runPairing("refHost", "ourWidget");
  });

  it("runs every scenario in both pairings without page errors", () => {
    for (const run of [refWidgetOnOurHost, ourWidgetOnRefHost]) {
      expect(run.errors).toEqual([]);
      expect(run.fromWidget.map((o) => o.name)).toEqual(SCENARIOS.map((s) => s[0]));
    }
  });

  it("gives the same request/error pairs both ways", () => {
    const norm = (os: Outcome[]) => os.map((o) => ({ ...o, error: normalise(o.error) }));
    expect(norm(refWidgetOnOurHost.fromWidget)).toEqual(norm(ourWidgetOnRefHost.fromWidget));
  });

  it("produces the SPEC's messages from Lattice's host", () => {
    const errors = Object.fromEntries(refWidgetOnOurHost.fromWidget.map((o) => [o.name, o.error ?? "ok"]));
    expect(errors).toMatchObject({
      "content loaded (not expected)":
        "Improper sequence: not expecting ContentLoaded event if waitForIframeLoad is true",
      "send event": "ok",
      "send event: missing type": "Invalid request - missing event type",
      "send message: denied msgtype": "Cannot send room events of this type",
      "send state: denied key": "Cannot send state events of this type",
      "send: other room": "Unable to access room timeline: !other:example.org",
      "to-device: missing type": "Invalid request - missing event type",
      "to-device: missing messages": "Invalid request - missing event contents",
      "to-device: missing encryption flag": "Invalid request - missing encryption flag",
      "to-device: denied type": "Cannot send to-device events of this type",
      "navigate: bad uri": "Invalid matrix.to URI",
      "read events: missing type": "Invalid request - missing event type",
      "read events: limit zero": "Invalid request - limit out of range",
      "read events: denied room events": "Cannot read room events of this type",
      "read events: denied state": "Cannot read state events of this type",
      "read events: other room": "Unable to access room timeline: !other:example.org",
      "relations: missing event id": "Invalid request - missing event ID",
      "relations: negative limit": "Invalid request - limit out of range",
      "user search: term not a string": "Invalid request - missing search term",
      "user search: negative limit": "Invalid request - limit out of range",
      "room account data: denied": "Cannot read room account data of this type",
      "delayed update: missing delay_id": "Invalid request - missing delay_id",
      "delayed update: bad action": "Invalid request - unsupported action",
      "modal close button": "The close button cannot be disabled",
      "unknown action": "Unknown or unsupported action: org.example.nope",
    });
  });

  it("serves the high-level calls of both widget libraries", () => {
    for (const run of [refWidgetOnOurHost, ourWidgetOnRefHost]) {
      expect(run.highLevel).toEqual({
        openid: "tok",
        turn: { uris: ["turn:turn.example.org"], username: "u", password: "p" },
        closeButton: "The close button cannot be disabled",
        navigate: "Invalid matrix.to URI",
      });
    }
  });

  it("delivers every client-to-widget action both ways", () => {
    for (const run of [refWidgetOnOurHost, ourWidgetOnRefHost]) {
      expect(run.toWidget.filter((o) => !o.ok)).toEqual([]);
      expect(new Set(run.received)).toEqual(new Set(TO_WIDGET_ACTIONS));
    }
    expect(refWidgetOnOurHost.toWidget.find((o) => o.name === "screenshot")?.keys).toEqual(["screenshot"]);
  });
});

describe("host hardening in Chromium", () => {
  it("ignores impostor frames and the wrong origin, answers 10 MB and malformed requests, keeps serving", async () => {
    const page = await browser!.newPage();
    const widgetUrl = `${widgetOrigin}/refWidget.html`;
    // One impostor on the widget's own origin, one on the host's origin: both reuse the widget id.
    const impostors = [`${widgetOrigin}/evil.html`, `${hostOrigin}/evil.html`]
      .map((u) => `&impostor=${encodeURIComponent(u)}`)
      .join("");
    await page.goto(`${hostOrigin}/ourHost.html?widget=${encodeURIComponent(widgetUrl)}${impostors}`);
    await page.waitForFunction(() => window.hostReady === true, undefined, { timeout: 15_000 });
    const widget = page.frames().find((f) => f.url().startsWith(widgetUrl))!;
    const evilFrames = page.frames().filter((f) => f.url().includes("/evil.html"));
    expect(evilFrames).toHaveLength(2);
    // Let the impostors post their requests before the real widget's round trips.
    for (const f of evilFrames)
      await f.waitForFunction(() => "evilReplies" in window, undefined, { timeout: 15_000 });
    const replies = await widget.evaluate(async (host) => {
      const got = new Map<string, unknown>();
      window.addEventListener("message", (ev: MessageEvent<{ requestId?: string; response?: unknown }>) => {
        if (ev.data.requestId && ev.data.response) got.set(ev.data.requestId, ev.data.response);
      });
      const env = { api: "fromWidget", widgetId: "interop-widget" };
      window.parent.postMessage(
        {
          ...env,
          requestId: "big",
          action: "send_event",
          data: { type: "m.reaction", content: { body: "x".repeat(10 * 1024 * 1024 + 1) } },
        },
        host,
      );
      window.parent.postMessage(
        { ...env, requestId: "malformed", action: "supported_api_versions", data: "nope" },
        host,
      );
      window.parent.postMessage(
        { api: "fromWidget", requestId: "no-widget-id", action: "supported_api_versions", data: {} },
        host,
      );
      window.parent.postMessage("junk", host);
      window.parent.postMessage(
        { ...env, requestId: "after", action: "supported_api_versions", data: {} },
        host,
      );
      for (let i = 0; i < 100 && !got.has("after"); i++) await new Promise((r) => setTimeout(r, 20));
      return Object.fromEntries(got);
    }, hostOrigin);
    expect(replies["big"]).toEqual({ error: { message: "Invalid request - payload too large" } });
    // data that is not an object reaches the action as {}; supported_api_versions needs none.
    expect(replies["malformed"]).toMatchObject({ supported_versions: expect.any(Array) });
    expect(replies["no-widget-id"]).toBeUndefined();
    expect(replies["after"]).toMatchObject({ supported_versions: expect.any(Array) });
    for (const f of evilFrames) {
      expect(await f.evaluate(() => (window as unknown as { evilReplies: unknown[] }).evilReplies)).toEqual(
        [],
      );
    }
    const handled = await page.evaluate(() => (window as unknown as { hostActions: string[] }).hostActions);
    expect(handled.filter((id) => id.startsWith("evil-"))).toEqual([]);
    await page.close();
  });
});
