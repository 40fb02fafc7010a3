/** org.matrix.msc3973.user_directory_search. */

/** user_directory_search request data. */
export interface UserDirectorySearchRequestData {
  search_term: string;
  limit?: number;
}

/** One user directory result (SPEC §3). */
export interface UserDirectoryResult {
  user_id: string;
  display_name?: string;
  avatar_url?: string;
}

/** user_directory_search reply. */
export interface UserDirectorySearchResponseData {
  limited: boolean;
  results: UserDirectoryResult[];
}
