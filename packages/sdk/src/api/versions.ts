/**
 * GET /_matrix/client/versions, the one call with no prefix, and typed
 * readers of the document it returns. The document comes from the network,
 * so the readers tolerate any shape.
 */
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import type { VersionsResponse } from "./types/server";

/** SPEC §7: the versions call (also the keep-alive probe) gives up after 15 s. */
export const VERSIONS_TIMEOUT_MS = 15_000;

/** Options of getVersions. */
export interface GetVersionsOptions {
  /** Send the access token (some servers advertise more to signed-in users). Defaults to false. */
  authenticated?: boolean;
  /** Defaults to VERSIONS_TIMEOUT_MS. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** GET /_matrix/client/versions: the spec versions and unstable features the server supports. */
export function getVersions(http: HttpApi, options: GetVersionsOptions = {}): Promise<VersionsResponse> {
  return http.request<VersionsResponse>({
    method: "GET",
    prefix: Prefix.None,
    path: "/_matrix/client/versions",
    authenticated: options.authenticated ?? false,
    timeoutMs: options.timeoutMs ?? VERSIONS_TIMEOUT_MS,
    signal: options.signal,
  });
}

/** Whether the server lists the given spec version, e.g. supportsVersion(versions, "v1.11"). */
export function supportsVersion(versions: VersionsResponse, version: string): boolean {
  const list: unknown = (versions as { versions?: unknown }).versions;
  return Array.isArray(list) && list.includes(version);
}

/** Whether the server sets the given unstable feature flag to true. */
export function hasUnstableFeature(versions: VersionsResponse, name: string): boolean {
  const features: unknown = (versions as { unstable_features?: unknown }).unstable_features;
  if (typeof features !== "object" || features === null) return false;
  // Own properties only: a name like "__proto__" must not reach the prototype.
  return Object.hasOwn(features, name) && (features as Record<string, unknown>)[name] === true;
}
