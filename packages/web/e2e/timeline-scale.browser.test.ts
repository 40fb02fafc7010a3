/**
 * The timeline at scale, in the production build (served by `vite
 * preview`, as users get it): a room of 2,000 messages is paged in to its
 * start by holding the list at the top, then the DOM must hold under 200
 * rows while scrolling down and up (400 px a frame), with no page error.
 * Frame times are not checked here (they measure the machine as much as
 * the code): bench/web records them for 10,000 events against its targets
 * (`npx tsx bench/web/run.ts --only-scroll`), with the same page code
 * (timeline-perf.ts).
 */
import { mkdir } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { launchChromium, serveBuiltApp } from "./browser";
import type { BuiltApp } from "./browser";
import { SHOTS, registerUser } from "./harness";
import { countRows, measureScroll } from "./timeline-perf";

const SCROLLER = '[data-testid="timeline-scroller"]';
const ROW = "li[data-index]";
const EVENTS = 2_000;

let server: TestServerHandle;
let app: BuiltApp;
let url: string;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  const rooms = server.ctx.rooms;
  const id = (name: string): string => `@${name}:${server.serverName}`;
  for (const name of ["alice", "bob", "carol"]) await registerUser(server.url, name, `lattice-${name}`);
  // Written in-process: 2,000 messages from three people, every seventh one long enough to wrap.
  const room = rooms.createRoomAs(id("alice"), { name: "Two Thousand", preset: "public_chat" });
  rooms.joinAs(id("bob"), room);
  rooms.joinAs(id("carol"), room);
  const people = ["alice", "bob", "bob", "carol", "alice"];
  for (let i = 0; i < EVENTS; i++) {
    const body =
      i % 7 === 0 ? `message ${i}: ${"a longer line of text that wraps ".repeat(4)}` : `message ${i}`;
    rooms.sendAsUser(id(people[i % people.length] ?? "alice"), room, "m.room.message", {
      msgtype: "m.text",
      body,
    });
  }
  [app, browser] = await Promise.all([
    // React's production build: vitest sets NODE_ENV=test, which would bundle the much slower development build.
    serveBuiltApp({ homeserver: server.url, production: true }),
    launchChromium(),
    mkdir(SHOTS, { recursive: true }),
  ]);
  url = app.url;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await server?.stop();
});

it("keeps a 2,000-event room to a few DOM rows while scrolling", async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url, { timeout: 60_000 });
  await page.getByLabel("Username").fill("alice");
  await page.getByLabel("Password", { exact: true }).fill("lattice-alice");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("listbox", { name: "Rooms" }).getByText("Two Thousand").click({ timeout: 30_000 });
  await page
    .locator(SCROLLER)
    .getByText(`message ${EVENTS - 1}`, { exact: true })
    .waitFor({ timeout: 30_000 });

  // Hold the list at the top until the start of the room shows: every event gets loaded.
  const stuck = await page.locator(SCROLLER).evaluate(async (el) => {
    const deadline = performance.now() + 120_000;
    while (!(el.textContent ?? "").includes("This is the beginning of the room.")) {
      if (performance.now() > deadline) return el.querySelector("ol")?.style.height ?? "?";
      // Back to the top once a step has landed (the list keeps the reader's place as rows prepend).
      el.scrollTop = 0;
      await new Promise((r) => setTimeout(r, 200));
    }
    return null;
  });
  if (stuck !== null) throw new Error(`the room did not load to its start (list height ${stuck})`);
  await page.locator(SCROLLER).evaluate((el) => (el.scrollTop = 0));
  await page.locator(SCROLLER).getByText("message 1", { exact: true }).waitFor();
  expect(await countRows(page, SCROLLER, ROW)).toBeLessThan(200);

  const down = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: 400, frames: 120 });
  const up = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: -400, frames: 60 });
  expect(Math.max(down.maxRows, up.maxRows)).toBeLessThan(200);
  // Scrolled back up 60 x 400 px from 120 x 400 px down: the list is away from both ends, rows still shown.
  expect(await countRows(page, SCROLLER, ROW)).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}timeline-2k.png` });
  expect(errors).toEqual([]);
  await context.close();
}, 240_000);
