/**
 * The unread badges as the views show them. The rule lives once, in the
 * SDK's room-list model (models/room-list/badge.ts); components read it
 * through here, since only state/ and sdk.ts may import the SDK.
 */
export { roomBadge, threadsBadge } from "../sdk";
export type { Badge, BadgeLevel } from "../sdk";
