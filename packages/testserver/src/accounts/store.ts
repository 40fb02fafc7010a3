/**
 * Users, devices, access and refresh tokens, interactive auth, 3PIDs,
 * profiles, E2EE keys, to-device queues, media.
 *
 * The methods below the constructor are the cross-domain contract that sync
 * (rooms/) and the other domains call; their bodies are filled by the
 * accounts domain.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import type { Requester } from "../http/types";

export interface Profile {
  displayname?: string;
  avatar_url?: string;
}

export class AccountStore {
  constructor(protected readonly ctx: ServerContext) {}

  /**
   * Resolves an access token: the requester, "expired" for a token past its
   * lifetime (answered with soft_logout true), or undefined when unknown.
   */
  authenticate(_token: string): Requester | "expired" | undefined {
    return undefined;
  }

  /** Whether the user is registered (and not deactivated). */
  userExists(_userId: string): boolean {
    return false;
  }

  /** The user's profile, for membership events and the user directory. */
  profile(_userId: string): Profile | undefined {
    return undefined;
  }

  /**
   * To-device messages for a device with a stream position after `since`.
   * Messages at or before `since` are acknowledged and deleted first (they
   * are kept until the next sync's since acknowledges them).
   */
  toDeviceSince(_userId: string, _deviceId: string, _since: number): JsonObject[] {
    return [];
  }

  /** device_one_time_keys_count for a device. */
  oneTimeKeyCounts(_userId: string, _deviceId: string): Record<string, number> {
    return {};
  }

  /** device_unused_fallback_key_types for a device. */
  unusedFallbackKeyTypes(_userId: string, _deviceId: string): string[] {
    return [];
  }

  /** Users whose device list changed at a stream position in (since, until]. */
  deviceListChanges(_since: number, _until: number): string[] {
    return [];
  }
}
