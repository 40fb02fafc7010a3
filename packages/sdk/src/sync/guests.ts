/**
 * Guest rules (SPEC §6): guests get no lazy-loaded members, a plain empty
 * filter and no cached sync (the service handles those), and may send no
 * receipts, no typing notifications and no state events. The guards here are
 * what the send and model layers call before such a request.
 */
import { GuestForbiddenError } from "./errors";

/** Who the client acts as; only `guest` matters to these rules. */
export interface GuestContext {
  readonly guest: boolean;
}

/** Throws GuestForbiddenError when a guest tries to send a read receipt or read marker. */
export function assertCanSendReceipt(who: GuestContext): void {
  if (who.guest) throw new GuestForbiddenError("receipt");
}

/** Throws GuestForbiddenError when a guest tries to send a typing notification. */
export function assertCanSendTyping(who: GuestContext): void {
  if (who.guest) throw new GuestForbiddenError("typing");
}

/** Throws GuestForbiddenError when a guest tries to send a state event. */
export function assertCanSendStateEvent(who: GuestContext): void {
  if (who.guest) throw new GuestForbiddenError("state_event");
}

/** Whether receipts and typing may be sent, for callers that skip quietly instead of throwing. */
export function canSendEphemeral(who: GuestContext): boolean {
  return !who.guest;
}
