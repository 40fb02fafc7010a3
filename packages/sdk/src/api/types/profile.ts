/**
 * Wire types of user profiles (profile.yaml) and of extended profiles
 * (MSC4133, stable in Matrix v1.16): a profile is a JSON object with
 * `displayname`, `avatar_url`, `m.tz` and any namespaced custom field.
 */

/** A user's profile as GET /profile/{userId} returns it. */
export interface Profile {
  displayname?: string;
  avatar_url?: string;
  "m.tz"?: string;
  [key: string]: unknown;
}

/** The name of a profile field: displayname, avatar_url, m.tz or a namespaced custom key. */
export type ProfileKey = "displayname" | "avatar_url" | "m.tz" | (string & {});

/** GET /profile/{userId}/{key}: an object with the one requested field. */
export type ProfileFieldResponse = Record<string, unknown>;
