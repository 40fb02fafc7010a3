/**
 * The narrow interfaces the client services depend on, so each takes only
 * what it uses (GUIDE rule 2) and tests can pass small fakes: who the user
 * is, the running guard of the sync service, and a read-only room lookup.
 */
import type { RoomSnapshot } from "../../models/room/Room";

/** Who the client acts as. */
export interface Actor {
  readonly userId: string;
  /** Guests send no receipts, typing notifications or state events (SPEC §6). */
  readonly guest: boolean;
}

/** The sync service's guard: throws 'Client is not running' while stopped. */
export interface RunningGuard {
  requireRunning(): void;
}

/** Rooms by id: `get` throws 'Unknown room' for a room the client does not know (the Rooms model). */
export interface RoomLookup {
  get(roomId: string): { getSnapshot(): RoomSnapshot };
}

/** A guard that never refuses, for services used without a sync service. */
export const ALWAYS_RUNNING: RunningGuard = { requireRunning: () => undefined };
