/**
 * Wire types of the user directory (api/client-server/users.yaml).
 */

/** POST /user_directory/search body. */
export interface UserDirectorySearchRequest {
  search_term: string;
  limit?: number;
}

/** One user found in the directory. */
export interface UserDirectoryResult {
  user_id: string;
  display_name?: string;
  avatar_url?: string;
}

/** POST /user_directory/search */
export interface UserDirectorySearchResponse {
  results: UserDirectoryResult[];
  /** True when the result list was truncated by the limit. */
  limited: boolean;
}
