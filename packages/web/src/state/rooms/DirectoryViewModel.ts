/**
 * The public room directory browser: a search term (debounced by the
 * caller), pages fetched with next_batch and appended, an optional server,
 * and join or knock on a listed room (the room's join rule decides which).
 * A newer search makes the answer of an older one be ignored.
 */
import type { Client, PublicRoomsChunk } from "../../sdk";
import { ObservableValue } from "../observables";
import { describeFailure } from "./failure";

/** What the directory shows. */
export interface DirectoryState {
  rooms: readonly PublicRoomsChunk[];
  loading: boolean;
  /** More pages remain. */
  hasMore: boolean;
  error: string | null;
}

/** The join and knock of the room actions the directory uses. */
export interface DirectoryJoiner {
  join(target: { roomIdOrAlias: string; via: readonly string[] }): Promise<string>;
  knock(target: { roomIdOrAlias: string; via: readonly string[] }, reason?: string): Promise<string>;
}

/** How many rooms one page asks for. */
export const DIRECTORY_PAGE_SIZE = 20;

export class DirectoryViewModel {
  readonly state = new ObservableValue<DirectoryState>({
    rooms: [],
    loading: false,
    hasMore: false,
    error: null,
  });
  private term = "";
  private server: string | undefined;
  private nextBatch: string | undefined;
  private generation = 0;

  constructor(
    private readonly directory: Client["directory"],
    private readonly joiner: DirectoryJoiner,
  ) {}

  /** Starts a new search (empty: the whole directory), optionally on another server. */
  search(term: string, server?: string): Promise<void> {
    this.term = term.trim();
    this.server = server !== undefined && server.trim() !== "" ? server.trim() : undefined;
    this.nextBatch = undefined;
    this.generation += 1;
    this.state.set({ rooms: [], loading: true, hasMore: false, error: null });
    return this.fetch(this.generation);
  }

  /** Fetches the next page, when there is one. */
  loadMore(): Promise<void> {
    const now = this.state.getSnapshot();
    if (now.loading || !now.hasMore) return Promise.resolve();
    this.state.set({ ...now, loading: true });
    return this.fetch(this.generation);
  }

  /** Joins (or, for a knock room, asks to join) a listed room; resolves with its id. */
  async enter(room: PublicRoomsChunk, reason?: string): Promise<string> {
    const target = {
      roomIdOrAlias: room.canonical_alias ?? room.room_id,
      via: this.server !== undefined ? [this.server] : [],
    };
    return room.join_rule === "knock" ? this.joiner.knock(target, reason) : this.joiner.join(target);
  }

  private async fetch(generation: number): Promise<void> {
    try {
      const page = await this.directory.publicRooms({
        limit: DIRECTORY_PAGE_SIZE,
        ...(this.term !== "" ? { filter: { generic_search_term: this.term } } : {}),
        ...(this.nextBatch !== undefined ? { since: this.nextBatch } : {}),
        ...(this.server !== undefined ? { server: this.server } : {}),
      });
      if (generation !== this.generation) return;
      this.nextBatch = page.next_batch ?? undefined;
      const before = this.state.getSnapshot().rooms;
      const seen = new Set(before.map((r) => r.room_id));
      this.state.set({
        rooms: [...before, ...page.chunk.filter((r) => !seen.has(r.room_id))],
        loading: false,
        hasMore: this.nextBatch !== undefined,
        error: null,
      });
    } catch (error) {
      if (generation !== this.generation) return;
      this.state.set({ ...this.state.getSnapshot(), loading: false, error: describeFailure(error) });
    }
  }
}
