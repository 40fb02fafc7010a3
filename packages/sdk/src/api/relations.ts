/**
 * GET /_matrix/client/v1/rooms/{roomId}/relations/{eventId}[/{relType}[/{eventType}]]:
 * the events that relate to one event, in the three path shapes the spec
 * defines. An event type without a relation type is impossible on the wire,
 * so it is refused rather than silently dropped.
 */
import type { HttpApi } from "../http/types";
import { Prefix, encodePath } from "../http/types";
import { ApiError } from "./errors";
import type { RelationsParams, RelationsResponse } from "./types/timeline";

/** Path of the relations call for the given filters. */
export function relationsPath(roomId: string, eventId: string, relType?: string, eventType?: string): string {
  const base = encodePath`/rooms/${roomId}/relations/${eventId}`;
  if (relType === undefined) {
    if (eventType !== undefined) {
      throw new ApiError("INVALID_ARGUMENT", "An event type filter needs a relation type");
    }
    return base;
  }
  if (eventType === undefined) return base + encodePath`/${relType}`;
  return base + encodePath`/${relType}/${eventType}`;
}

/** GET the relations of an event, optionally of one rel type and one event type. */
export function relations(
  http: HttpApi,
  roomId: string,
  eventId: string,
  params: RelationsParams = {},
): Promise<RelationsResponse> {
  let path: string;
  try {
    path = relationsPath(roomId, eventId, params.relType, params.eventType);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return http.request<RelationsResponse>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path,
    query: {
      from: params.from,
      to: params.to,
      limit: params.limit,
      dir: params.dir,
      recurse: params.recurse,
    },
  });
}
