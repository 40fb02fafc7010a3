/**
 * GET /_matrix/client/v1/rooms/{roomId}/threads: the thread roots of a room,
 * all or only those the user took part in, newest first.
 */
import type { HttpApi } from "../http/types";
import { Prefix, encodePath } from "../http/types";
import { encodeFilter } from "./sync";
import type { ThreadsParams, ThreadsResponse } from "./types/timeline";

/** GET a page of a room's threads. */
export function threads(http: HttpApi, roomId: string, params: ThreadsParams = {}): Promise<ThreadsResponse> {
  return http.request<ThreadsResponse>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path: encodePath`/rooms/${roomId}/threads`,
    query: {
      include: params.include,
      limit: params.limit,
      from: params.from,
      dir: params.dir,
      filter: params.filter !== undefined ? encodeFilter(params.filter) : undefined,
    },
  });
}
