/**
 * The render budget per message (issue 24): a worst-case message (a
 * 60,000-character word as the plain body; a 20,000-character word of mixed
 * scripts as the plain body, in formatted HTML and as a spoiler's reason;
 * nesting far past the depth cap; 900 mentions) costs at most
 * RENDER_BUDGET_MS more style and layout than a "hello". Each message is
 * measured in the app as rendered, in its timeline: a copy of its tile is
 * laid out beside it (performance.now() around the forced layout) several
 * times, and the least time is kept; rooms are visited in turn with the
 * baseline, several rounds. Least-of-many on both sides means another
 * process taking the CPU cannot fail the test, while a message that costs a
 * quarter second of layout every time (the mixed-script word did) fails it
 * by far. Chrome's own counters for the room switches are printed too.
 */
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MAX_PILLS_PER_MESSAGE } from "../src/features/timeline/html/renderBudget";
import { callAs, registerUser, startWebHarness } from "./harness";

/** Style and layout a message may cost beyond the baseline message's (ms). */
const RENDER_BUDGET_MS = 16;
/** Rounds over the rooms; the least of each is kept. */
const RUNS = 3;
/**
 * On a loaded machine more rounds are taken, until every least time is
 * within the budget or this many rounds are done: a wait on the outcome, as
 * the least of more samples only gets closer to the true cost, which for a
 * message over budget stays over it.
 */
const MAX_RUNS = 8;
/** Layouts of a tile's copy per visit; the least is kept. */
const COPIES = 7;

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
  // Mention pills show the member's current name, not the link's text; the
  // first link past the message's pills keeps its text.
  Mentions: `bob ${MAX_PILLS_PER_MESSAGE}`,
};

/** The least time (ms) to style and lay out a copy of the message's tile, beside it. */
function copyLayoutMs(page: Page, marker: string): Promise<number> {
  return page
    .locator("article")
    .filter({ hasText: marker })
    .first()
    .evaluate((tile, copies) => {
      let least = Infinity;
      for (let i = 0; i < copies; i++) {
        const copy = tile.cloneNode(true) as HTMLElement;
        const t0 = performance.now();
        tile.parentElement?.appendChild(copy);
        copy.getBoundingClientRect();
        least = Math.min(least, performance.now() - t0);
        copy.remove();
      }
      return least;
    }, COPIES);
}

describe("render budget per message", () => {
  it("keeps every worst-case message within the budget of a 'hello'", async () => {
    const page = await web.signIn("alice");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const least: Record<string, number> = {};
    const switches: Record<string, Cost> = {};
    const withinBudget = (): boolean => {
      const base = least["Baseline"] ?? 0;
      return Object.entries(least).every(([, ms]) => ms - base <= RENDER_BUDGET_MS);
    };
    for (let run = 0; run < MAX_RUNS; run++) {
      if (run >= RUNS && withinBudget()) break;
      for (const name of Object.keys(CASES)) {
        if (name === "Baseline") continue;
        // The baseline is measured beside each case, so both see the same load.
        for (const room of ["Baseline", name]) {
          const marker = MARKERS[room] ?? "";
          const cost = await openCost(page, cdp, room, marker);
          least[room] = Math.min(least[room] ?? Infinity, await copyLayoutMs(page, marker));
          const prev = switches[room];
          switches[room] = {
            layout: Math.min(prev?.layout ?? Infinity, cost.layout),
            task: Math.min(prev?.task ?? Infinity, cost.task),
          };
        }
      }
    }
    const base = least["Baseline"] ?? 0;
    const over = Object.entries(least)
      .filter(([name]) => name !== "Baseline")
      .map(([name, ms]) => ({ name, ms: Math.round((ms - base) * 10) / 10 }));
    console.log(
      `render budget: baseline ${base.toFixed(1)} ms; over it ${JSON.stringify(over)}; ` +
        `room switches (CDP, least) ${JSON.stringify(switches)}`,
    );
    for (const o of over) {
      expect(o.ms, `${o.name}: style and layout beyond the baseline (ms)`).toBeLessThanOrEqual(
        RENDER_BUDGET_MS,
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
  }, 480_000);
});
