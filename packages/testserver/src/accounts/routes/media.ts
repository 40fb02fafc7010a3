/**
 * The media repository: config, upload (raw body, up to 50 MiB), the
 * asynchronous create + upload pair, and download and thumbnail on both the
 * authenticated /_matrix/client/v1/media paths and the legacy
 * /_matrix/media/v3 ones. Thumbnails are the original file: the test server
 * does not scale images (clients must accept a thumbnail larger than asked).
 */
import type { ServerContext } from "../../core/context";
import { errors, MatrixHttpError } from "../../http/errors";
import type { Router } from "../../http/router";
import type { HandlerRequest, HandlerResponse } from "../../http/types";
import { requester } from "../body";
import { MAX_UPLOAD_BYTES } from "../media-store";
import type { MediaItem } from "../media-store";

const LEGACY = "/_matrix/media/v3";
const AUTHED = "/_matrix/client/v1/media";

function contentTypeOf(req: HandlerRequest): string {
  const header = req.headers["content-type"];
  return typeof header === "string" && header.length > 0 && header.length < 256
    ? header
    : "application/octet-stream";
}

function filenameOf(req: HandlerRequest): string | undefined {
  const name = req.query.get("filename");
  return name !== null && name.length > 0 && name.length <= 255 ? name : undefined;
}

/** Content types a browser may render inline; anything else downloads as an attachment. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|apng|avif)|video\/(mp4|webm|ogg)|audio\/[a-z0-9.+-]+|text\/plain)(;|$)/i;

function serve(item: MediaItem, filename?: string): HandlerResponse {
  const name = filename ?? item.filename;
  const disposition = INLINE.test(item.contentType) ? "inline" : "attachment";
  const headers: Record<string, string> = {
    "Content-Disposition": name
      ? `${disposition}; filename*=utf-8''${encodeURIComponent(name)}`
      : disposition,
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Content-Security-Policy":
      "sandbox; default-src 'none'; script-src 'none'; plugin-types application/pdf; style-src 'unsafe-inline'; media-src 'self'; object-src 'self';",
  };
  return { raw: { contentType: item.contentType, data: item.data, headers } };
}

export function registerMediaRoutes(router: Router, ctx: ServerContext): void {
  const config = (): Record<string, unknown> => ({ "m.upload.size": MAX_UPLOAD_BYTES });
  router.add("GET", AUTHED, "/config", config);
  router.add("GET", LEGACY, "/config", config);

  const upload = { rawBody: true, maxBodyBytes: MAX_UPLOAD_BYTES };
  router.add(
    "POST",
    LEGACY,
    "/upload",
    (req) => ({
      content_uri: ctx.accounts.media.put(
        req.rawBody,
        contentTypeOf(req),
        requester(req).userId,
        filenameOf(req),
      ),
    }),
    upload,
  );

  router.add("POST", "/_matrix/media/v1", "/create", (req) => {
    const mediaId = ctx.accounts.media.create(requester(req).userId);
    return {
      content_uri: `mxc://${ctx.serverName}/${mediaId}`,
      unused_expires_at: ctx.clock.now() + 24 * 3600_000,
    };
  });

  router.add(
    "PUT",
    LEGACY,
    "/upload/:serverName/:mediaId",
    (req) => {
      if (req.params["serverName"] !== ctx.serverName) throw errors.notFound("Unknown media");
      const result = ctx.accounts.media.fill(
        req.params["mediaId"] ?? "",
        req.rawBody,
        contentTypeOf(req),
        requester(req).userId,
        filenameOf(req),
      );
      if (result === "unknown") throw errors.notFound("Unknown media");
      if (result === "forbidden") throw errors.forbidden("You did not create this media id");
      if (result === "exists")
        throw new MatrixHttpError(409, "M_CANNOT_OVERWRITE_MEDIA", "Media already uploaded");
      return {};
    },
    upload,
  );

  const find = (req: HandlerRequest): MediaItem => {
    const item = ctx.accounts.media.get(req.params["serverName"] ?? "", req.params["mediaId"] ?? "");
    if (!item) throw errors.notFound("Not found");
    return item;
  };
  const download = (req: HandlerRequest): HandlerResponse => serve(find(req), req.params["fileName"]);
  const thumbnail = (req: HandlerRequest): HandlerResponse => {
    for (const dim of ["width", "height"]) {
      const value = req.query.get(dim);
      if (value === null) throw errors.missingParam(dim);
      if (!/^[0-9]{1,6}$/.test(value)) throw errors.invalidParam(`${dim} must be an integer`);
    }
    const method = req.query.get("method");
    if (method !== null && method !== "crop" && method !== "scale")
      throw errors.invalidParam("Unknown method");
    return serve(find(req));
  };

  for (const [prefix, auth] of [
    [AUTHED, "required"],
    [LEGACY, "none"],
  ] as const) {
    router.add("GET", prefix, "/download/:serverName/:mediaId", download, { auth });
    router.add("GET", prefix, "/download/:serverName/:mediaId/:fileName", download, { auth });
    router.add("GET", prefix, "/thumbnail/:serverName/:mediaId", thumbnail, { auth });
  }
}
