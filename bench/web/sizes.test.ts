/**
 * Unit tests of bench/web's load split and size arithmetic, and the
 * JavaScript budgets, from one production build of packages/web (the app
 * and the embedded page, as `npm run build`): the app's entry and its
 * static imports within 250 KB gzip (issue #8); the embedded page's call
 * and room views within their ceilings and under half of the app's first
 * screen, on Preact and without i18next (issue 21,
 * bench/web/embedded.ts).
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ViewSize } from "./embedded";
import { measureViews } from "./embedded";
import {
  EMBEDDED_CALL_VIEW_CEILING,
  EMBEDDED_ROOM_VIEW_CEILING,
  entryScripts,
  FIRST_SCREEN_JS_BUDGET,
  gzipSize,
  kindOf,
  splitLoads,
  totals,
} from "./sizes";

let outDir = "";
let views: ViewSize[] = [];

// One production build of both pages for the budgets below (about 30 s on a quiet machine).
beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "lattice-size-"));
  views = await measureViews(outDir);
}, 240_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe("bench/web sizes", () => {
  it("classifies files by extension", () => {
    expect(kindOf("/assets/index-abc.js")).toBe("js");
    expect(kindOf("/assets/index-abc.css?v=1")).toBe("css");
    expect(kindOf("/assets/crypto_bg-1.wasm")).toBe("wasm");
    expect(kindOf("/")).toBe("html");
    expect(kindOf("/favicon.svg")).toBe("other");
  });

  it("splits at the moment the list showed, by each path's first request", () => {
    const split = splitLoads(
      [
        { path: "/a.js", at: 10 },
        { path: "/b.js", at: 60 },
        { path: "/a.js", at: 90 },
        { path: "/c.wasm", at: 50 },
      ],
      50,
    );
    expect(split.before.sort()).toEqual(["/a.js", "/c.wasm"]);
    expect(split.later).toEqual(["/b.js"]);
  });

  it("gzips and sums per kind", () => {
    const body = Buffer.from("lattice ".repeat(1000));
    const size = gzipSize(body);
    expect(size).toBeLessThan(body.length / 10);
    expect(gunzipSync(gzipSync(body, { level: 9 })).equals(body)).toBe(true);
    const sum = totals([
      { path: "/a.js", kind: "js", bytes: 100, gzip: 40 },
      { path: "/b.js", kind: "js", bytes: 50, gzip: 20 },
      { path: "/s.css", kind: "css", bytes: 10, gzip: 5 },
    ]);
    expect(sum.js).toEqual({ bytes: 150, gzip: 60, files: 2 });
    expect(sum.css).toEqual({ bytes: 10, gzip: 5, files: 1 });
    expect(sum.wasm.files).toBe(0);
  });
});

describe("bench/web profile summary", () => {
  it("sums self time per function from samples and deltas", async () => {
    const { topSelfTime } = await import("./profile");
    const top = topSelfTime({
      nodes: [
        { id: 1, callFrame: { functionName: "", url: "", lineNumber: -1 } },
        { id: 2, callFrame: { functionName: "render", url: "http://x/assets/index.js", lineNumber: 9 } },
      ],
      samples: [2, 1, 2],
      timeDeltas: [1000, 500, 3000],
    });
    expect(top).toEqual([
      { fn: "render index.js:10", ms: 4 },
      { fn: "(anonymous)", ms: 0.5 },
    ]);
  });
});

describe("first screen JavaScript", () => {
  it("reads the entry and its modulepreloads from a built index.html", () => {
    const html = `<script type="module" crossorigin src="/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/sdk-b.js">
      <link rel="stylesheet" crossorigin href="/assets/index-c.css">
      <script src="/other.js"></script>`;
    expect(entryScripts(html)).toEqual(["/assets/index-a.js", "/assets/sdk-b.js"]);
  });

  it("stays within 250 KB gzip in a production build; the room pane and DOMPurify load later", async () => {
    const app = join(outDir, "app");
    const scripts = entryScripts(await readFile(join(app, "index.html"), "utf8"));
    let gzip = 0;
    for (const path of scripts) gzip += gzipSize(await readFile(join(app, path)));
    const lazy = (await readdir(join(app, "assets"))).filter((f) => /^(RoomPane|sanitise)-.*\.js$/.test(f));
    expect(scripts.length).toBeGreaterThan(1);
    expect(gzip).toBeLessThanOrEqual(FIRST_SCREEN_JS_BUDGET);
    expect(lazy).toHaveLength(2);
    for (const file of lazy) expect(scripts).not.toContain(`/assets/${file}`);
  });
});

describe("embedded page JavaScript", () => {
  const view = (name: string): ViewSize => {
    const found = views.find((v) => v.view === name);
    if (!found) throw new Error(`no view ${name}`);
    return found;
  };

  it("loads its call view and its room view within their ceilings, each under half of the app's first screen", () => {
    const full = view("full app, first screen (index.html)").gzip;
    for (const [name, ceiling] of [
      ["embedded call view", EMBEDDED_CALL_VIEW_CEILING],
      ["embedded room view", EMBEDDED_ROOM_VIEW_CEILING],
    ] as const) {
      expect(view(name).gzip).toBeLessThanOrEqual(ceiling);
      // Issue 21's target: under half of the app's first screen.
      expect(view(name).gzip).toBeLessThan(full / 2);
    }
  });

  it("ships on Preact, while the app's first screen stays on React DOM", async () => {
    // React DOM's production build links its errors to this page; Preact has no such string.
    const text = async (v: ViewSize): Promise<string> =>
      (await Promise.all(v.files.map((f) => readFile(join(outDir, f), "utf8")))).join("\n");
    expect(await text(view("full app, first screen (index.html)"))).toContain("react.dev/errors");
    expect(await text(view("embedded room view"))).not.toContain("react.dev/errors");
    expect(await text(view("embedded call view"))).not.toContain("react.dev/errors");
  });

  it("carries no i18next, which the app's first screen does", async () => {
    // A string i18next's production build has (its logger prefix); the page uses src/i18n/tiny.ts.
    const text = async (v: ViewSize): Promise<string> =>
      (await Promise.all(v.files.map((f) => readFile(join(outDir, f), "utf8")))).join("\n");
    expect(await text(view("full app, first screen (index.html)"))).toContain("i18next");
    expect(await text(view("embedded room view"))).not.toContain("i18next");
    expect(await text(view("embedded call view"))).not.toContain("i18next");
  });
});
