/**
 * To-device message queues, one per target device. Each message is stored
 * at a stream position and kept until a sync's since acknowledges it.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";

interface Queued {
  pos: number;
  event: JsonObject;
}

export class ToDeviceStore {
  /** userId -> deviceId -> queue. */
  private readonly queues = new Map<string, Map<string, Queued[]>>();
  /** Transaction ids already handled, per sending device. */
  private readonly txns = new Set<string>();

  constructor(private readonly ctx: ServerContext) {}

  /** Whether this sender device already used the transaction id (and records it). */
  seenTxn(userId: string, deviceId: string, txnId: string): boolean {
    const key = JSON.stringify([userId, deviceId, txnId]);
    if (this.txns.has(key)) return true;
    this.txns.add(key);
    return false;
  }

  /** Queues one message per target device, all at one new stream position. */
  enqueue(targets: Array<{ userId: string; deviceId: string; event: JsonObject }>): void {
    if (targets.length === 0) return;
    const pos = this.ctx.notifier.advance();
    for (const t of targets) {
      let byDevice = this.queues.get(t.userId);
      if (!byDevice) {
        byDevice = new Map();
        this.queues.set(t.userId, byDevice);
      }
      let queue = byDevice.get(t.deviceId);
      if (!queue) {
        queue = [];
        byDevice.set(t.deviceId, queue);
      }
      queue.push({ pos, event: t.event });
    }
  }

  /** Drops messages at or before `since`, returns the rest in order. */
  since(userId: string, deviceId: string, since: number): JsonObject[] {
    const queue = this.queues.get(userId)?.get(deviceId);
    if (!queue) return [];
    while (queue.length > 0 && (queue[0]?.pos ?? Infinity) <= since) queue.shift();
    return queue.map((q) => q.event);
  }

  /** Forgets a deleted device's queue. */
  deleteDevice(userId: string, deviceId: string): void {
    this.queues.get(userId)?.delete(deviceId);
  }
}
