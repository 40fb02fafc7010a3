/**
 * The widget host page (host-page.ts: matrix-widget-api's ClientWidgetApi
 * with a driver over a real homeserver) bundled and served on a loopback
 * port of its own, an origin other than the embedded page's. `openHost`
 * loads it in a page, starts the host and resolves with the widget's frame.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import type { Frame, Page } from "playwright-core";
import type { HostConfig } from "./host-page";
import { serveFolder } from "../serve-folder";
import type { ServedFolder } from "../serve-folder";

/** Bundles the host page and serves it; its page is `${url}index.html`. */
export async function serveHostPage(): Promise<ServedFolder> {
  const dir = await mkdtemp(join(tmpdir(), "lattice-embedded-host-"));
  await build({
    entryPoints: [new URL("./host-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    outfile: join(dir, "host.js"),
    logLevel: "silent",
  });
  await writeFile(
    join(dir, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body><script type="module" src="/host.js"></script></body></html>',
  );
  return serveFolder(dir);
}

/** Loads the host page in `page`, starts the host with `config` and resolves with the widget's frame. */
export async function openHost(page: Page, hostUrl: string, config: HostConfig): Promise<Frame> {
  await page.goto(new URL("index.html", hostUrl).toString());
  const framed = page.waitForEvent("framenavigated", {
    predicate: (f) => f.url().includes("embedded.html"),
    timeout: 30_000,
  });
  await page.evaluate((c) => window.startHost(c), config);
  return framed;
}
