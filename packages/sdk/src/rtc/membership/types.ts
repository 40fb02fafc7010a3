/**
 * The model of one device's call membership, the same whichever wire form
 * (state `org.matrix.msc3401.call.member` or sticky
 * `org.matrix.msc4143.rtc.member`) carried it.
 */

/** Which session a membership belongs to: a room's call is {application "m.call", id ""}. */
export interface SessionDescription {
  readonly application: string;
  /** The call id of the state form; "" for the room's own call (slot "ROOM" in the sticky form). */
  readonly id: string;
  readonly scope: "m.room";
}

/** A media transport a member offers or uses (LiveKit: an lk-jwt-service URL). */
export interface RtcTransport {
  readonly type: string;
  readonly livekitServiceUrl?: string;
  readonly livekitAlias?: string;
}

/** How the SFU is chosen: everyone on the oldest member's, or each on their own. */
export type FocusSelection = "oldest_membership" | "multi_sfu";

export interface ActiveFocus {
  readonly type: string;
  /** A FocusSelection, or a value from a newer peer we do not know. */
  readonly focusSelection: string;
}

export type MembershipForm = "state" | "sticky";

export interface CallMembership {
  readonly form: MembershipForm;
  /** The event that carried it (undefined for a local echo). */
  readonly eventId: string | undefined;
  readonly sender: string;
  readonly deviceId: string;
  readonly createdTs: number;
  /** Absolute expiry in ms since the epoch. */
  readonly expiresAt: number;
  readonly session: SessionDescription;
  /** m.call.intent ("audio", "video"...), when given. */
  readonly callIntent: string | undefined;
  /** The state form's focus_active; the sticky form publishes to its first transport. */
  readonly focusActive: ActiveFocus | undefined;
  readonly fociPreferred: readonly RtcTransport[];
  /**
   * The identity the member has on the SFU and in key messages: the state
   * form's membershipID, or `userId:deviceId`; the sticky form's member.id.
   */
  readonly memberId: string;
}
