/**
 * When the send queues hold their sends: while the sync loop is reconnecting
 * or in error (SPEC §4 Sync), the server is known to be out of reach, so a
 * send would only burn a retry.
 */
import type { SyncState } from "../sync/SyncLoop";

/** True while the sync says the connection is down. */
export function isConnectionDown(state: SyncState | null): boolean {
  return state === "reconnecting" || state === "error";
}
