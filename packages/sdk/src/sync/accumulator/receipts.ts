/**
 * Receipt accumulation: the latest receipt per user, receipt type and thread
 * (m.read, m.read.private and any other type alike), folded from m.receipt
 * ephemeral events and rebuilt into one m.receipt event. Receipt content is
 * keyed by event id, receipt type and user id, all data: records live in a
 * Map and rebuilt content uses null-prototype objects.
 */
import type { EphemeralEvent } from "../../api/types/events";
import { freezeJson, isJsonObject } from "../validate/json";
import type { StoredReceipt } from "./stored-types";

export const RECEIPT_EVENT_TYPE = "m.receipt";

/** Receipts of one room, keyed by receipt type, thread and user. */
export class ReceiptAccumulator {
  private readonly byKey = new Map<string, StoredReceipt>();

  /** Folds one m.receipt event's content in; later receipts replace earlier ones. */
  fold(content: Record<string, unknown>): void {
    for (const [eventId, byType] of Object.entries(content)) {
      if (eventId === "" || !isJsonObject(byType)) continue;
      for (const [receiptType, byUser] of Object.entries(byType)) {
        if (receiptType === "" || !isJsonObject(byUser)) continue;
        for (const [userId, data] of Object.entries(byUser)) {
          if (userId === "" || !isJsonObject(data)) continue;
          this.add({ event_id: eventId, receipt_type: receiptType, user_id: userId, data });
        }
      }
    }
  }

  /** Adds one receipt (also used when restoring). It is kept deeply frozen, as the stored snapshot shares it. */
  add(receipt: StoredReceipt): void {
    freezeJson(receipt.data);
    Object.freeze(receipt);
    const thread = typeof receipt.data["thread_id"] === "string" ? receipt.data["thread_id"] : "";
    // NUL cannot occur in a JSON-decoded id the server would issue, so the key is unambiguous.
    const key = `${receipt.receipt_type}\u0000${thread}\u0000${receipt.user_id}`;
    this.byKey.delete(key);
    this.byKey.set(key, receipt);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The receipts, oldest update first. */
  list(): StoredReceipt[] {
    return [...this.byKey.values()];
  }

  /** One m.receipt event holding every accumulated receipt, or null when there are none. */
  toEvent(): EphemeralEvent | null {
    if (this.byKey.size === 0) return null;
    const content = Object.create(null) as Record<string, Record<string, Record<string, unknown>>>;
    for (const r of this.byKey.values()) {
      const byType = (content[r.event_id] ??= Object.create(null) as Record<string, Record<string, unknown>>);
      const byUser = (byType[r.receipt_type] ??= Object.create(null) as Record<string, unknown>);
      byUser[r.user_id] = r.data;
    }
    return { type: RECEIPT_EVENT_TYPE, content };
  }
}
