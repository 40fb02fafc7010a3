/**
 * The driver's non-event actions on the SDK: user directory search, media
 * config, upload and download (authenticated media when /versions says
 * so), TURN servers (the SDK's TurnServers in voip), RTC transports
 * (MSC4515, from the SDK's transports discovery), the OpenID token, and
 * the extra error fields a widget gets with a failure. None of these hand
 * the access token, an HTTP client or a tokenised URL to the widget:
 * downloads are bytes, uploads answer an mxc URI.
 */
import type { OpenIdCredentials, TurnServer, UserDirectorySearchResult } from "@lattice/widget-api";
import {
  MatrixError,
  downloadContent,
  getMediaConfig as apiGetMediaConfig,
  requestOpenIdToken,
  searchUserDirectory as apiSearchUserDirectory,
  uploadContent,
} from "../../../sdk";
import { WidgetHostError } from "../errors";
import type { DriverContext } from "./context";

/** user_directory_search. */
export async function searchUserDirectory(
  ctx: DriverContext,
  term: string,
  limit: number | undefined,
): Promise<UserDirectorySearchResult> {
  const res = await apiSearchUserDirectory(ctx.client.http, term, limit);
  return {
    limited: res.limited,
    results: res.results.map((r) => ({
      userId: r.user_id,
      ...(typeof r.display_name === "string" ? { displayName: r.display_name } : {}),
      ...(typeof r.avatar_url === "string" ? { avatarUrl: r.avatar_url } : {}),
    })),
  };
}

async function mediaChoice(ctx: DriverContext): Promise<{ authenticatedMedia: boolean }> {
  return { authenticatedMedia: (await ctx.client.serverFeatures()).authenticatedMedia };
}

/** get_media_config. */
export async function getMediaConfig(ctx: DriverContext): Promise<Record<string, unknown>> {
  const config = await apiGetMediaConfig(ctx.client.http, await mediaChoice(ctx));
  return { ...config };
}

/** The bytes of what a widget hands to upload_file (a Blob, bytes or a string). */
async function bytesOf(file: unknown): Promise<{ body: Uint8Array | ArrayBuffer | Blob; type?: string }> {
  if (typeof Blob !== "undefined" && file instanceof Blob)
    return { body: file, ...(file.type ? { type: file.type } : {}) };
  if (file instanceof ArrayBuffer) return { body: file };
  if (ArrayBuffer.isView(file))
    return { body: new Uint8Array(file.buffer, file.byteOffset, file.byteLength) };
  if (typeof file === "string") return { body: new TextEncoder().encode(file), type: "text/plain" };
  return Promise.reject(new WidgetHostError("invalid", "The file is not a Blob, bytes or text"));
}

/** upload_file: answers the mxc URI. */
export async function uploadFile(ctx: DriverContext, file: unknown): Promise<{ contentUri: string }> {
  const { body, type } = await bytesOf(file);
  const res = await uploadContent(ctx.client.http, body, type !== undefined ? { contentType: type } : {});
  return { contentUri: res.content_uri };
}

/** download_file: answers a Blob of the content (never a URL the widget could fetch with our token). */
export async function downloadFile(ctx: DriverContext, contentUri: string): Promise<{ file: unknown }> {
  const res = await downloadContent(ctx.client.http, contentUri, await mediaChoice(ctx));
  const bytes = new Uint8Array(res.data);
  return { file: new Blob([bytes], res.contentType !== null ? { type: res.contentType } : {}) };
}

function turnEntries(
  servers: readonly { urls: string | string[]; username?: string; credential?: string }[],
): TurnServer | null {
  for (const s of servers) {
    if (typeof s.username !== "string" || typeof s.credential !== "string") continue;
    return {
      uris: Array.isArray(s.urls) ? [...s.urls] : [s.urls],
      username: s.username,
      password: s.credential,
    };
  }
  return null;
}

/**
 * TURN servers while watched: the first value now, then each refresh the
 * SDK's TurnServers polls. A server that refuses TURN (403) ends the
 * generator at once ('Client refuses to provide any TURN servers'); one
 * without TURN throws ('TURN servers not available').
 */
export async function* turnServers(ctx: DriverContext): AsyncGenerator<TurnServer, void, void> {
  const turn = (await ctx.client.voip()).turn;
  await turn.start();
  let state = turn.current.getSnapshot();
  if (state.stopped) return;
  let last = turnEntries(state.servers);
  if (!last) throw new WidgetHostError("unsupported", "The homeserver offers no TURN servers");
  yield last;
  for (;;) {
    state = await new Promise<typeof state>((resolve) => {
      const stop = turn.current.subscribe((next) => {
        stop();
        resolve(next);
      });
    });
    if (state.stopped) return;
    const next = turnEntries(state.servers);
    if (next && JSON.stringify(next) !== JSON.stringify(last)) {
      last = next;
      yield next;
    }
  }
}

/** get_rtc_transports (MSC4515): the transports discovery found, in their wire form. */
export async function rtcTransports(ctx: DriverContext): Promise<Record<string, unknown>[]> {
  const { transports } = await (await ctx.client.rtc()).discovery.get();
  return transports.map((t) => ({
    type: t.type,
    ...(t.livekitServiceUrl !== undefined ? { livekit_service_url: t.livekitServiceUrl } : {}),
    ...(t.livekitAlias !== undefined ? { livekit_alias: t.livekitAlias } : {}),
  }));
}

/** An OpenID token for the widget (after the user allowed it). */
export async function openIdToken(ctx: DriverContext): Promise<OpenIdCredentials> {
  const t = await requestOpenIdToken(ctx.client.http, ctx.client.userId);
  return {
    access_token: t.access_token,
    expires_in: t.expires_in,
    matrix_server_name: t.matrix_server_name,
    token_type: "Bearer",
  };
}

/**
 * Extra fields with a driver error: the Matrix error as matrix-widget-api
 * reads it (`matrix_api_error`), without the request URL or headers.
 */
export function processError(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof MatrixError)) return undefined;
  return {
    matrix_api_error: {
      http_status: error.httpStatus,
      http_headers: {},
      url: "",
      response: { errcode: error.errcode, error: error.error },
    },
  };
}
