/**
 * The render budget per message (issue 24): opening a room whose one message
 * is a worst case (a 60,000-character word as the plain body, in formatted
 * HTML, as a spoiler's reason; nesting far past the depth cap; a thousand
 * mentions) costs at most RENDER_BUDGET_MS more main-thread layout than
 * opening a room whose message is "hello". Layout time is Chrome's own
 * counter (CDP Performance.getMetrics LayoutDuration), read around the room
 * switch; each room is opened several times, interleaved with the baseline,
 * and the least of each is compared, so another process taking the CPU
 * cannot fail the test, while a message that costs seconds of layout (as a
 * long word did) fails it by far. The whole task time is bounded too, more
 * loosely (RENDER_TASK_BUDGET_MS), since it holds script and style as well.
 */
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { callAs, registerUser, startWebHarness } from "./harness";

/** Layout a message may cost beyond the baseline message's (ms). */
const RENDER_BUDGET_MS = 16;
/** All main-thread work (script, style, layout) a message may cost beyond the baseline's (ms). */
const RENDER_TASK_BUDGET_MS = 150;
/** Times each room is opened; the least is kept. */
const RUNS = 3;

/**
 * The worst word found: characters with no break, each drawn from a
 * different script block (Cyrillic, Arabic, Indic, Thai, Hangul, kana, Han),
 * so almost every character is its own shaping run with its own font
 * fallback. A word of one script costs little; this one costs a second or
 * more of layout per render.
 */
function hostileWord(length: number): string {
  const blocks: [number, number][] = [
    [0x0400, 0x04ff],
    [0x0600, 0x06ff],
    [0x0900, 0x0dff],
    [0x0e00, 0x0e7f],
    [0x3040, 0x30ff],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
  ];
  let seed = 24;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  let out = "lattice";
  while (out.length < length) {
    const [lo, hi] = blocks[next() % blocks.length] ?? [0x61, 0x7a];
    out += String.fromCharCode(lo + (next() % (hi - lo + 1)));
  }
  return out.slice(0, length);
}
/** A 60,000-character word (the case); ASCII, so the event stays under 64 KiB. */
const WORD = "lattice".repeat(Math.ceil(60_000 / 7)).slice(0, 60_000);
/** The hostile word as long as a 64 KiB event allows (3 bytes a character). */
const MIXED = hostileWord(20_000);

const CASES: Record<string, Record<string, unknown>> = {
  Baseline: { msgtype: "m.text", body: "hello" },
  "Word body": { msgtype: "m.text", body: WORD },
  "Mixed body": { msgtype: "m.text", body: MIXED },
  "Mixed html": {
    msgtype: "m.text",
    body: "word",
    format: "org.matrix.custom.html",
    formatted_body: `<b>${MIXED}</b>`,
  },
  "Spoiler reason": {
    msgtype: "m.text",
    body: "spoiler",
    format: "org.matrix.custom.html",
    formatted_body: `<span data-mx-spoiler="${MIXED}">the secret</span>`,
  },
  "Deep nesting": {
    msgtype: "m.text",
    body: "deep",
    format: "org.matrix.custom.html",
    formatted_body: `${"<blockquote><div>".repeat(1_000)}bottom${"</div></blockquote>".repeat(1_000)}`,
  },
  Mentions: {
    msgtype: "m.text",
    body: "mentions",
    format: "org.matrix.custom.html",
    formatted_body: Array.from(
      { length: 900 },
      (_, i) => `<a href="https://matrix.to/#/@bob:localhost">bob ${i}</a>`,
    ).join(" "),
  },
};

const web = startWebHarness({
  async seed(server) {
    const [alice, bob] = await Promise.all([
      registerUser(server.url, "alice"),
      registerUser(server.url, "bob"),
    ]);
    for (const [name, content] of Object.entries(CASES)) {
      const { room_id: roomId } = await callAs(server.url, bob, "/createRoom", {
        name,
        preset: "public_chat",
      });
      const id = encodeURIComponent(String(roomId));
      await callAs(server.url, alice, `/join/${id}`);
      await callAs(server.url, bob, `/rooms/${id}/send/m.room.message/t-${name.length}`, content, "PUT");
    }
  },
});

