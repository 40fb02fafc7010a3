/**
 * Read receipts (m.read, m.read.private) per room, user and thread. Only
 * the latest receipt of each (type, user, thread) is kept, with the stream
 * position it was set at, so sync sends only receipts newer than its since
 * token. A receipt never moves backwards, as in Synapse.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { getOrCreate } from "./maps";

export type ReceiptType = "m.read" | "m.read.private";

interface Receipt {
  eventId: string;
  /** The stream position of the receipted event, for ordering. */
  eventStream: number;
  ts: number;
  /** Where the receipt was set in the server stream. */
  stream: number;
  threadId?: string;
}

/** Thread key of an unthreaded receipt. */
const UNTHREADED = "";

export class ReceiptStore {
  /** roomId -> type -> userId -> thread key -> receipt */
  private rooms = new Map<string, Map<ReceiptType, Map<string, Map<string, Receipt>>>>();

  constructor(private readonly ctx: ServerContext) {}

  /**
   * Sets a receipt; false (and nothing changes) when the user already has
   * one at or after this event in the same thread.
   */
  set(
    roomId: string,
    userId: string,
    type: ReceiptType,
    eventId: string,
    eventStream: number,
    threadId?: string,
  ): boolean {
    const byType = getOrCreate(
      this.rooms,
      roomId,
      () => new Map<ReceiptType, Map<string, Map<string, Receipt>>>(),
    );
    const byUser = getOrCreate(byType, type, () => new Map<string, Map<string, Receipt>>());
    const byThread = getOrCreate(byUser, userId, () => new Map<string, Receipt>());
    const key = threadId ?? UNTHREADED;
    const old = byThread.get(key);
    if (old && old.eventStream >= eventStream) return false;
    const receipt: Receipt = {
      eventId,
      eventStream,
      ts: this.ctx.clock.now(),
      stream: this.ctx.notifier.advance(),
    };
    if (threadId !== undefined) receipt.threadId = threadId;
    byThread.set(key, receipt);
    return true;
  }

  /**
   * The stream position of the event the user's read state reaches in a
   * thread (or "main"): the later of the unthreaded receipt and the
   * thread's own receipt, over m.read and m.read.private. 0 when none.
   */
  readUpTo(roomId: string, userId: string, threadKey: string): number {
    let best = 0;
    for (const type of ["m.read", "m.read.private"] as const) {
      const byThread = this.rooms.get(roomId)?.get(type)?.get(userId);
      for (const key of [UNTHREADED, threadKey]) {
        const r = byThread?.get(key);
        if (r && r.eventStream > best) best = r.eventStream;
      }
    }
    return best;
  }

  /**
   * The m.receipt event for a viewer: receipts set after `since` (all on 0),
   * private ones only the viewer's own. Undefined when there is none.
   */
  ephemeralFor(roomId: string, viewer: string, since: number): JsonObject | undefined {
    const byType = this.rooms.get(roomId);
    if (!byType) return undefined;
    const content: Record<string, Record<string, Record<string, JsonObject>>> = Object.create(null) as Record<
      string,
      Record<string, Record<string, JsonObject>>
    >;
    let any = false;
    for (const [type, byUser] of byType) {
      for (const [userId, byThread] of byUser) {
        if (type === "m.read.private" && userId !== viewer) continue;
        for (const r of byThread.values()) {
          if (since > 0 && r.stream <= since) continue;
          const forEvent = (content[r.eventId] ??= Object.create(null) as Record<
            string,
            Record<string, JsonObject>
          >);
          const forType = (forEvent[type] ??= Object.create(null) as Record<string, JsonObject>);
          const data: JsonObject = { ts: r.ts };
          if (r.threadId !== undefined) data["thread_id"] = r.threadId;
          // Two threads' receipts of one user on one event cannot both be expressed; the later wins.
          forType[userId] = data;
          any = true;
        }
      }
    }
    return any ? { type: "m.receipt", content: plain(content) } : undefined;
  }
}

/** Copies null-prototype records into plain objects for JSON output. */
function plain(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}
