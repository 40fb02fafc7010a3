/**
 * The loopback homeserver of the sync benchmark: serves a fixture from
 * bench/fixtures/ as /sync (the initial sync without `since`, then incremental
 * batch N for `since=s{N-1}`; after the last batch it holds the long-poll a
 * moment and answers empty), plus what a client asks at start: /versions,
 * /capabilities, /pushrules/ and filter creation and lookup, and the thread
 * roots and thread relations matrix-js-sdk fetches, and older history
 * (/messages, history.ts) for a room scrolled back. Anything else is
 * 404 M_UNRECOGNIZED, counted in the stats. Bodies are served from buffers
 * read once, so the server's own cost stays out of the measurement. With
 * the `web` option (bench/web) it also sends CORS headers, answers
 * preflights and tries the caller's extra routes before the 404.
 *
 * It listens on 127.0.0.1 on a random port and closes by itself after a
 * quiet spell. Command: `npx tsx bench/sync/server.ts [--rooms 100]`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ensureFixture, readFixtureMeta } from "./fixture";
import type { FixtureMeta } from "./fixture";
import type { ThreadEntry, ThreadIndex } from "./fixture-threads";
import { historyPage } from "./history";

/** How long a sync past the last batch is held before an empty answer, at most. */
const TAIL_POLL_MS = 1000;
/** The server closes itself after this long without a request. */
/** How long an idle keep-alive connection stays open (see where it is set). */
const KEEP_ALIVE_MS = 600_000;
const DEFAULT_IDLE_MS = 120_000;

export interface BenchServerOptions {
  /** A fixture folder written by fixture.ts. */
  dir: string;
  idleMs?: number;
  /** Called once the server has closed, whoever closed it. */
  onClose?: () => void;
  /**
   * For a browser client (bench/web): CORS headers on every answer and
   * preflights answered, and `extraRoutes` tried before the 404 (the small
   * endpoints a web app calls at start). Off for the sync bench.
   */
  web?: { extraRoutes: ExtraRoutes };
}

/** Answers a client route (the path after /_matrix/client/vN) or returns undefined to fall through. */
export type ExtraRoutes = (method: string, route: string) => { status: number; body: unknown } | undefined;

export interface BenchServer {
  url: string;
  meta: FixtureMeta;
  /** Requests per route, and the paths answered M_UNRECOGNIZED. */
  stats: { routes: Map<string, number>; unrecognised: Map<string, number> };
  close(): Promise<void>;
}

const CLIENT = /^\/_matrix\/client\/(?:v3|r0|v1|unstable)(\/.*)$/;

