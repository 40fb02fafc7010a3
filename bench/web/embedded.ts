/**
 * bench/web/embedded: the JavaScript the embedded page (embedded.html,
 * Lattice inside a host as a widget) needs to show its room view and its
 * call view, beside the full app's first screen, gzip (level 9). One
 * production build of packages/web (both pages, as it ships); the chunks
 * each needs come from Vite's build manifest: the page's static imports,
 * plus the static imports of the modules the view loads lazily. The full
 * app's figure is its page's static imports (what loads before its code
 * runs; the Chromium run of bench/web/run.ts measures about 15 KB more,
 * the lazily loaded first-screen chunks), so the ratio errs in the full
 * app's favour.
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
  const base = name.replace(/^.*\//, "").replace(/\.(tsx?|js)$/, "");
  const found = Object.keys(manifest).find(
    (k) => k.endsWith(`/${base}.tsx`) || k.endsWith(`/${base}.ts`) || k.startsWith(`_${base}-`),
  );
  if (found === undefined) throw new Error(`not in the manifest: ${name}`);
  return found;
}

/** The views and the modules each loads (the page, then its lazy parts, as EmbeddedViewModel and EmbeddedApp import them). */
const VIEWS: Record<string, string[]> = {
  "full app, first screen (index.html)": ["index.html"],
  "embedded page before its view (embedded.html)": ["embedded.html"],
  "embedded room view": ["embedded.html", "EmbeddedRoom", "RoomViewModel", "HostMedia"],
  "embedded call view": ["embedded.html", "EmbeddedCall", "CallsViewModel", "CallSettings", "platform"],
};

async function main(): Promise<void> {
  const outDir = await mkdtemp(join(tmpdir(), "lattice-bench-embedded-"));
  try {
    await build({
      root: WEB_ROOT,
      configFile: join(WEB_ROOT, "vite.config.ts"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const manifest = JSON.parse(readFileSync(join(outDir, ".vite/manifest.json"), "utf8")) as Manifest;
    const gz = new Map<string, number>();
    const size = (file: string): number => {
      let n = gz.get(file);
      if (n === undefined) gz.set(file, (n = gzipSize(readFileSync(join(outDir, file)))));
      return n;
    };
    const rows: Array<{ view: string; files: number; gzipKB: number }> = [];
    for (const [view, keys] of Object.entries(VIEWS)) {
      const files = [
        ...staticClosure(
          manifest,
          keys.map((k) => keyOf(manifest, k)),
        ),
      ];
      rows.push({ view, files: files.length, gzipKB: files.reduce((s, f) => s + size(f), 0) / 1024 });
      if (process.argv.includes("--files")) {
        console.log(`${view}:`);
        for (const f of files.sort((a, b) => size(b) - size(a)))
          console.log(`  ${(size(f) / 1024).toFixed(1).padStart(6)} KB  ${f}`);
      }
    }
    const full = rows[0]?.gzipKB ?? 0;
    console.log("| view | JS files | JS gzip | of the full app's first screen |");
    console.log("|---|---|---|---|");
    for (const r of rows)
      console.log(
        `| ${r.view} | ${r.files} | ${r.gzipKB.toFixed(1)} KB | ${((r.gzipKB / full) * 100).toFixed(0)} % |`,
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

await main();
