/**
 * Profile: the user's display name and avatar, anyone's profile, and the
 * extended profile fields, which need server support ('Server does not
 * support extended profiles', raised by the api guard from the versions
 * document before any request).
 */
import {
  deleteExtendedProfileField,
  getExtendedProfile,
  getProfile,
  patchExtendedProfile,
  setAvatarUrl,
  setDisplayName,
  setExtendedProfileField,
  supportsExtendedProfiles,
} from "../../api/profile";
import type { Profile, ProfileKey } from "../../api/types/profile";
import type { VersionsResponse } from "../../api/types/server";
import type { HttpApi } from "../../http/types";
import type { Actor } from "./types";

export interface ProfileServiceOptions {
  http: HttpApi;
  actor: Actor;
  /** The server's versions document (the facade caches it). */
  versions: () => Promise<VersionsResponse>;
}

export class ProfileService {
  constructor(private readonly options: ProfileServiceOptions) {}

  private get userId(): string {
    return this.options.actor.userId;
  }

  /** A user's public profile (the user's own by default). */
  get(userId: string = this.userId): Promise<Profile> {
    return getProfile(this.options.http, userId);
  }

  setDisplayName(displayName: string): Promise<void> {
    return setDisplayName(this.options.http, this.userId, displayName);
  }

  setAvatarUrl(mxc: string): Promise<void> {
    return setAvatarUrl(this.options.http, this.userId, mxc);
  }

  /** Whether the server supports extended profiles. */
  async supportsExtended(): Promise<boolean> {
    return supportsExtendedProfiles(await this.options.versions());
  }

  /** The full extended profile of a user. */
  async getExtended(userId: string = this.userId): Promise<Profile> {
    return getExtendedProfile(this.options.http, await this.options.versions(), userId);
  }

  /** Sets one extended field (e.g. m.tz). */
  async setField(key: ProfileKey, value: unknown): Promise<void> {
    await setExtendedProfileField(this.options.http, await this.options.versions(), this.userId, key, value);
  }

  /** Removes one extended field. */
  async deleteField(key: ProfileKey): Promise<void> {
    await deleteExtendedProfileField(this.options.http, await this.options.versions(), this.userId, key);
  }

  /** Merges fields into the extended profile. */
  async patch(profile: Profile): Promise<void> {
    await patchExtendedProfile(this.options.http, await this.options.versions(), this.userId, profile);
  }
}
