/**
 * Search: messages in the current room or across rooms (the SDK's
 * server-side SearchService, one event of context each side, older pages on
 * demand until the server has none, when "Cannot backpaginate event search
 * any further" is shown), and users (the user directory). Results carry the
 * server's highlight terms; `highlightParts` splits a body around them.
 */
import type { Client, SearchResult, SearchResults } from "../../sdk";
import { ObservableValue } from "../observables";

/** The client parts search uses. */
export type SearchClient = Pick<Client, "search" | "directory"> & {
  readonly rooms: Pick<Client["rooms"], "find">;
};

/** Where messages are searched. */
export type SearchScope = "room" | "all";

/** One message result as shown. */
export interface MessageHit {
  readonly roomId: string;
  readonly roomName: string;
  readonly eventId: string;
  readonly sender: string;
  readonly body: string;
  readonly ts: number;
  readonly before?: string;
  readonly after?: string;
}

/** The message search's state. */
export interface MessageSearchView {
  readonly term: string;
  readonly loading: boolean;
  readonly hits: readonly MessageHit[];
  readonly count: number;
  readonly highlights: readonly string[];
  readonly canLoadMore: boolean;
  readonly error: string | null;
}

/** A user directory result. */
export interface UserHit {
  readonly userId: string;
  readonly displayName: string;
  readonly avatarUrl?: string;
}

const EMPTY: MessageSearchView = {
  term: "",
  loading: false,
  hits: [],
  count: 0,
  highlights: [],
  canLoadMore: false,
  error: null,
};

function bodyOf(event: { content?: Record<string, unknown> } | undefined): string | undefined {
  const body = event?.content?.["body"];
  return typeof body === "string" ? body : undefined;
}

/** Splits text into plain and highlighted runs (case-insensitive, longest terms first). */
export function highlightParts(
  text: string,
  terms: readonly string[],
): Array<{ text: string; hit: boolean }> {
  const words = [...new Set(terms.filter((w) => w.trim() !== ""))].sort((a, b) => b.length - a.length);
  if (words.length === 0) return [{ text, hit: false }];
  const pattern = new RegExp(
    `(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`,
    "gi",
  );
  return text
    .split(pattern)
    .filter((s) => s !== "")
    .map((s) => ({ text: s, hit: words.some((w) => w.toLowerCase() === s.toLowerCase()) }));
}

export class SearchViewModel {
  readonly messages = new ObservableValue<MessageSearchView>(EMPTY);
  readonly users = new ObservableValue<readonly UserHit[]>([]);
  readonly usersError = new ObservableValue<string | null>(null);
  private results: SearchResults | null = null;
  private generation = 0;

  constructor(private readonly client: SearchClient) {}

  /** Searches messages in one room (roomId) or all joined rooms (null). */
  async searchMessages(term: string, roomId: string | null): Promise<void> {
    const generation = ++this.generation;
    const trimmed = term.trim();
    if (trimmed === "") {
      this.results = null;
      this.messages.set(EMPTY);
      return;
    }
    this.messages.set({ ...EMPTY, term: trimmed, loading: true });
    try {
      const results = await this.client.search.search(trimmed, {
        ...(roomId !== null ? { roomIds: [roomId] } : {}),
        orderBy: "recent",
      });
      if (generation === this.generation) this.publish(results);
    } catch (err) {
      if (generation === this.generation)
        this.messages.set({
          ...EMPTY,
          term: trimmed,
          error: err instanceof Error ? err.message : String(err),
        });
    }
  }

  /** Fetches the next (older) page; at the end, shows the SDK's "cannot backpaginate" error. */
  async loadMore(): Promise<void> {
    const current = this.results;
    if (current === null) return;
    const generation = this.generation;
    this.messages.set({ ...this.messages.getSnapshot(), loading: true, error: null });
    try {
      const results = await this.client.search.backPaginate(current);
      if (generation === this.generation) this.publish(results);
    } catch (err) {
      if (generation === this.generation)
        this.messages.set({
          ...this.messages.getSnapshot(),
          loading: false,
          canLoadMore: false,
          error: err instanceof Error ? err.message : String(err),
        });
    }
  }

  /** Searches the user directory. */
  async searchUsers(term: string): Promise<void> {
    this.usersError.set(null);
    if (term.trim() === "") {
      this.users.set([]);
      return;
    }
    try {
      const res = await this.client.directory.searchUsers(term.trim(), 20);
      this.users.set(
        res.results.map((u) => ({
          userId: u.user_id,
          displayName: u.display_name ?? u.user_id,
          ...(u.avatar_url !== undefined ? { avatarUrl: u.avatar_url } : {}),
        })),
      );
    } catch (err) {
      this.usersError.set(err instanceof Error ? err.message : String(err));
    }
  }

  private publish(results: SearchResults): void {
    this.results = results;
    this.messages.set({
      term: results.term,
      loading: false,
      hits: results.results.flatMap((r) => this.hitOf(r)),
      count: results.count,
      highlights: results.highlights.length > 0 ? results.highlights : [results.term],
      canLoadMore: this.client.search.canPaginate(results),
      error: null,
    });
  }

  private hitOf(r: SearchResult): MessageHit[] {
    const event = r.result;
    const body = bodyOf(event);
    if (event === undefined || body === undefined || typeof event.room_id !== "string") return [];
    const room = this.client.rooms.find(event.room_id)?.getSnapshot();
    const profile = r.context?.profile_info?.[event.sender];
    const before = bodyOf(r.context?.events_before?.at(-1));
    const after = bodyOf(r.context?.events_after?.[0]);
    return [
      {
        roomId: event.room_id,
        roomName: room?.name.name ?? event.room_id,
        eventId: event.event_id,
        sender: profile?.displayname ?? room?.members.get(event.sender)?.rawDisplayName ?? event.sender,
        body,
        ts: event.origin_server_ts,
        ...(before !== undefined ? { before } : {}),
        ...(after !== undefined ? { after } : {}),
      },
    ];
  }
}
