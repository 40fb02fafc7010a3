/**
 * Wire types of account data and room tags (account-data.yaml, tags.yaml,
 * definitions/tag.yaml). Account data content is an arbitrary JSON object
 * whose shape depends on its type.
 */
import type { EventContent } from "./events";

/** Content of one account data event. */
export type AccountDataContent = EventContent;

/** One tag on a room: `order` sorts rooms within the tag (0 to 1). */
export interface Tag {
  order?: number;
  [key: string]: unknown;
}

/** GET /user/{userId}/rooms/{roomId}/tags */
export interface TagsResponse {
  tags?: Record<string, Tag>;
}
