/**
 * Element Call served by the app: the dev server's middleware answers its
 * index.html, assets and our config.json (which names no server), refuses
 * paths outside the package, and the build step copies the package into
 * the output under element-call/ (without source maps). The dev server
 * also serves it on a second loopback origin and tells the app so. The
 * app's URL builder and the server agree on the path.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ELEMENT_CALL_CONFIG,
  ELEMENT_CALL_PATH,
  ELEMENT_CALL_URL_ENV,
  elementCallDist,
  elementCallPlugin,
  resolveElementCallFile,
} from "../../../elementCallHosting";
import { ELEMENT_CALL_BASE_PATH } from "./ElementCallParams";

type Middleware = (req: { url?: string }, res: unknown, next: () => void) => void;

describe("Element Call hosting", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("serves the npm package's build and our config from the dev server", async () => {
    expect(ELEMENT_CALL_PATH).toBe(`/${ELEMENT_CALL_BASE_PATH}`);
    const plugin = elementCallPlugin();
    let middleware: Middleware | undefined;
    const configureServer = plugin.configureServer as (s: unknown) => void;
    configureServer({ middlewares: { use: (m: Middleware) => (middleware = m) } });
    if (middleware === undefined) throw new Error("no middleware registered");
    const mw = middleware;
    const server = createServer((req, res) =>
      mw(req, res, () => {
        res.statusCode = 418; // not ours: passed on
        res.end();
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const index = await fetch(`${base}/element-call/index.html`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toContain("text/html");
      const html = await index.text();
      expect(html).toContain("<title>Element Call</title>");
      const script = /src="\.\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const js = await fetch(`${base}/element-call/${script}`);
      expect(js.headers.get("content-type")).toContain("text/javascript");
      expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
      const config = (await (await fetch(`${base}/element-call/config.json`)).json()) as unknown;
      expect(config).toEqual(ELEMENT_CALL_CONFIG);
      expect(JSON.stringify(config)).not.toMatch(/https?:|base_url|server_name|livekit_service_url/);
      expect((await fetch(`${base}/element-call/missing.js`)).status).toBe(404);
      expect((await fetch(`${base}/other`)).status).toBe(418);
      const dir = await fetch(`${base}/element-call`, { redirect: "manual" });
      expect(dir.status).toBe(302);
      expect(dir.headers.get("location")).toBe("/element-call/");
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("the dev server serves it on a second origin of its own and points the app there; a build does not", async () => {
    const plugin = elementCallPlugin();
    const config = plugin.config as (c: unknown, env: { command: string }) => Promise<unknown>;
    const served = (await config({}, { command: "serve" })) as { define: Record<string, string> };
    const url = JSON.parse(served.define[`import.meta.env.${ELEMENT_CALL_URL_ENV}`] ?? '""') as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/element-call\/$/);
    try {
      expect(await (await fetch(`${url}config.json`)).json()).toEqual(ELEMENT_CALL_CONFIG);
      expect((await fetch(`${url}index.html`)).status).toBe(200);
      expect((await fetch(new URL("/other", url))).status).toBe(404);
    } finally {
      (plugin.buildEnd as () => void)();
    }
    await expect(fetch(`${url}config.json`)).rejects.toThrow();
    expect(await config({}, { command: "build" })).toBeUndefined();
  });

  it("never resolves a path outside the package", () => {
    const dist = elementCallDist();
    expect(resolveElementCallFile(dist, "/element-call/../package.json")).toBeNull();
    expect(resolveElementCallFile(dist, "/element-call/%2e%2e/%2e%2e/package.json")).toBeNull();
    expect(resolveElementCallFile(dist, "/element-call/%E0%A4%A")).toBeNull();
    expect(resolveElementCallFile(dist, "/element-call/")).toBe(join(dist, "index.html"));
  });

  it("copies the package into the build under element-call/, with our config", () => {
    const root = mkdtempSync(join(tmpdir(), "lattice-ec-build-"));
    dirs.push(root);
    const plugin = elementCallPlugin();
    (plugin.configResolved as (c: unknown) => void)({ root, build: { outDir: "dist" } });
    (plugin.writeBundle as () => void)();
    const out = join(root, "dist", "element-call");
    expect(existsSync(join(out, "index.html"))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8"))).toEqual(ELEMENT_CALL_CONFIG);
    const assets = readdirSync(join(out, "assets"));
    expect(assets.some((a) => a.endsWith(".js"))).toBe(true);
    expect(assets.filter((a) => a.endsWith(".map"))).toEqual([]);
  });
});
