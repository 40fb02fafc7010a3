/**
 * The lifecycle of an event this client sends (SPEC §4 "Outgoing event
 * status"): not_sent, encrypting, sending, queued, sent, cancelled. The table
 * of allowed transitions lives here; the send queue drives it. Only queued,
 * not_sent and encrypting events can be cancelled, the status is cleared
 * (null) when the server echoes the event back, and receipts and read markers
 * may not point at an event that is still pending.
 */
import { ModelError } from "./errors";

/** The status of an outgoing event; null once the remote echo has arrived. */
export type EventStatus = "not_sent" | "encrypting" | "sending" | "queued" | "sent" | "cancelled";

/** Every status, in lifecycle order. */
export const EVENT_STATUSES: readonly EventStatus[] = [
  "queued",
  "encrypting",
  "sending",
  "sent",
  "not_sent",
  "cancelled",
];

/** SPEC §5: the message when cancelling an event that is not queued, not_sent or encrypting. */
export const NOT_CANCELLABLE_MESSAGE = "Events in other states cannot be cancelled";
/** SPEC §5: the message when a receipt or read marker targets a pending event. */
export const PENDING_EVENT_MESSAGE = "A read marker or receipt cannot be set to a pending event";

/**
 * Allowed moves. queued waits behind earlier events; encrypting and sending
 * may fail to not_sent; not_sent may be retried (back to queued, encrypting or
 * sending); sent is final until the echo clears it; cancelled is final.
 */
const TRANSITIONS: Readonly<Record<EventStatus, readonly EventStatus[]>> = {
  queued: ["encrypting", "sending", "not_sent", "cancelled"],
  encrypting: ["sending", "queued", "not_sent", "cancelled"],
  sending: ["sent", "queued", "not_sent"],
  sent: [],
  not_sent: ["queued", "encrypting", "sending", "cancelled"],
  cancelled: [],
};

const CANCELLABLE: ReadonlySet<EventStatus> = new Set<EventStatus>(["queued", "not_sent", "encrypting"]);

/** Whether `from` may move to `to`. */
export function canTransition(from: EventStatus, to: EventStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The next status, or ModelError('INVALID_STATUS_TRANSITION') when the move is not allowed. */
export function transition(from: EventStatus, to: EventStatus): EventStatus {
  if (to === "cancelled" && !CANCELLABLE.has(from)) {
    throw new ModelError("NOT_CANCELLABLE", NOT_CANCELLABLE_MESSAGE);
  }
  if (!canTransition(from, to)) {
    throw new ModelError("INVALID_STATUS_TRANSITION", `Cannot move an event from ${from} to ${to}`);
  }
  return to;
}

/** Whether an event in this status can be cancelled. */
export function isCancellable(status: EventStatus | null): boolean {
  return status !== null && CANCELLABLE.has(status);
}

/** Cancels: 'cancelled', or ModelError('Events in other states cannot be cancelled'). */
export function cancel(status: EventStatus | null): EventStatus {
  if (status === null || !CANCELLABLE.has(status)) {
    throw new ModelError("NOT_CANCELLABLE", NOT_CANCELLABLE_MESSAGE);
  }
  return "cancelled";
}

/**
 * The status after the server echoes the event back in sync: cleared (null),
 * whatever it was, since the echo proves the server has it. A cancelled event
 * that was already on its way stays visible as the echo.
 */
export function onRemoteEcho(_status: EventStatus | null): null {
  return null;
}

/**
 * Whether an event is still local: any status at all, "sent" included, since
 * until the remote echo clears the status the event is not in the server's
 * timeline where receipts and markers point.
 */
export function isPending(status: EventStatus | null): boolean {
  return status !== null;
}

/**
 * Throws ModelError('A read marker or receipt cannot be set to a pending
 * event') when a receipt or read marker would point at a pending event: one
 * with an outgoing status, or any id that is not a server event id ("$...",
 * a local echo's txn id).
 */
export function assertReceiptTarget(eventId: string, status: EventStatus | null): void {
  if (!eventId.startsWith("$") || isPending(status)) {
    throw new ModelError("PENDING_EVENT", PENDING_EVENT_MESSAGE, { cause: { eventId, status } });
  }
}
