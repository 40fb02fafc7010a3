/**
 * Presence: set the user's own status and read anyone's. An unknown state
 * is refused with 'Bad presence value' by the api guard before any request
 * (SPEC §5); the guard is reused here, not restated.
 */
import { getPresence, isPresenceState, setPresence } from "../../api/presence";
import type { PresenceState, PresenceStatusResponse } from "../../api/types/presence";
import type { HttpApi } from "../../http/types";
import type { Actor } from "./types";

export interface PresenceServiceOptions {
  http: HttpApi;
  actor: Actor;
}

export class PresenceService {
  constructor(private readonly options: PresenceServiceOptions) {}

  /** Whether a value is one of offline, online and unavailable. */
  static isValid(value: unknown): value is PresenceState {
    return isPresenceState(value);
  }

  /** Sets the user's presence; 'Bad presence value' for anything but offline, online or unavailable. */
  async set(presence: PresenceState, statusMsg?: string): Promise<void> {
    await setPresence(this.options.http, this.options.actor.userId, presence, statusMsg);
  }

  /** A user's presence (the user's own by default). */
  get(userId: string = this.options.actor.userId): Promise<PresenceStatusResponse> {
    return getPresence(this.options.http, userId);
  }
}
