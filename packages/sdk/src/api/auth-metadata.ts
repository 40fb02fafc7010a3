/**
 * The homeserver's OAuth 2.0 authorization server metadata
 * (api/client-server/oauth_server_metadata.yaml): where next-generation
 * (OIDC) sign-in happens. Stable since Matrix 1.15; older servers serve it
 * under MSC2965's unstable prefix, which the HTTP layer falls back to on an
 * unrecognised-endpoint answer.
 */
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import type { AuthMetadata } from "./types/auth-metadata";
import { AUTH_METADATA_PREFIX } from "./unstable";

/** GET /_matrix/client/v1/auth_metadata, falling back to the MSC2965 unstable path. */
export function getAuthMetadata(
  http: HttpApi,
  options: { signal?: AbortSignal } = {},
): Promise<AuthMetadata> {
  return http.request<AuthMetadata>({
    method: "GET",
    prefix: AUTH_METADATA_PREFIX.stable ?? Prefix.ClientV1,
    path: "/auth_metadata",
    fallback: [{ prefix: AUTH_METADATA_PREFIX.unstable }],
    // Read before sign-in: there is no token to send yet, and none is needed.
    authenticated: false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
