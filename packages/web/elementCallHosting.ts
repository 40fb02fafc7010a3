/**
 * Hosting Element Call from the web app itself: the static build in the
 * `@element-hq/element-call-embedded` npm package is served under
 * ELEMENT_CALL_PATH by the dev server and copied there into the production
 * build, so a group call through Element Call needs no other web server.
 *
 * Element Call's files are served as they are, outside Vite's HTML pipeline:
 * its index.html carries inline scripts (a global shim, a polyfill) that the
 * app's strict CSP would block, and the frame gets its own policy from the
 * iframe sandbox instead (docs/architecture/0033-element-call-hosted.md).
 * Its config.json is ours (ELEMENT_CALL_CONFIG), naming no outside server:
 * in widget mode Element Call takes the homeserver, the user and the call
 * transports from the host. The dev server also serves it on a second
 * loopback port and points the app there, so the frame runs at an origin
 * of its own and its sandbox confines it (ELEMENT_CALL_URL_ENV).
 */
import { createReadStream, cpSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import type { Plugin } from "vite";

/** Where the app serves Element Call (a directory, with a trailing slash). */
export const ELEMENT_CALL_PATH = "/element-call/";

/**
 * The build-time setting naming where Element Call is served from: an absolute URL of its
 * folder on an origin other than the app's (a deploy serves the build's `element-call/` folder
 * there). Unset, the app frames its own `/element-call/`, on its own origin. The dev server sets
 * it to a second loopback port of its own (ELEMENT_CALL_URL_ENV is then defined for the app).
 */
export const ELEMENT_CALL_URL_ENV = "VITE_LATTICE_ELEMENT_CALL_URL";

/**
 * The config.json Lattice gives Element Call: the package's own setting and
 * nothing that points at a server (no default homeserver, no analytics, no
 * rageshake, no fallback SFU). The delayed leave is more patient than
 * Element Call's default (18 s, restarted every 4 s, each restart given 2 s):
 * hosted by Lattice every restart makes one more hop (the widget channel and
 * the app's main thread), and with 2 s a busy page timed out restart after
 * restart until the server sent the leave: the member dropped out of the
 * call, keys rotated and the tiles went blank (the browser test saw it).
 * A crashed Element Call now stays listed up to 30 s.
 */
export const ELEMENT_CALL_CONFIG = {
  matrix_rtc_session: {
    wait_for_key_rotation_ms: 5000,
    delayed_leave: { delay_ms: 30_000, restart_ms: 4_000, restart_timeout_ms: 8_000 },
  },
} as const;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".tflite": "application/octet-stream",
};

/** The package's dist folder, found through Node's resolution from this package. */
export function elementCallDist(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@element-hq/element-call-embedded/package.json")), "dist");
}

/** The file under `dist` a request path names, or null when it is outside it or missing. */
export function resolveElementCallFile(dist: string, urlPath: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.slice(ELEMENT_CALL_PATH.length));
  } catch {
    return null;
  }
  if (rel === "") rel = "index.html";
  const file = normalize(join(dist, rel));
  // Never leave the package's folder, whatever "../" the path holds.
  if (file !== dist && !file.startsWith(dist + sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

/** The Vite plugin: serves Element Call from the package in dev, copies it into the build (which preview serves). */
export function elementCallPlugin(): Plugin {
  let outDir = "dist";
  let root = process.cwd();
  const dist = elementCallDist();
  const config = JSON.stringify(ELEMENT_CALL_CONFIG);
  const middleware = (
    req: { url?: string | undefined },
    res: {
      statusCode: number;
      setHeader(name: string, value: string): void;
      end(body?: string): void;
    } & NodeJS.WritableStream,
    next: () => void,
  ): void => {
    const path = (req.url ?? "").split(/[?#]/)[0] ?? "";
    if (path === ELEMENT_CALL_PATH.slice(0, -1)) {
      res.statusCode = 302;
      res.setHeader("Location", ELEMENT_CALL_PATH);
      res.end();
      return;
    }
    if (!path.startsWith(ELEMENT_CALL_PATH)) return next();
    if (path === `${ELEMENT_CALL_PATH}config.json`) {
      res.setHeader("Content-Type", TYPES[".json"] ?? "application/json");
      res.setHeader("Cache-Control", "no-cache");
      res.end(config);
      return;
    }
    const file = resolveElementCallFile(dist, path);
    if (file === null) {
      res.statusCode = 404;
      res.end("Not found");
      return;
    }
    res.setHeader("Content-Type", TYPES[extname(file)] ?? "application/octet-stream");
    // Hashed asset names never change; index.html must be fetched anew.
    res.setHeader(
      "Cache-Control",
      file.includes(`${sep}assets${sep}`) ? "max-age=31536000, immutable" : "no-cache",
    );
    createReadStream(file).pipe(res);
  };
  // The dev server's second origin for Element Call (see ELEMENT_CALL_URL_ENV), closed with it.
  let second: ReturnType<typeof createServer> | undefined;
  return {
    name: "lattice-element-call",
    async config(_config, env) {
      if (env.command !== "serve" || process.env[ELEMENT_CALL_URL_ENV]) return;
      const server = createServer((req, res) =>
        middleware(req, res, () => {
          res.statusCode = 404;
          res.end("Not found");
        }),
      );
      await new Promise<void>((ok, fail) => {
        server.once("error", fail);
        server.listen(0, "127.0.0.1", () => ok());
      });
      server.unref();
      second = server;
      const { port } = server.address() as AddressInfo;
      return {
        define: {
          [`import.meta.env.${ELEMENT_CALL_URL_ENV}`]: JSON.stringify(
            `http://127.0.0.1:${port}${ELEMENT_CALL_PATH}`,
          ),
        },
      };
    },
    buildEnd() {
      second?.close();
      second?.closeAllConnections();
      second = undefined;
    },
    configResolved(resolved) {
      outDir = resolved.build.outDir;
      root = resolved.root;
    },
    configureServer(server) {
      server.middlewares.use(middleware);
      server.httpServer?.once("close", () => {
        second?.close();
        second?.closeAllConnections();
        second = undefined;
      });
    },
    writeBundle() {
      const target = join(resolve(root, outDir), ELEMENT_CALL_PATH);
      mkdirSync(target, { recursive: true });
      // Source maps stay out of the build: they only add megabytes to a deploy.
      cpSync(dist, target, { recursive: true, filter: (src) => !src.endsWith(".map") });
      writeFileSync(join(target, "config.json"), config);
    },
  };
}