/** Starts the server over the fixture in `dir`. */
export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const meta = readFixtureMeta(options.dir);
  if (!meta) throw new Error(`No complete fixture in ${options.dir}; run bench/sync/fixture.ts`);
  const initial = readFileSync(join(options.dir, "initial.json"));
  const batches = readFileSync(join(options.dir, "batches.ndjson"), "utf8")
    .split("\n")
    .map((line) => Buffer.from(line));
  const pushRules = readFileSync(join(options.dir, "pushrules.json"));
  const tail = Buffer.from(JSON.stringify({ next_batch: meta.finalToken }));
  const threadIndex = JSON.parse(readFileSync(join(options.dir, "threads.json"), "utf8")) as ThreadIndex;
  const threads = new Map<string, ThreadEntry>(Object.entries(threadIndex));
  const filters = new Map<string, Buffer>();
  const stats = { routes: new Map<string, number>(), unrecognised: new Map<string, number>() };
  const count = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
  const pending = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const body = await readBody(req);
    if (options.web && method === "OPTIONS") {
      res.writeHead(204, CORS_PREFLIGHT);
      res.end();
      return;
    }
    if (url.pathname === "/_matrix/client/versions") {
      count(stats.routes, "versions");
      return send(res, 200, VERSIONS);
    }
    const route = CLIENT.exec(url.pathname)?.[1];
    if (route === "/sync" && method === "GET") {
      count(stats.routes, "sync");
      const since = url.searchParams.get("since");
      if (since === null) return send(res, 200, initial);
      const index = /^s(\d+)$/.exec(since)?.[1];
      const batch = index === undefined ? undefined : batches[Number(index)];
      if (batch) return send(res, 200, batch);
      const wait = Math.min(Number(url.searchParams.get("timeout") ?? 0) || 0, TAIL_POLL_MS);
      const timer = setTimeout(() => {
        pending.delete(timer);
        send(res, 200, tail);
      }, wait);
      timer.unref();
      pending.add(timer);
      return;
    }
    if (route === "/capabilities") {
      count(stats.routes, "capabilities");
      return send(res, 200, CAPABILITIES);
    }
    if (route !== undefined && /^\/pushrules\/(global\/)?$/.test(route)) {
      count(stats.routes, "pushrules");
      return send(res, 200, pushRules);
    }
    const filter = route === undefined ? null : /^\/user\/[^/]+\/filter(?:\/([^/]+))?$/.exec(route);
    if (filter && method === "POST" && filter[1] === undefined) {
      count(stats.routes, "filter");
      const id = String(filters.size + 1);
      filters.set(id, body);
      return send(res, 200, Buffer.from(JSON.stringify({ filter_id: id })));
    }
    if (filter && method === "GET" && filter[1] !== undefined) {
      count(stats.routes, "filter");
      const stored = filters.get(decodeURIComponent(filter[1]));
      if (stored) return send(res, 200, stored);
      return send(res, 404, Buffer.from(JSON.stringify({ errcode: "M_NOT_FOUND", error: "No such filter" })));
    }
    const roomPath =
      route === undefined ? null : /^\/rooms\/([^/]+)\/(event|relations)\/([^/]+)(?:\/.*)?$/.exec(route);
    if (roomPath && method === "GET") {
      count(stats.routes, roomPath[2] ?? "");
      const thread = threads.get(decodeURIComponent(roomPath[3] ?? ""));
      const inRoom = thread !== undefined && thread.root.room_id === decodeURIComponent(roomPath[1] ?? "");
      if (roomPath[2] === "event") {
        if (inRoom) return send(res, 200, Buffer.from(JSON.stringify(thread.root)));
        return send(
          res,
          404,
          Buffer.from(JSON.stringify({ errcode: "M_NOT_FOUND", error: "Event not found" })),
        );
      }
      const replies = inRoom ? thread.replies : [];
      const ordered = url.searchParams.get("dir") === "f" ? replies : [...replies].reverse();
      const limit = Number(url.searchParams.get("limit") ?? 50) || 50;
      return send(res, 200, Buffer.from(JSON.stringify({ chunk: ordered.slice(0, limit) })));
    }
    const messages = route === undefined ? null : /^\/rooms\/([^/]+)\/messages$/.exec(route);
    if (messages && method === "GET") {
      count(stats.routes, "messages");
      const page = historyPage(
        decodeURIComponent(messages[1] ?? ""),
        url.searchParams.get("from"),
        Number(url.searchParams.get("limit") ?? 10),
      );
      return send(res, 200, Buffer.from(JSON.stringify(page)));
    }
    const extra = route === undefined ? undefined : options.web?.extraRoutes(method, route);
    if (extra) {
      count(stats.routes, "web");
      return send(res, extra.status, Buffer.from(JSON.stringify(extra.body)));
    }
    count(stats.unrecognised, `${method} ${url.pathname}`);
    send(res, 404, UNRECOGNISED);
  };

  let idleTimer: NodeJS.Timeout | undefined;
  const server = createServer((req, res) => {
    armIdle();
    if (options.web) res.setHeader("access-control-allow-origin", "*");
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, Buffer.from(JSON.stringify({ errcode: "M_UNKNOWN", error: String(error) })));
    });
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(idleTimer);
      for (const timer of pending) clearTimeout(timer);
      server.close(() => {
        options.onClose?.();
        resolve();
      });
      server.closeAllConnections();
    });
    return closed;
  };
  function armIdle(): void {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), options.idleMs ?? DEFAULT_IDLE_MS);
    idleTimer.unref();
  }
  // Node closes an idle keep-alive socket after 5 s. A client whose event loop is busy longer than
  // that (js-sdk building 3,000 rooms) then writes its next request into a socket the server has
  // closed and gets "fetch failed", where a browser would silently retry on a new connection.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  armIdle();
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, meta, stats, close };
}

function send(res: ServerResponse, status: number, body: Buffer): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

const VERSIONS = Buffer.from(
  JSON.stringify({
    versions: [
      "r0.6.1",
      "v1.1",
      "v1.2",
      "v1.3",
      "v1.4",
      "v1.5",
      "v1.6",
      "v1.7",
      "v1.8",
      "v1.9",
      "v1.10",
      "v1.11",
      "v1.12",
    ],
    unstable_features: {},
  }),
);
const CAPABILITIES = Buffer.from(
  JSON.stringify({
    capabilities: {
      "m.change_password": { enabled: true },
      "m.room_versions": { default: "10", available: { "9": "stable", "10": "stable", "11": "stable" } },
      "m.set_displayname": { enabled: true },
      "m.set_avatar_url": { enabled: true },
      "m.3pid_changes": { enabled: true },
    },
  }),
);
const CORS_PREFLIGHT = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-max-age": "86400",
};
const UNRECOGNISED = Buffer.from(
  JSON.stringify({ errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }),
);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rooms: { type: "string", default: "100" } } });
  const { dir } = ensureFixture(Number(values.rooms));
  const server = await startBenchServer({ dir, onClose: () => console.log("closed after a quiet spell") });
  console.log(`serving ${dir} at ${server.url} (closes after ${DEFAULT_IDLE_MS / 1000} s without a request)`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
