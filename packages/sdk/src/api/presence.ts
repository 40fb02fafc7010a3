/**
 * Presence: set and read a user's status. A value other than offline, online
 * or unavailable is refused before any request with 'Bad presence value'.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import { ApiError, BAD_PRESENCE_MESSAGE } from "./errors";
import type { PresenceState, PresenceStatusResponse, SetPresenceRequest } from "./types/presence";

const PRESENCE_STATES: ReadonlySet<unknown> = new Set<PresenceState>(["offline", "online", "unavailable"]);

/** Whether a value is one of the three presence states. */
export function isPresenceState(value: unknown): value is PresenceState {
  return PRESENCE_STATES.has(value);
}

/** Throws ApiError('Bad presence value') unless the value is offline, online or unavailable. */
export function assertPresenceState(value: unknown): asserts value is PresenceState {
  if (!isPresenceState(value)) throw new ApiError("INVALID_ARGUMENT", BAD_PRESENCE_MESSAGE);
}

/** PUT /presence/{userId}/status; throws ApiError('Bad presence value') for an unknown state. */
export async function setPresence(
  http: HttpApi,
  userId: string,
  presence: PresenceState,
  statusMsg?: string,
): Promise<void> {
  // Callers may hand over untyped data (e.g. from settings storage): check at run time.
  assertPresenceState(presence);
  const body: SetPresenceRequest = { presence };
  if (statusMsg !== undefined) body.status_msg = statusMsg;
  await http.request<unknown>({ method: "PUT", path: encodePath`/presence/${userId}/status`, body });
}

/** GET /presence/{userId}/status */
export function getPresence(http: HttpApi, userId: string): Promise<PresenceStatusResponse> {
  return http.request<PresenceStatusResponse>({
    method: "GET",
    path: encodePath`/presence/${userId}/status`,
  });
}
