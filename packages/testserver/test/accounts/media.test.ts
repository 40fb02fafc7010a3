/**
 * The media repository and URL previews over HTTP.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, register } from "./helpers";
import type { Session } from "./helpers";

let server: TestServerHandle;
let specErrors: () => string[] = () => [];
let user: Session;
let site: Server;
let siteUrl: string;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

beforeAll(async () => {
  server = await startTestServer({ seed: 8 });
  specErrors = validateAgainstSpec(server);
  user = await register(server, "uma", "pw");
  site = createServer((req, res) => {
    if (req.url === "/page") {
      res.writeHead(200, { "Content-Type": "text/html" }).end(
        `<html><head><title>Fallback</title>
<meta property="og:title" content="Lattice &amp; friends">
<meta content="A test page" name="og:description">
<meta property="og:image" content="/img.png"></head><body>hi</body></html>`,
      );
    } else if (req.url === "/img.png") {
      res.writeHead(200, { "Content-Type": "image/png" }).end(PNG);
    } else if (req.url === "/plain") {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<title>Only a title</title>");
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.stop();
  await new Promise<void>((r) => site.close(() => r()));
  expect(specErrors()).toEqual([]);
});

const auth = (): Record<string, string> => ({ Authorization: `Bearer ${user.accessToken}` });

async function upload(data: Buffer | string, type: string, filename?: string): Promise<Response> {
  const q = filename ? `?filename=${encodeURIComponent(filename)}` : "";
  return fetch(`${server.url}/_matrix/media/v3/upload${q}`, {
    method: "POST",
    headers: { ...auth(), "Content-Type": type },
    body: data,
  });
}

describe("media", () => {
  it("advertises the upload limit on both paths", async () => {
    for (const path of ["/_matrix/client/v1/media/config", "/_matrix/media/v3/config"]) {
      expect((await call(server, "GET", path, undefined, user.accessToken)).body).toEqual({
        "m.upload.size": 52428800,
      });
    }
  });

  it("uploads and downloads on the authenticated and legacy paths, with thumbnails", async () => {
    const res = await upload(PNG, "image/png", "dot.png");
    const { content_uri: uri } = (await res.json()) as { content_uri: string };
    expect(uri).toMatch(/^mxc:\/\/localhost\/[A-Za-z0-9]+$/);
    const id = uri.slice("mxc://localhost/".length);

    const authed = await fetch(`${server.url}/_matrix/client/v1/media/download/localhost/${id}`, {
      headers: auth(),
    });
    expect(authed.status).toBe(200);
    expect(authed.headers.get("content-type")).toBe("image/png");
    expect(authed.headers.get("content-disposition")).toContain("dot.png");
    expect(Buffer.from(await authed.arrayBuffer()).equals(PNG)).toBe(true);
    const unauthed = await fetch(`${server.url}/_matrix/client/v1/media/download/localhost/${id}`);
    expect(unauthed.status).toBe(401);
    const legacy = await fetch(`${server.url}/_matrix/media/v3/download/localhost/${id}/other.png`);
    expect(legacy.headers.get("content-disposition")).toContain("other.png");

    const thumb = await fetch(
      `${server.url}/_matrix/client/v1/media/thumbnail/localhost/${id}?width=32&height=32&method=scale`,
      { headers: auth() },
    );
    expect(Buffer.from(await thumb.arrayBuffer()).equals(PNG)).toBe(true);
    const noSize = await call(
      server,
      "GET",
      `/_matrix/client/v1/media/thumbnail/localhost/${id}`,
      undefined,
      user.accessToken,
    );
    expect(noSize.body["errcode"]).toBe("M_MISSING_PARAM");
    const missing = await call(
      server,
      "GET",
      "/_matrix/client/v1/media/download/localhost/nope",
      undefined,
      user.accessToken,
    );
    expect(missing).toMatchObject({ status: 404, body: { errcode: "M_NOT_FOUND" } });
    const remote = await call(server, "GET", `/_matrix/media/v3/download/elsewhere.org/${id}`);
    expect(remote.status).toBe(404);
  });

  it("serves non-images as attachments and keeps a missing content type safe", async () => {
    const res = await upload("<script>alert(1)</script>", "text/html");
    const { content_uri: uri } = (await res.json()) as { content_uri: string };
    const dl = await fetch(`${server.url}/_matrix/media/v3/download/localhost/${uri.split("/").pop() ?? ""}`);
    expect(dl.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(dl.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("refuses uploads over 50 MiB with M_TOO_LARGE", async () => {
    const res = await upload(Buffer.alloc(50 * 1024 * 1024 + 1), "application/octet-stream");
    expect(res.status).toBe(413);
    expect(((await res.json()) as Record<string, unknown>)["errcode"]).toBe("M_TOO_LARGE");
  });

  it("supports the create + upload pair", async () => {
    const created = await call(server, "POST", "/_matrix/media/v1/create", {}, user.accessToken);
    const uri = created.body["content_uri"] as string;
    const id = uri.split("/").pop() ?? "";
    const put = await fetch(`${server.url}/_matrix/media/v3/upload/localhost/${id}`, {
      method: "PUT",
      headers: { ...auth(), "Content-Type": "text/plain" },
      body: "later",
    });
    expect(put.status).toBe(200);
    const again = await fetch(`${server.url}/_matrix/media/v3/upload/localhost/${id}`, {
      method: "PUT",
      headers: { ...auth(), "Content-Type": "text/plain" },
      body: "again",
    });
    expect(again.status).toBe(409);
    expect(await (await fetch(`${server.url}/_matrix/media/v3/download/localhost/${id}`)).text()).toBe(
      "later",
    );
  });
});

describe("preview_url", () => {
  const preview = (url: string): Promise<{ status: number; body: Record<string, unknown> }> =>
    call(
      server,
      "GET",
      `/_matrix/client/v1/media/preview_url?url=${encodeURIComponent(url)}`,
      undefined,
      user.accessToken,
    );

  it("reads Open Graph tags of a loopback page and stores its image", async () => {
    const res = await preview(`${siteUrl}/page`);
    expect(res.status).toBe(200);
    expect(res.body["og:title"]).toBe("Lattice & friends");
    expect(res.body["og:description"]).toBe("A test page");
    expect(res.body["og:image"]).toMatch(/^mxc:\/\/localhost\//);
    expect(res.body["matrix:image:size"]).toBe(PNG.length);
    expect((await preview(`${siteUrl}/plain`)).body).toEqual({ "og:title": "Only a title" });
    const legacy = await call(
      server,
      "GET",
      `/_matrix/media/v3/preview_url?url=${encodeURIComponent(`${siteUrl}/plain`)}`,
      undefined,
      user.accessToken,
    );
    expect(legacy.status).toBe(200);
  });

  it("refuses non-loopback hosts and bad URLs", async () => {
    for (const url of [
      "https://example.org/",
      "http://10.0.0.1/",
      "http://127.0.0.1.evil.org/",
      "http://[::2]/",
    ]) {
      expect((await preview(url)).body["errcode"], url).toBe("M_FORBIDDEN");
    }
    expect((await preview("not a url")).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await preview("file:///etc/passwd")).body["errcode"]).toBe("M_INVALID_PARAM");
    expect(
      (await call(server, "GET", "/_matrix/client/v1/media/preview_url", undefined, user.accessToken)).body[
        "errcode"
      ],
    ).toBe("M_MISSING_PARAM");
    expect((await preview(`${siteUrl}/missing`)).status).toBe(502);
  });
});
