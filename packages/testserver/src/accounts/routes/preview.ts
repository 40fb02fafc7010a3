/**
 * URL previews. The test server only fetches pages served on loopback
 * (127.0.0.0/8, localhost, [::1]); any other host is refused with
 * M_FORBIDDEN, so tests never reach the internet. og:title,
 * og:description and og:image are read from the HTML (falling back to
 * <title>); a loopback og:image is stored in the media repository and
 * returned as an mxc URI.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { requester } from "../body";

const MAX_PAGE_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 5000;

/** Whether a URL's host is a loopback address. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  const parts = host.split(".");
  return (
    parts.length === 4 && parts[0] === "127" && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255)
  );
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n) % 0x110000))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16) % 0x110000))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Reads og:* meta tags (property or name, either attribute order) and the <title>. */
export function parseOpenGraph(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    const attr = (name: string): string | undefined => {
      const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, "i").exec(tag);
      return m ? (m[2] ?? m[3]) : undefined;
    };
    const key = attr("property") ?? attr("name");
    const content = attr("content");
    if (key?.toLowerCase().startsWith("og:") && content !== undefined && !out.has(key.toLowerCase())) {
      out.set(key.toLowerCase(), decodeEntities(content).slice(0, 2000));
    }
  }
  if (!out.has("og:title")) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
    if (title?.[1]) out.set("og:title", decodeEntities(title[1].trim()).slice(0, 2000));
  }
  return out;
}

/** The preview target could not be fetched within the limits; the route answers 404 for it. */
class PreviewFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PreviewFetchError";
  }
}

async function fetchLimited(url: URL): Promise<{ type: string; data: Buffer }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "error" });
  if (!res.ok || !res.body) throw new PreviewFetchError(`status ${res.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).length;
    if (size > MAX_PAGE_BYTES) throw new PreviewFetchError("too large");
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return { type: res.headers.get("content-type") ?? "application/octet-stream", data: Buffer.concat(chunks) };
}

export function registerPreviewRoutes(router: Router, ctx: ServerContext): void {
  const preview = async (req: HandlerRequest): Promise<JsonObject> => {
    const who = requester(req);
    const raw = req.query.get("url");
    if (raw === null) throw errors.missingParam("url");
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw errors.invalidParam("url is not a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw errors.invalidParam("Unsupported URL scheme");
    if (!isLoopbackUrl(url)) throw errors.forbidden("The test server previews loopback URLs only");
    let page: { type: string; data: Buffer };
    try {
      page = await fetchLimited(url);
    } catch {
      throw new MatrixHttpError(502, "M_UNKNOWN", "Failed to download content");
    }
    if (page.type.startsWith("image/")) {
      const mxc = ctx.accounts.media.put(page.data, page.type, who.userId);
      return { "og:image": mxc, "og:image:type": page.type, "matrix:image:size": page.data.length };
    }
    const og = parseOpenGraph(page.data.toString("utf8"));
    const out: JsonObject = {};
    for (const key of ["og:title", "og:description", "og:type", "og:site_name", "og:url"]) {
      const value = og.get(key);
      if (value !== undefined) out[key] = value;
    }
    const image = og.get("og:image");
    if (image !== undefined) {
      try {
        const imageUrl = new URL(image, url);
        if (isLoopbackUrl(imageUrl)) {
          const img = await fetchLimited(imageUrl);
          out["og:image"] = ctx.accounts.media.put(img.data, img.type, who.userId);
          out["og:image:type"] = img.type;
          out["matrix:image:size"] = img.data.length;
        }
      } catch {
        // A preview without its image is still a preview.
      }
    }
    return out;
  };
  router.add("GET", "/_matrix/client/v1/media", "/preview_url", preview);
  router.add("GET", "/_matrix/media/v3", "/preview_url", preview);
}
