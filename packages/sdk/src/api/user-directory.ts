/**
 * The user directory (api/client-server/users.yaml): searching users the
 * server lets the caller see.
 */
import type { HttpApi } from "../http/types";
import type { UserDirectorySearchResponse } from "./types/user-directory";

/** POST /user_directory/search: users matching `searchTerm`, at most `limit` of them. */
export function searchUserDirectory(
  http: HttpApi,
  searchTerm: string,
  limit?: number,
): Promise<UserDirectorySearchResponse> {
  return http.request<UserDirectorySearchResponse>({
    method: "POST",
    path: "/user_directory/search",
    body: limit === undefined ? { search_term: searchTerm } : { search_term: searchTerm, limit },
  });
}
