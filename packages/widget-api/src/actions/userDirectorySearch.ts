/** org.matrix.msc3973.user_directory_search. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { own } from "../util/narrow";
import { readLimit } from "./limit";
import type {
  UserDirectorySearchRequestData,
  UserDirectorySearchResponseData,
} from "../interfaces/UserDirectorySearchAction";

/** Error texts of user_directory_search (SPEC §5, §8). */
const USER_DIRECTORY_ERRORS = {
  missingTerm: "Invalid request - missing search term",
  limitOutOfRange: SHARED_MESSAGES.limitOutOfRange,
  failed: "Unexpected error while searching in the user directory",
} as const;

/** Handles fromWidget user_directory_search. */
export const userDirectorySearch: ActionHandler<UserDirectorySearchResponseData> = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC3973UserDirectorySearch);
  const term = own(request.data, "search_term");
  if (typeof term !== "string") throw new WidgetActionError(USER_DIRECTORY_ERRORS.missingTerm);
  const req: UserDirectorySearchRequestData = { search_term: term };
  const limit = readLimit(request.data, "allowed");
  if (limit !== undefined) req.limit = limit;
  const result = await callDriver(ctx, USER_DIRECTORY_ERRORS.failed, () =>
    ctx.driver.searchUserDirectory(req.search_term, req.limit),
  );
  return {
    limited: result.limited === true,
    results: result.results.map((r) => ({
      user_id: r.userId,
      display_name: r.displayName,
      avatar_url: r.avatarUrl,
    })),
  };
};
