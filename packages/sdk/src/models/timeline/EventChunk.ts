/**
 * EventChunk: one contiguous run of a room's events, oldest first, with the
 * pagination tokens at its two ends. A room's timeline is a set of chunks
 * separated by gaps (a limited sync starts a new live chunk; /context opens
 * one around an event); pagination grows a chunk and merges it with a
 * neighbour once they meet. Windows follow their chunk through its changes.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";

/** What happened to a chunk. */
export type ChunkChange =
  | { readonly type: "prepend"; readonly count: number }
  | { readonly type: "append"; readonly count: number }
  | { readonly type: "replace"; readonly index: number }
  /** This chunk's events now live in `into`, starting at `offset`. */
  | { readonly type: "merged"; readonly into: EventChunk; readonly offset: number };

export class EventChunk {
  /** The events, oldest first. Mutated only by the TimelineSet. */
  readonly events: ClientEventWithoutRoomId[] = [];
  /**
   * The token to paginate backwards from; null once the start of the room is
   * reached (or when the server gave none).
   */
  backToken: string | null;
  /** The token to paginate forwards from; null at the live end or when unknown. */
  forwardToken: string | null;
  /** Whether sync appends to this chunk. */
  live: boolean;
  private readonly listeners = new Set<(change: ChunkChange) => void>();

  constructor(init: { backToken?: string | null; forwardToken?: string | null; live?: boolean } = {}) {
    this.backToken = init.backToken ?? null;
    this.forwardToken = init.forwardToken ?? null;
    this.live = init.live ?? false;
  }

  /** Subscribes to changes; returns the unsubscribe. */
  on(listener: (change: ChunkChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Notifies the chunk's listeners (TimelineSet only). */
  emit(change: ChunkChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  /** The index of an event, searching from the newest (where lookups usually land). */
  indexOf(eventId: string): number {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]?.event_id === eventId) return i;
    return -1;
  }

  /** Whether pagination can go further in a direction. */
  canPaginate(dir: "b" | "f"): boolean {
    return dir === "b" ? this.backToken !== null : this.forwardToken !== null && !this.live;
  }
}