interface Cost {
  layout: number;
  task: number;
}

async function metrics(cdp: CDPSession): Promise<Cost> {
  const { metrics: all } = await cdp.send("Performance.getMetrics");
  const get = (name: string): number => (all.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { layout: get("LayoutDuration"), task: get("TaskDuration") };
}

/** The main-thread cost of opening `name` until its message is laid out and painted. */
async function openCost(page: Page, cdp: CDPSession, name: string, bodyText: string): Promise<Cost> {
  const rooms = page.getByRole("listbox", { name: "Rooms" });
  const before = await metrics(cdp);
  await rooms.getByText(name, { exact: true }).click();
  await page.getByRole("heading", { name, level: 2 }).waitFor();
  await page.locator("article").filter({ hasText: bodyText }).first().waitFor({ timeout: 60_000 });
  // Two frames: the message is laid out and painted.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
  );
  const after = await metrics(cdp);
  return { layout: after.layout - before.layout, task: after.task - before.task };
}

const MARKERS: Record<string, string> = {
  Baseline: "hello",
  "Word body": "lattice",
  "Mixed body": "lattice",
  "Mixed html": "lattice",
  "Spoiler reason": "the secret",
  "Deep nesting": "bottom",
  Mentions: "bob 0",
};

describe("render budget per message", () => {
  it("keeps every worst-case message within the budget of a 'hello'", async () => {
    const page = await web.signIn("alice");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const least: Record<string, Cost> = {};
    for (let run = 0; run < RUNS; run++) {
      for (const name of Object.keys(CASES)) {
        if (name === "Baseline") continue;
        // The baseline is opened before each case, so both are measured under the same load.
        for (const room of ["Baseline", name]) {
          const cost = await openCost(page, cdp, room, MARKERS[room] ?? "");
          const prev = least[room];
          least[room] = {
            layout: Math.min(prev?.layout ?? Infinity, cost.layout),
            task: Math.min(prev?.task ?? Infinity, cost.task),
          };
        }
      }
    }
    const base = least["Baseline"] ?? { layout: 0, task: 0 };
    const over = Object.entries(least)
      .filter(([name]) => name !== "Baseline")
      .map(([name, c]) => ({
        name,
        layout: Math.round(c.layout - base.layout),
        task: Math.round(c.task - base.task),
      }));
    console.log(`render budget: baseline ${JSON.stringify(base)}; over it ${JSON.stringify(over)}`);
    for (const o of over) {
      expect(o.layout, `${o.name}: layout beyond the baseline (ms)`).toBeLessThanOrEqual(RENDER_BUDGET_MS);
      expect(o.task, `${o.name}: main-thread work beyond the baseline (ms)`).toBeLessThanOrEqual(
        RENDER_TASK_BUDGET_MS,
      );
    }

    // What was cut is one click away; a spoiler's reason is cut for good, at 80 characters and "…".
    await openCost(page, cdp, "Mixed body", "lattice");
    const article = page.locator("article").filter({ hasText: "lattice" }).first();
    const shownLength = async (): Promise<number> =>
      (await article.evaluate((el) => el.querySelector("[class*=body]")?.textContent ?? "")).length;
    expect(await shownLength()).toBeLessThan(1_100);
    await article.getByRole("button", { name: "Show more" }).click();
    await page.waitForFunction(() => (document.querySelector("article")?.textContent ?? "").length > 20_000);
    await openCost(page, cdp, "Spoiler reason", "the secret");
    const reason = await page
      .locator("article")
      .filter({ hasText: "the secret" })
      .first()
      .evaluate((el) => el.querySelector("[class*=reason]")?.textContent ?? "");
    expect(reason).toBe(`(${[...MIXED].slice(0, 80).join("")}…)`);
  }, 240_000);
});
