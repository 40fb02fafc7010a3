/**
 * Sync filters: upload one and read one back. The sync layer keeps the
 * filter id and creates a new filter when the stored one is unknown.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { CreateFilterResponse, Filter } from "./types/filter";

/** POST /user/{userId}/filter */
export function createFilter(http: HttpApi, userId: string, filter: Filter): Promise<CreateFilterResponse> {
  return http.request<CreateFilterResponse>({
    method: "POST",
    path: encodePath`/user/${userId}/filter`,
    body: filter,
  });
}

/** GET /user/{userId}/filter/{filterId} */
export function getFilter(http: HttpApi, userId: string, filterId: string): Promise<Filter> {
  return http.request<Filter>({ method: "GET", path: encodePath`/user/${userId}/filter/${filterId}` });
}
