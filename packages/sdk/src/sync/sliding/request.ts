/**
 * The sliding sync request the client sends: one list, "all", that grows in
 * pages until it covers every room (the app needs every room, not a window),
 * the room state the models read with members loaded lazily, the initial
 * timeline limit of sync v2 (SPEC §9: 30) and every extension the client
 * consumes.
 */
import type { RequiredStateTuple, SlidingExtension, SlidingSyncRequestBody } from "./types";

/** The name of the client's one room list. */
export const ALL_ROOMS_LIST = "all";

/** The list grows by this many rooms per request until it covers every room. */
export const DEFAULT_LIST_PAGE_SIZE = 100;

/** The connection id, so another sliding client of the same device keeps its own position. */
export const DEFAULT_CONN_ID = "lattice";

/**
 * Non-member state the models read: naming, permissions, encryption,
 * upgrades, spaces, calls and widgets. "*" as a state key takes every key.
 */
export const MODEL_STATE: readonly RequiredStateTuple[] = Object.freeze([
  ["m.room.create", ""],
  ["m.room.name", ""],
  ["m.room.topic", ""],
  ["m.room.avatar", ""],
  ["m.room.canonical_alias", ""],
  ["m.room.join_rules", ""],
  ["m.room.history_visibility", ""],
  ["m.room.guest_access", ""],
  ["m.room.power_levels", ""],
  ["m.room.encryption", ""],
  ["m.room.tombstone", ""],
  ["m.room.server_acl", ""],
  ["m.room.pinned_events", ""],
  ["m.room.third_party_invite", "*"],
  ["m.space.child", "*"],
  ["m.space.parent", "*"],
  ["m.call", "*"],
  ["m.call.member", "*"],
  ["org.matrix.msc3401.call", "*"],
  ["org.matrix.msc3401.call.member", "*"],
  ["im.vector.modular.widgets", "*"],
  ["m.widget", "*"],
] satisfies RequiredStateTuple[]);

/** required_state: the model state plus members, lazily (timeline senders and the user) or all of them. */
export function requiredState(lazyLoadMembers: boolean): RequiredStateTuple[] {
  const members: RequiredStateTuple[] = lazyLoadMembers
    ? [
        ["m.room.member", "$LAZY"],
        ["m.room.member", "$ME"],
      ]
    : [["m.room.member", "*"]];
  return [...MODEL_STATE.map(([type, key]): RequiredStateTuple => [type, key]), ...members];
}

export interface SlidingRequestOptions {
  /** The last index the list covers (inclusive). */
  listEnd: number;
  timelineLimit: number;
  requiredState: RequiredStateTuple[];
  connId: string;
  /** The to_device extension's token from the previous answer. */
  toDeviceSince?: string;
}

/** The request body of one sliding sync. */
export function buildSlidingRequest(options: SlidingRequestOptions): SlidingSyncRequestBody {
  const on: SlidingExtension = { enabled: true };
  const extensions: Record<string, SlidingExtension> = {
    to_device: options.toDeviceSince !== undefined ? { enabled: true, since: options.toDeviceSince } : on,
    e2ee: on,
    account_data: on,
    receipts: on,
    typing: on,
  };
  return {
    conn_id: options.connId,
    lists: {
      [ALL_ROOMS_LIST]: {
        ranges: [[0, options.listEnd]],
        timeline_limit: options.timelineLimit,
        required_state: options.requiredState,
      },
    },
    extensions,
  };
}
