/**
 * Wire types of the mutual rooms API (MSC2666; api/client-server/mutual_rooms.yaml
 * for the stable shape). The unstable endpoint names its pagination token
 * batch_token / next_batch_token; the stable one from / next_batch.
 */

/** GET /_matrix/client/v1/mutual_rooms */
export interface MutualRoomsResponse {
  joined: string[];
  /** Total count, even when the answer is batched (stable only). */
  count?: number;
  next_batch?: string;
}

/** GET /_matrix/client/unstable/uk.half-shot.msc2666/user/mutual_rooms */
export interface UnstableMutualRoomsResponse {
  joined: string[];
  next_batch_token?: string;
}
