/**
 * Frame times while scrolling a 10,000-event room in the built web app:
 * the test homeserver (packages/testserver, loopback) holds the room, the
 * session goes into localStorage from a registration over HTTP, the list
 * is held at the top until every event is paged in, then scrolled down and
 * up 400 px a frame with the timeline's own probe (timeline-perf.ts).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startTestServer } from "../../packages/testserver/src/index";
import { countRows, measureScroll } from "../../packages/web/e2e/timeline-perf";
import type { FrameStats } from "../../packages/web/e2e/timeline-perf";
import { storeSession } from "./startup";

const SCROLLER = '[data-testid="timeline-scroller"]';
const ROW = "li[data-index]";

/** Load time of the whole room and the frame statistics of both directions. */
export interface ScrollResult {
  events: number;
  loadMs: number;
  rowsAtTop: number;
  down: FrameStats;
  up: FrameStats;
}

/** Runs the scroll measurement against the app at `appUrl`. */
export async function measureTimelineScroll(
  browser: Browser,
  appUrl: string,
  sessionKey: string,
  events = 10_000,
): Promise<ScrollResult> {
  const server = await startTestServer({ validate: false });
  try {
    const id = (name: string): string => `@${name}:${server.serverName}`;
    let session: object | undefined;
    for (const name of ["alice", "bob", "carol"]) {
      const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: name, password: `bench-${name}`, auth: { type: "m.login.dummy" } }),
      });
      const body = (await res.json()) as { user_id: string; access_token: string; device_id: string };
      if (name === "alice")
        session = {
          homeserverUrl: server.url,
          userId: body.user_id,
          deviceId: body.device_id,
          accessToken: body.access_token,
        };
    }
    const rooms = server.ctx.rooms;
    const room = rooms.createRoomAs(id("alice"), { name: "Ten Thousand", preset: "public_chat" });
    rooms.joinAs(id("bob"), room);
    rooms.joinAs(id("carol"), room);
    const people = ["alice", "bob", "bob", "carol", "alice"];
    for (let i = 0; i < events; i++) {
      const body =
        i % 7 === 0 ? `message ${i}: ${"a longer line of text that wraps ".repeat(4)}` : `message ${i}`;
      rooms.sendAsUser(id(people[i % people.length] ?? "alice"), room, "m.room.message", {
        msgtype: "m.text",
        body,
      });
    }
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await storeSession(context, sessionKey, session ?? {});
    const page = await context.newPage();
    await page.goto(appUrl);
    await page.getByRole("listbox", { name: "Rooms" }).getByText("Ten Thousand").click({ timeout: 60_000 });
    await page
      .locator(SCROLLER)
      .getByText(`message ${events - 1}`, { exact: true })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: join(tmpdir(), "bench-web-scroll-failed.png") });
        throw error;
      });
    const start = Date.now();
    const stuck = await page.locator(SCROLLER).evaluate(async (el) => {
      const deadline = performance.now() + 180_000;
      while (!(el.textContent ?? "").includes("This is the beginning of the room.")) {
        if (performance.now() > deadline) return el.querySelector("ol")?.style.height ?? "?";
        el.scrollTop = 0;
        await new Promise((r) => setTimeout(r, 200));
      }
      return null;
    });
    if (stuck !== null) throw new Error(`the room did not load to its start (list height ${stuck})`);
    const loadMs = Date.now() - start;
    await page.locator(SCROLLER).evaluate((el) => (el.scrollTop = 0));
    await page.locator(SCROLLER).getByText("message 1", { exact: true }).waitFor();
    const rowsAtTop = await countRows(page, SCROLLER, ROW);
    const down = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: 400, frames: 300 });
    const up = await measureScroll(page, { scroller: SCROLLER, row: ROW, stepPx: -400, frames: 150 });
    await context.close();
    return { events, loadMs, rowsAtTop, down, up };
  } finally {
    await server.stop();
  }
}
