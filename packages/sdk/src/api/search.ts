/**
 * POST /search: server-side search of room events (used where the client
 * cannot search locally, i.e. unencrypted rooms). Pagination passes the
 * previous answer's next_batch back in the query.
 */
import type { HttpApi } from "../http/types";
import type { SearchRequest, SearchResponse } from "./types/search";

/** POST /search, optionally continuing from `nextBatch`. */
export function search(http: HttpApi, body: SearchRequest, nextBatch?: string): Promise<SearchResponse> {
  return http.request<SearchResponse>({
    method: "POST",
    path: "/search",
    ...(nextBatch !== undefined ? { query: { next_batch: nextBatch } } : {}),
    body,
  });
}
