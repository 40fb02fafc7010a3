/**
 * A folder of built test pages served on a loopback port of its own (a
 * second origin beside the app): the widget pages and the matrix-js-sdk
 * peer pages. Paths with ".." are refused; the folder is removed on close.
 */
import { readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".map": "application/json",
};

/** The served folder: its origin with a trailing slash, and close(). */
export interface ServedFolder {
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` on 127.0.0.1 (a random port); close() stops the server and removes `dir`. */
export async function serveFolder(dir: string): Promise<ServedFolder> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/+/, "");
    if (path.includes("..") || path === "") {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, path)).then(
      (body) =>
        res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
