/**
 * Shared helpers for the web app's browser tests: Debian's Chromium through
 * playwright-core (never a downloaded browser), the app served by Vite on
 * loopback (dev server, or a production build under `vite preview`) and the
 * sign-in steps. harness.ts builds the usual file set-up on these.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build, createServer, preview } from "vite";
import type { ViteDevServer } from "vite";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

/**
 * Chromium's fake camera (a moving test pattern), fake microphone (a beep)
 * and auto-accepted capture prompts, for the call tests; audio may play
 * without a gesture so a remote stream's analyser has something to read.
 */
export const MEDIA_ARGS = [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  "--autoplay-policy=no-user-gesture-required",
];

/** Debian's Chromium with the shared flags and `extraArgs` (MEDIA_ARGS for calls). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Which Vite configuration serves the pages: the app's, or the embedded page's (vite.embedded.config.ts). */
export type WebConfig = "app" | "embedded";

/** Serves packages/web with Vite on 127.0.0.1 and a free port. */
export async function serveWebApp(
  env: Record<string, string> = {},
  config: WebConfig = "app",
): Promise<{ url: string; close(): Promise<void> }> {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  const root = new URL("..", import.meta.url).pathname;
  const server: ViteDevServer = await createServer({
    root,
    configFile: new URL(
      config === "app" ? "../vite.config.ts" : "../vite.embedded.config.ts",
      import.meta.url,
    ).pathname,
    logLevel: "error",
    // Browser test files run two at a time: each test worker keeps its own pre-bundled
    // dependencies (per configuration), so two dev servers never rewrite the same folder at once.
    cacheDir: join(root, "node_modules", `.vite-e2e-${config}-${process.env["VITEST_POOL_ID"] ?? "0"}`),
    server: { port: 0, host: "127.0.0.1", strictPort: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite did not listen on a TCP port");
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

/** Options of serveBuiltApp. */
export interface BuiltAppOptions {
  /** The homeserver the build defaults to (it is baked into the bundle and its CSP). */
  homeserver: string;
  /**
   * Build as `npm run build` does, with NODE_ENV=production (vitest runs with NODE_ENV=test,
   * which keeps import.meta.env.PROD false and compiles the service worker registration out).
   */
  production?: boolean;
}

/** A production build of packages/web served by `vite preview` on loopback. */
export interface BuiltApp {
  url: string;
  /** The build's folder (index.html, assets/, sw.js). */
  outDir: string;
  /** Stops the preview server and removes the build. */
  close(): Promise<void>;
}

/** Builds packages/web into a temporary folder and serves it with `vite preview` on a free port. */
export async function serveBuiltApp(options: BuiltAppOptions): Promise<BuiltApp> {
  const root = new URL("..", import.meta.url).pathname;
  const configFile = join(root, "vite.config.ts");
  const outDir = await mkdtemp(join(tmpdir(), "lattice-web-build-"));
  process.env["VITE_LATTICE_HOMESERVER"] = options.homeserver;
  const nodeEnv = process.env["NODE_ENV"];
  if (options.production === true) process.env["NODE_ENV"] = "production";
  try {
    await build({
      root,
      configFile,
      logLevel: "error",
      ...(options.production === true ? { mode: "production" } : {}),
      build: { outDir, emptyOutDir: true },
    });
  } catch (e) {
    await rm(outDir, { recursive: true, force: true });
    throw e;
  } finally {
    process.env["NODE_ENV"] = nodeEnv;
  }
  const web = await preview({
    root,
    configFile,
    logLevel: "error",
    build: { outDir },
    preview: { port: 0, host: "127.0.0.1", strictPort: false },
  });
  const address = web.httpServer.address();
  if (address === null || typeof address === "string")
    throw new Error("vite preview did not listen on a TCP port");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    outDir,
    async close() {
      await web.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** How a browser test signs a user in to the app. */
export interface SignInOptions {
  /** The app's URL (serveWebApp) and the homeserver it defaults to. */
  appUrl: string;
  homeserver: string;
  user: string;
  password: string;
  dark?: boolean;
  viewport?: { width: number; height: number };
  /** Default time-out of each step; two shared cores want room before calling a step stuck. */
  stepTimeoutMs?: number;
  /** Where page errors go; by default they fail the test. */
  onPageError?: (error: Error) => void;
}

/** A new context and page, signed in with a password, waiting for the room list. */
export async function openSignedIn(
  browser: Browser,
  options: SignInOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    colorScheme: options.dark === true ? "dark" : "light",
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.stepTimeoutMs !== undefined) context.setDefaultTimeout(options.stepTimeoutMs);
  const page = await context.newPage();
  page.on(
    "pageerror",
    options.onPageError ??
      ((e) => {
        throw e;
      }),
  );
  await page.goto(options.appUrl, { timeout: 60_000 });
  await page.getByTestId("homeserver").filter({ hasText: options.homeserver }).waitFor();
  await page.getByLabel("Username").fill(options.user);
  await page.getByLabel("Password", { exact: true }).fill(options.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("listbox", { name: "Rooms" }).waitFor({ timeout: 30_000 });
  return { context, page };
}
