/**
 * Shared helpers for the web app's browser tests: Debian's Chromium through
 * playwright-core (never a downloaded browser) and the app served by Vite on
 * loopback.
 */
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
import { createServer } from "vite";
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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Serves packages/web with Vite on 127.0.0.1 and a free port. */
export async function serveWebApp(
  env: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  const server: ViteDevServer = await createServer({
    root: new URL("..", import.meta.url).pathname,
    configFile: new URL("../vite.config.ts", import.meta.url).pathname,
    logLevel: "error",
    server: { port: 0, host: "127.0.0.1", strictPort: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite did not listen on a TCP port");
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}
