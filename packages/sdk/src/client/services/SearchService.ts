/**
 * Server-side message search (room_events): each result comes with one
 * event of context before and after (SPEC §9); further pages follow
 * next_batch, and asking for more when there is none fails with 'Cannot
 * backpaginate event search any further' (SPEC §8). Results are immutable:
 * paginating returns a new object holding every page so far.
 *
 * With a decryptor (the client's crypto), encrypted results and context
 * events come back decrypted (or as '** Unable to decrypt **' stand-ins),
 * bundled encrypted edits and thread replies too; a page without any never
 * loads the crypto engine. (The server matches clear text only, so in an
 * encrypted room it is mostly the context around a clear result.)
 */
import { search } from "../../api/search";
import type { ClientEvent, ClientEventWithoutRoomId } from "../../api/types/events";
import type { RoomEventsCriteria, SearchKey, SearchResult } from "../../api/types/search";
import type { HttpApi } from "../../http/types";
import { decryptPage } from "../../models/timeline/decryptor";
import type { EventDecryptor } from "../../models/timeline/decryptor";
import { ClientServiceError, SEARCH_EXHAUSTED_MESSAGE } from "../errors";
import type { RoomLookup } from "./types";

/** Events of context fetched on each side of a result (SPEC §9). */
export const SEARCH_CONTEXT_EVENTS = 1;

export interface SearchServiceOptions {
  http: HttpApi;
  /** When given, naming a room the client does not know fails with 'Unknown room'. */
  rooms?: RoomLookup;
  /** Decrypts encrypted results and context events; absent, they stay as the server sent them. */
  decryptor?: EventDecryptor;
}

export interface SearchOptions {
  /** Only these rooms; all joined rooms by default. */
  roomIds?: readonly string[];
  orderBy?: "recent" | "rank";
  keys?: SearchKey[];
  /** Results per page (the server's default otherwise). */
  limit?: number;
}

/** Every page of one search so far. */
export interface SearchResults {
  readonly term: string;
  readonly results: readonly SearchResult[];
  /** The server's estimate of all matches. */
  readonly count: number;
  readonly highlights: readonly string[];
  /** The token of the next page; absent when there is none. */
  readonly nextBatch?: string;
  /** The criteria, kept so the next page asks the same question. */
  readonly criteria: RoomEventsCriteria;
}

export class SearchService {
  constructor(private readonly options: SearchServiceOptions) {}

  /** The first page of a search. */
  async search(term: string, options: SearchOptions = {}): Promise<SearchResults> {
    for (const roomId of options.roomIds ?? []) this.options.rooms?.get(roomId);
    const criteria: RoomEventsCriteria = {
      search_term: term,
      event_context: { before_limit: SEARCH_CONTEXT_EVENTS, after_limit: SEARCH_CONTEXT_EVENTS },
      ...(options.orderBy ? { order_by: options.orderBy } : {}),
      ...(options.keys ? { keys: options.keys } : {}),
      ...(options.roomIds || options.limit !== undefined
        ? {
            filter: {
              ...(options.roomIds ? { rooms: [...options.roomIds] } : {}),
              ...(options.limit !== undefined ? { limit: options.limit } : {}),
            },
          }
        : {}),
    };
    return this.page(term, criteria, [], undefined);
  }

  /** Whether another page can be fetched. */
  canPaginate(results: SearchResults): boolean {
    return results.nextBatch !== undefined;
  }

  /** The next (older) page added to the results so far. */
  async backPaginate(results: SearchResults): Promise<SearchResults> {
    if (results.nextBatch === undefined) {
      throw new ClientServiceError("SEARCH_EXHAUSTED", SEARCH_EXHAUSTED_MESSAGE);
    }
    return this.page(results.term, results.criteria, results.results, results.nextBatch);
  }

  private async page(
    term: string,
    criteria: RoomEventsCriteria,
    before: readonly SearchResult[],
    nextBatch: string | undefined,
  ): Promise<SearchResults> {
    const res = await search(this.options.http, { search_categories: { room_events: criteria } }, nextBatch);
    const events = res.search_categories?.room_events ?? {};
    const page = await this.decrypt(Array.isArray(events.results) ? events.results : []);
    const highlights = Array.isArray(events.highlights)
      ? events.highlights.filter((h): h is string => typeof h === "string")
      : [];
    const results = [...before, ...page];
    return {
      term,
      results,
      count: typeof events.count === "number" ? events.count : results.length,
      highlights,
      criteria,
      ...(typeof events.next_batch === "string" && events.next_batch !== ""
        ? { nextBatch: events.next_batch }
        : {}),
    };
  }

  /** Each result with its context run through the decryptor (one call per result, in its room). */
  private async decrypt(results: readonly SearchResult[]): Promise<SearchResult[]> {
    const decryptor = this.options.decryptor;
    if (decryptor === undefined) return [...results];
    const out: SearchResult[] = [];
    for (const r of results) {
      const roomId = r.result?.room_id;
      if (r.result === undefined || roomId === undefined) {
        out.push(r);
        continue;
      }
      const before = r.context?.events_before ?? [];
      const after = r.context?.events_after ?? [];
      const page: ClientEventWithoutRoomId[] = [r.result, ...before, ...after];
      const clear = await decryptPage(decryptor, roomId, page);
      if (clear.every((e, i) => e === page[i])) {
        out.push(r);
        continue;
      }
      const inRoom = (e: ClientEventWithoutRoomId): ClientEvent => ({ ...e, room_id: roomId });
      const [result = r.result, ...rest] = clear.map(inRoom);
      out.push({
        ...r,
        result,
        ...(r.context
          ? {
              context: {
                ...r.context,
                ...(r.context.events_before ? { events_before: rest.slice(0, before.length) } : {}),
                ...(r.context.events_after ? { events_after: rest.slice(before.length) } : {}),
              },
            }
          : {}),
      });
    }
    return out;
  }
}
