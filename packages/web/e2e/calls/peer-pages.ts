/**
 * Call peer pages for the interop tests and bench/calls: the Lattice peer
 * (the SDK over the web app's browser media platform) and the
 * matrix-js-sdk peer (its MatrixCall), each bundled with esbuild into a
 * temporary folder and served from 127.0.0.1 (a secure context, so capture
 * works) by a small static server. Chromium runs with fake media devices.
 * `openPeer` gives a page whose `window.peer` (peer-api.ts) the caller
 * drives through `PeerHandle`.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { serveFolder } from "../serve-folder";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../browser";
import type { PeerCall, PeerSession } from "./peer-api";

/** Which client a peer page runs. */
export type PeerKind = "lattice" | "jssdk";

/** Fake camera (a moving pattern) and microphone (a beep), capture prompts accepted, audio playing without a gesture. */
export const CALL_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS,
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  "--autoplay-policy=no-user-gesture-required",
];

/** Debian's Chromium with fake media devices. */
export function launchCallChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CALL_CHROMIUM_ARGS });
}

const ENTRIES: Record<PeerKind, string> = {
  lattice: new URL("./lattice-peer.ts", import.meta.url).pathname,
  jssdk: new URL("./jssdk-peer.ts", import.meta.url).pathname,
};

const PAGE = (kind: PeerKind): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>${kind} call peer</title></head>
<body>
<video id="remote-video" autoplay playsinline muted width="320" height="240"></video>
<audio id="remote-audio" autoplay></audio>
<script type="module" src="/${kind}-peer.js"></script>
</body></html>`;

/** The bundles and the server that serves them. */
export interface PeerPages {
  url: string;
  close(): Promise<void>;
}

/** Bundles the peers of `kinds` (both by default) and serves them on a free loopback port. */
export async function servePeerPages(kinds: readonly PeerKind[] = ["lattice", "jssdk"]): Promise<PeerPages> {
  const dir = await mkdtemp(join(tmpdir(), "lattice-call-peers-"));
  await build({
    entryPoints: Object.fromEntries(kinds.map((k) => [`${k}-peer`, ENTRIES[k]])),
    bundle: true,
    format: "esm",
    splitting: true,
    platform: "browser",
    target: "chrome120",
    outdir: dir,
    logLevel: "error",
    define: { "process.env.NODE_ENV": '"production"' },
    loader: { ".wasm": "file" },
  });
  for (const kind of kinds) await writeFile(join(dir, `${kind}.html`), PAGE(kind));
  return serveFolder(dir);
}

/** A peer page and typed calls into its `window.peer`. */
export interface PeerHandle {
  kind: PeerKind;
  page: Page;
  context: BrowserContext;
  place(roomId: string, opponent: string, video: boolean): Promise<string>;
  answer(callId: string, video: boolean): Promise<void>;
  hangup(callId: string): Promise<void>;
  calls(): Promise<PeerCall[]>;
  call(callId: string): Promise<PeerCall | undefined>;
  selectedCandidateType(callId: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Opens `kind`'s page in a new context, signs `session` in, and resolves once it has synced. */
export async function openPeer(
  browser: Browser,
  pages: PeerPages,
  kind: PeerKind,
  session: PeerSession,
  onConsole?: (line: string) => void,
): Promise<PeerHandle> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  if (onConsole) page.on("console", (m) => onConsole(`[${kind} ${session.userId}] ${m.text()}`));
  await page.goto(`${pages.url}${kind}.html`);
  await page.waitForFunction(() => window.peer !== undefined, undefined, { timeout: 30_000 });
  await page.evaluate((s) => window.peer!.start(s), session);
  const handle: PeerHandle = {
    kind,
    page,
    context,
    place: (roomId, opponent, video) =>
      page.evaluate(([r, o, v]) => window.peer!.place(r, o, v), [roomId, opponent, video] as const),
    answer: (callId, video) => page.evaluate(([c, v]) => window.peer!.answer(c, v), [callId, video] as const),
    hangup: (callId) => page.evaluate((c) => window.peer!.hangup(c), callId),
    calls: () => page.evaluate(() => window.peer!.calls()),
    call: async (callId) => (await handle.calls()).find((c) => c.callId === callId),
    selectedCandidateType: (callId) => page.evaluate((c) => window.peer!.selectedCandidateType(c), callId),
    async close() {
      await page.evaluate(() => window.peer?.stop()).catch(() => undefined);
      await context.close().catch(() => undefined);
      if (errors.length > 0) onConsole?.(`[${kind}] page errors: ${errors.join("; ")}`);
    },
  };
  return handle;
}
