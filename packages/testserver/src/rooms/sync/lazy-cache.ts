/**
 * What member events each device has already been sent, so lazy-loading
 * sync (without include_redundant_members) sends each member only once, as
 * Synapse does with its per-device cache.
 */
import type { ServerContext } from "../../core/context";

type DeviceCache = Map<string, Map<string, string>>; // roomId -> userId -> member event id

const caches = new WeakMap<ServerContext, Map<string, DeviceCache>>();

export class LazyMemberCache {
  private readonly rooms: DeviceCache;

  constructor(ctx: ServerContext, userId: string, deviceId: string, reset: boolean) {
    let perCtx = caches.get(ctx);
    if (!perCtx) {
      perCtx = new Map();
      caches.set(ctx, perCtx);
    }
    const key = `${userId}\u0000${deviceId}`;
    let rooms = perCtx.get(key);
    if (!rooms || reset) {
      rooms = new Map();
      perCtx.set(key, rooms);
    }
    this.rooms = rooms;
  }

  /** Whether this member event was already sent to the device. */
  has(roomId: string, userId: string, eventId: string): boolean {
    return this.rooms.get(roomId)?.get(userId) === eventId;
  }

  remember(roomId: string, userId: string, eventId: string): void {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = new Map();
      this.rooms.set(roomId, room);
    }
    room.set(userId, eventId);
  }
}
