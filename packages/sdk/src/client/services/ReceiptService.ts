/**
 * Receipts and read markers: m.read, m.read.private, threaded receipts and
 * m.fully_read through read_markers. A local echo has no server id yet, so
 * naming one is refused before any request (SPEC §5); guests send none
 * (SPEC §6): their calls resolve false without a request.
 */
import { sendReceipt, setReadMarkers } from "../../api/receipts";
import type { ReadMarkersRequest } from "../../api/types/receipts";
import type { HttpApi } from "../../http/types";
import { canSendEphemeral } from "../../sync/guests";
import { assertReceiptTarget } from "../../models/event-status";
import type { EventStatus } from "../../models/event-status";
import type { Actor, RoomLookup, RunningGuard } from "./types";
import { ALWAYS_RUNNING } from "./types";

export interface ReceiptServiceOptions {
  http: HttpApi;
  actor: Actor;
  /** When given, a room the client does not know is refused with 'Unknown room'. */
  rooms?: RoomLookup;
  running?: RunningGuard;
  /**
   * The outgoing status of an id (the send queue knows its txn ids), null
   * when it is not pending. Ids that are not server event ids ("$...") always
   * count as pending (models/event-status assertReceiptTarget).
   */
  statusOf?: (eventId: string) => EventStatus | null;
  /** Told of each receipt the server accepted (the client applies the user's own to its rooms at once). */
  onSent?: (roomId: string, receipt: SentReceipt) => void;
}

/** A receipt the server accepted. */
export interface SentReceipt {
  readonly eventId: string;
  /** m.read or m.read.private. */
  readonly type: string;
  readonly threadId?: string;
}

export interface ReceiptOptions {
  /** Public (m.read, the default) or private (m.read.private). */
  private?: boolean;
  /** A thread root id or "main" for a threaded receipt; omitted, the receipt is unthreaded. */
  threadId?: string;
}

/** The markers of one read_markers call. */
export interface ReadMarkers {
  fullyRead?: string;
  read?: string;
  readPrivate?: string;
}

export class ReceiptService {
  constructor(private readonly options: ReceiptServiceOptions) {}

  /** Sends a read receipt; resolves false when nothing was sent (guests). */
  async sendReceipt(roomId: string, eventId: string, options: ReceiptOptions = {}): Promise<boolean> {
    this.check(roomId, [eventId]);
    if (!canSendEphemeral(this.options.actor)) return false;
    const type = options.private === true ? "m.read.private" : "m.read";
    await sendReceipt(this.options.http, roomId, type, eventId, options.threadId);
    this.options.onSent?.(roomId, {
      eventId,
      type,
      ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
    });
    return true;
  }

  /** Moves the fully-read marker and, optionally, the read receipts in one call. */
  async setReadMarkers(roomId: string, markers: ReadMarkers): Promise<boolean> {
    const ids = [markers.fullyRead, markers.read, markers.readPrivate].filter(
      (id): id is string => id !== undefined,
    );
    this.check(roomId, ids);
    if (ids.length === 0 || !canSendEphemeral(this.options.actor)) return false;
    const body: ReadMarkersRequest = {};
    if (markers.fullyRead !== undefined) body["m.fully_read"] = markers.fullyRead;
    if (markers.read !== undefined) body["m.read"] = markers.read;
    if (markers.readPrivate !== undefined) body["m.read.private"] = markers.readPrivate;
    await setReadMarkers(this.options.http, roomId, body);
    if (markers.read !== undefined) this.options.onSent?.(roomId, { eventId: markers.read, type: "m.read" });
    if (markers.readPrivate !== undefined)
      this.options.onSent?.(roomId, { eventId: markers.readPrivate, type: "m.read.private" });
    return true;
  }

  private check(roomId: string, eventIds: readonly string[]): void {
    (this.options.running ?? ALWAYS_RUNNING).requireRunning();
    this.options.rooms?.get(roomId);
    for (const id of eventIds) assertReceiptTarget(id, this.options.statusOf?.(id) ?? null);
  }
}
