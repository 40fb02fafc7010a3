/**
 * GET /notifications: the events that notified the user, optionally only
 * highlights, paginated with `from`/`next_token`.
 */
import type { HttpApi } from "../http/types";
import type { NotificationsParams, NotificationsResponse } from "./types/timeline";

/** GET a page of the user's notifications. */
export function notifications(
  http: HttpApi,
  params: NotificationsParams = {},
): Promise<NotificationsResponse> {
  return http.request<NotificationsResponse>({
    method: "GET",
    path: "/notifications",
    query: { from: params.from, limit: params.limit, only: params.only },
  });
}
