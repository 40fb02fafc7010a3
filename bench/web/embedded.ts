/**
 * bench/web/embedded: the JavaScript the embedded page (embedded.html,
 * Lattice inside a host as a widget) needs to show its room view and its
 * call view, beside the full app's first screen, gzip (level 9). Two
 * production builds of packages/web, as `npm run build` ships them: the
 * app (vite.config.ts) and the embedded page (vite.embedded.config.ts;
 * on Preact as it ships; LATTICE_EMBEDDED_REACT=1 in the environment builds it on React). The chunks each view needs come from that
 * build's Vite manifest: the page's static imports, plus the static
 * imports of the modules the view loads lazily. The full app's figure is
 * its page's static imports (what loads before its code runs; the
 * Chromium run of bench/web/run.ts measures about 15 KB more, the lazily
 * loaded first-screen chunks), so the ratio errs in the full app's favour.
 *
 * The figures compared with the budget (under half the full app's first
 * screen, issue 21) are "embedded room view" and "embedded call view":
 * the page with everything it loads to show that view. LiveKit (the
 * client library and our wrapper) loads only when the user joins the
 * call, so it is its own row, "embedded call, joined on LiveKit", outside
 * the budget.
 *
 * Command: `npx tsx bench/web/embedded.ts` (about 30 s; writes
 * bench/results/web-embedded-latest.json); `--files` lists each view's
 * files with their gzip sizes, largest first.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { gzipSize } from "./sizes";

const WEB_ROOT = new URL("../../packages/web/", import.meta.url).pathname;
const RESULTS = new URL("../results/", import.meta.url).pathname;

/** One entry of Vite's manifest. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/** Every JS file `keys` load through static imports. */
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the manifest: ${key}`);
    if (chunk.file.endsWith(".js")) files.add(chunk.file);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const k of keys) visit(k);
  return files;
}

/**
 * The manifest key of a page ("index.html") or of a module by its name:
 * a lazily loaded module is its own entry ("src/embedded/EmbeddedRoom.tsx")
 * or lives in a shared chunk named after it ("_RoomViewModel-<hash>.js").
 */
export function keyOf(manifest: Manifest, name: string): string {
  if (manifest[name]) return name;
  // A package by its name ("livekit-client"): its module under node_modules.
  const pkg = Object.keys(manifest).find((k) => k.includes(`/node_modules/${name}/`));
  if (pkg !== undefined) return pkg;
  const base = name.replace(/^.*\//, "").replace(/\.(tsx?|js)$/, "");
  const found = Object.keys(manifest).find(
    (k) => k.endsWith(`/${base}.tsx`) || k.endsWith(`/${base}.ts`) || k.startsWith(`_${base}-`),
  );
  if (found === undefined) throw new Error(`not in the manifest: ${name}`);
  return found;
}

/** Which build a view is measured in. */
type BuildName = "app" | "embedded";

/** The views and the modules each loads (the page, then its lazy parts, as EmbeddedViewModel and EmbeddedApp import them). */
export const VIEWS: Record<string, { build: BuildName; keys: string[]; budget: boolean }> = {
  "full app, first screen (index.html)": { build: "app", keys: ["index.html"], budget: false },
  "embedded page before its view (embedded.html)": {
    build: "embedded",
    keys: ["embedded.html"],
    budget: false,
  },
  "embedded room view": {
    build: "embedded",
    keys: ["embedded.html", "EmbeddedRoom", "RoomViewModel", "HostMedia", "roomLocales"],
    budget: true,
  },
  "embedded call view": {
    build: "embedded",
    keys: ["embedded.html", "EmbeddedCall", "CallsViewModel", "CallSettings", "platform", "callLocales"],
    budget: true,
  },
  "embedded call, joined on LiveKit": {
    build: "embedded",
    keys: [
      "embedded.html",
      "EmbeddedCall",
      "CallsViewModel",
      "CallSettings",
      "platform",
      "callLocales",
      "LiveKitCall",
      "livekit-client",
    ],
    budget: false,
  },
};

/** A view's size: its files and their gzip total. */
export interface ViewSize {
  view: string;
  files: string[];
  gzip: number;
  /** Whether the view is held to the embedded budget (under half the full app's first screen). */
  budget: boolean;
}

/**
 * Builds the app and the embedded page into `outDir` (app/ and embedded/,
 * each with its manifest) and measures every view of VIEWS.
 */
export async function measureViews(outDir: string): Promise<ViewSize[]> {
  const nodeEnv = process.env["NODE_ENV"];
  // As `npm run build`: vitest's NODE_ENV=test would bundle React's development build.
  process.env["NODE_ENV"] = "production";
  const manifests = {} as Record<BuildName, Manifest>;
  try {
    for (const [name, config] of [
      ["app", "vite.config.ts"],
      ["embedded", "vite.embedded.config.ts"],
    ] as const) {
      const dir = join(outDir, name);
      await build({
        root: WEB_ROOT,
        configFile: join(WEB_ROOT, config),
        logLevel: "error",
        mode: "production",
        build: { outDir: dir, emptyOutDir: true, manifest: true },
      });
      manifests[name] = JSON.parse(readFileSync(join(dir, ".vite/manifest.json"), "utf8")) as Manifest;
    }
  } finally {
    process.env["NODE_ENV"] = nodeEnv;
  }
  const gz = new Map<string, number>();
  const size = (file: string): number => {
    let n = gz.get(file);
    if (n === undefined) gz.set(file, (n = gzipSize(readFileSync(join(outDir, file)))));
    return n;
  };
  return Object.entries(VIEWS).map(([view, { build: b, keys, budget }]) => {
    const m = manifests[b];
    const files = [
      ...staticClosure(
        m,
        keys.map((k) => keyOf(m, k)),
      ),
    ].map((f) => join(b, f));
    files.sort((x, y) => size(y) - size(x));
    return { view, files, gzip: files.reduce((sum, f) => sum + size(f), 0), budget };
  });
}

async function main(): Promise<void> {
  const outDir = await mkdtemp(join(tmpdir(), "lattice-bench-embedded-"));
  try {
    const views = await measureViews(outDir);
    const full = views[0]?.gzip ?? 1;
    if (process.argv.includes("--files"))
      for (const v of views) {
        console.log(`${v.view}:`);
        for (const f of v.files)
          console.log(
            `  ${(gzipSize(readFileSync(join(outDir, f))) / 1024).toFixed(1).padStart(6)} KB  ${f}`,
          );
      }
    const rows = views.map((v) => ({
      view: v.view,
      files: v.files.length,
      gzipKB: v.gzip / 1024,
      ofFull: v.gzip / full,
      budget: v.budget,
    }));
    console.log(
      "| view | JS files | JS gzip | of the full app's first screen | compared with the target (under half) |",
    );
    console.log("|---|---|---|---|---|");
    for (const r of rows)
      console.log(
        `| ${r.view} | ${r.files} | ${r.gzipKB.toFixed(1)} KB | ${(r.ofFull * 100).toFixed(0)} % | ${r.budget ? "yes" : "no"} |`,
      );
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(
      join(RESULTS, "web-embedded-latest.json"),
      JSON.stringify({ at: new Date().toISOString(), rows }, null, 2),
    );
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

// Run as a script; imported by the size test for measureViews.
if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) await main();
