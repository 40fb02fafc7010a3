/**
 * Profiles: read a user's profile or one field of it, set the display name
 * and avatar, and the extended profile calls of MSC4133 (any field, PUT or
 * PATCH of the whole profile, DELETE of a field). Extended calls take the
 * versions document: they need server support (Matrix v1.16 or the MSC's
 * feature flags) and use the stable or unstable prefix it allows.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import { ApiError } from "./errors";
import type { Profile, ProfileFieldResponse, ProfileKey } from "./types/profile";
import type { VersionsResponse } from "./types/server";
import { EXTENDED_PROFILES_FEATURE, EXTENDED_PROFILES_PREFIX } from "./unstable";
import { hasUnstableFeature, supportsVersion } from "./versions";

/** The spec version that made extended profiles stable. */
const EXTENDED_PROFILES_VERSION = "v1.16";

function hasStableExtendedProfiles(versions: VersionsResponse): boolean {
  return (
    supportsVersion(versions, EXTENDED_PROFILES_VERSION) ||
    hasUnstableFeature(versions, EXTENDED_PROFILES_FEATURE.stable ?? "")
  );
}

/** Whether the server supports extended profiles, stable or unstable. */
export function supportsExtendedProfiles(versions: VersionsResponse): boolean {
  return (
    hasStableExtendedProfiles(versions) || hasUnstableFeature(versions, EXTENDED_PROFILES_FEATURE.unstable)
  );
}

/**
 * The prefix for extended profile calls on this server. Throws
 * ApiError('Server does not support extended profiles') without support.
 */
export function extendedProfilePrefix(versions: VersionsResponse): string {
  if (hasStableExtendedProfiles(versions))
    return EXTENDED_PROFILES_PREFIX.stable ?? EXTENDED_PROFILES_PREFIX.unstable;
  if (hasUnstableFeature(versions, EXTENDED_PROFILES_FEATURE.unstable))
    return EXTENDED_PROFILES_PREFIX.unstable;
  throw new ApiError("UNSUPPORTED_BY_SERVER", "Server does not support extended profiles");
}

/** GET /profile/{userId} */
export function getProfile(http: HttpApi, userId: string): Promise<Profile> {
  return http.request<Profile>({ method: "GET", path: encodePath`/profile/${userId}` });
}

/** GET /profile/{userId}/{key}: an object holding the one field. */
export function getProfileField(
  http: HttpApi,
  userId: string,
  key: ProfileKey,
): Promise<ProfileFieldResponse> {
  return http.request<ProfileFieldResponse>({ method: "GET", path: encodePath`/profile/${userId}/${key}` });
}

/** PUT /profile/{userId}/displayname */
export async function setDisplayName(http: HttpApi, userId: string, displayname: string): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: encodePath`/profile/${userId}/displayname`,
    body: { displayname },
  });
}

/** PUT /profile/{userId}/avatar_url */
export async function setAvatarUrl(http: HttpApi, userId: string, avatarUrl: string): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: encodePath`/profile/${userId}/avatar_url`,
    body: { avatar_url: avatarUrl },
  });
}

/** GET /profile/{userId} on the extended profile prefix (all fields, custom ones included). */
export async function getExtendedProfile(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
): Promise<Profile> {
  // async, so the support check rejects the promise rather than throwing synchronously.
  const prefix = extendedProfilePrefix(versions);
  return await http.request<Profile>({ method: "GET", prefix, path: encodePath`/profile/${userId}` });
}

/** GET /profile/{userId}/{key} on the extended profile prefix. */
export async function getExtendedProfileField(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  key: ProfileKey,
): Promise<ProfileFieldResponse> {
  const prefix = extendedProfilePrefix(versions);
  return await http.request<ProfileFieldResponse>({
    method: "GET",
    prefix,
    path: encodePath`/profile/${userId}/${key}`,
  });
}

/** PUT /profile/{userId}/{key}: sets any field, custom ones included. */
export async function setExtendedProfileField(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  key: ProfileKey,
  value: unknown,
): Promise<void> {
  const prefix = extendedProfilePrefix(versions);
  // A computed key defines an own property even for "__proto__".
  const body: Record<string, unknown> = { [key]: value };
  await http.request<unknown>({ method: "PUT", prefix, path: encodePath`/profile/${userId}/${key}`, body });
}

/** DELETE /profile/{userId}/{key}: removes the field. */
export async function deleteExtendedProfileField(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  key: ProfileKey,
): Promise<void> {
  const prefix = extendedProfilePrefix(versions);
  await http.request<unknown>({ method: "DELETE", prefix, path: encodePath`/profile/${userId}/${key}` });
}

/** PUT /profile/{userId} (MSC4133): replaces the whole profile; absent fields are removed. */
export async function setExtendedProfile(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  profile: Profile,
): Promise<void> {
  const prefix = extendedProfilePrefix(versions);
  await http.request<unknown>({ method: "PUT", prefix, path: encodePath`/profile/${userId}`, body: profile });
}

/** PATCH /profile/{userId} (MSC4133): merges the given fields into the profile. */
export async function patchExtendedProfile(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  profile: Profile,
): Promise<void> {
  const prefix = extendedProfilePrefix(versions);
  await http.request<unknown>({
    method: "PATCH",
    prefix,
    path: encodePath`/profile/${userId}`,
    body: profile,
  });
}
