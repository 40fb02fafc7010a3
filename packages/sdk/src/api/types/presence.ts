/**
 * Wire types of presence (presence.yaml).
 */

/** The presence states a user can set or have. */
export type PresenceState = "online" | "offline" | "unavailable";

/** PUT /presence/{userId}/status body. */
export interface SetPresenceRequest {
  presence: PresenceState;
  status_msg?: string;
}

/** GET /presence/{userId}/status */
export interface PresenceStatusResponse {
  presence: PresenceState;
  last_active_ago?: number;
  status_msg?: string | null;
  currently_active?: boolean;
}
