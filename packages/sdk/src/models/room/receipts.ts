/**
 * Read receipts of one room, from m.receipt ephemeral events: m.read and
 * m.read.private, unthreaded or per thread (thread_id "main" or a root id).
 * Each (user, type, thread) keeps only its latest receipt, so receipts move
 * forward; `byEvent` groups them for the read-receipt avatars under events.
 */
import type { BasicEvent } from "../../api/types/events";
import { isJsonObject, own } from "../json";

/** The receipt types a client reads. */
export const RECEIPT_TYPES: ReadonlySet<string> = new Set(["m.read", "m.read.private"]);

/** One user's receipt. */
export interface Receipt {
  readonly userId: string;
  readonly eventId: string;
  readonly type: string;
  readonly ts: number;
  /** "main", a thread root id, or undefined for an unthreaded receipt. */
  readonly threadId?: string;
}

function keyOf(r: { userId: string; type: string; threadId?: string | undefined }): string {
  return `${r.type}\u0000${r.threadId ?? ""}\u0000${r.userId}`;
}

/** The receipt type only its owner ever sees: another user's is a server bug or a forgery. */
export const PRIVATE_RECEIPT_TYPE = "m.read.private";

/**
 * Parses an m.receipt event into receipts; malformed parts are skipped, and
 * so is an m.read.private of anyone but `ownUserId` (a private receipt is
 * only ever the user's own, so another's must not be shown as theirs).
 */
export function parseReceiptEvent(event: BasicEvent, ownUserId: string): Receipt[] {
  const out: Receipt[] = [];
  if (event.type !== "m.receipt" || !isJsonObject(event.content)) return out;
  for (const [eventId, byType] of Object.entries(event.content)) {
    if (!isJsonObject(byType)) continue;
    for (const [type, byUser] of Object.entries(byType)) {
      if (!RECEIPT_TYPES.has(type) || !isJsonObject(byUser)) continue;
      for (const [userId, data] of Object.entries(byUser)) {
        if (type === PRIVATE_RECEIPT_TYPE && userId !== ownUserId) continue;
        const ts = own(data, "ts");
        const threadId = own(data, "thread_id");
        out.push({
          userId,
          eventId,
          type,
          ts: typeof ts === "number" && Number.isFinite(ts) ? ts : 0,
          ...(typeof threadId === "string" && threadId !== "" ? { threadId } : {}),
        });
      }
    }
  }
  return out;
}

/** The latest receipts of one room: immutable, `with` returns a new value. */
export class RoomReceipts {
  private eventIndex: Map<string, Receipt[]> | undefined;

  constructor(private readonly latest: ReadonlyMap<string, Receipt> = new Map()) {}

  /** These receipts with `receipts` added; `this` when nothing changed. */
  with(receipts: readonly Receipt[]): RoomReceipts {
    let next: Map<string, Receipt> | undefined;
    for (const r of receipts) {
      const key = keyOf(r);
      const old = (next ?? this.latest).get(key);
      if (old?.eventId === r.eventId && old.ts === r.ts) continue;
      next ??= new Map(this.latest);
      next.set(key, r);
    }
    return next === undefined ? this : new RoomReceipts(next);
  }

  /** A user's receipt of a type, unthreaded or in a thread ("main" or a root id). */
  of(userId: string, type = "m.read", threadId?: string): Receipt | undefined {
    return this.latest.get(keyOf({ userId, type, threadId }));
  }

  /** Every latest receipt. */
  all(): Receipt[] {
    return [...this.latest.values()];
  }

  /** Receipts pointing at an event (read-receipt avatars). */
  byEvent(eventId: string): readonly Receipt[] {
    if (this.eventIndex === undefined) {
      const index = new Map<string, Receipt[]>();
      for (const r of this.latest.values()) {
        const list = index.get(r.eventId);
        if (list === undefined) index.set(r.eventId, [r]);
        else list.push(r);
      }
      this.eventIndex = index;
    }
    return this.eventIndex.get(eventId) ?? [];
  }
}
