/**
 * Events waiting for their room key. When decryption fails for want of a
 * key, the encrypted original is kept here under its room and session; when
 * the engine reports a new or better key for that session (a late to-device
 * key, a forwarded key, a backup restore), the crypto machine takes the
 * waiting events out and decrypts them again. Bounded, oldest dropped first,
 * so a hostile room cannot grow it without limit.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";

/** The default bound on waiting events across all rooms. */
export const DEFAULT_MAX_PENDING = 5000;

/** An encrypted event waiting for its key. */
export interface PendingEvent {
  roomId: string;
  event: ClientEventWithoutRoomId;
}

function sessionKey(roomId: string, sessionId: string): string {
  return `${roomId}\u0000${sessionId}`;
}

/** Encrypted events by (room, session), then by event id. */
export class PendingDecryptions {
  private readonly bySession = new Map<string, Map<string, PendingEvent>>();
  /** Insertion order of (session key, event id), for dropping the oldest. */
  private readonly order: Array<[string, string]> = [];
  private count = 0;

  constructor(private readonly max = DEFAULT_MAX_PENDING) {}

  /** Keeps an event until its session's key arrives. */
  add(roomId: string, sessionId: string, event: ClientEventWithoutRoomId): void {
    const key = sessionKey(roomId, sessionId);
    let events = this.bySession.get(key);
    if (!events) {
      events = new Map();
      this.bySession.set(key, events);
    }
    if (!events.has(event.event_id)) {
      this.count += 1;
      this.order.push([key, event.event_id]);
    }
    events.set(event.event_id, { roomId, event });
    while (this.count > this.max) this.dropOldest();
    // Taken and removed events leave stale order entries: compact now and then.
    if (this.order.length > 2 * this.max) this.compact();
  }

  private compact(): void {
    const live = this.order.filter(([key, eventId]) => this.bySession.get(key)?.has(eventId) === true);
    this.order.length = 0;
    this.order.push(...live);
  }

  private dropOldest(): void {
    const oldest = this.order.shift();
    if (!oldest) return;
    const [key, eventId] = oldest;
    const events = this.bySession.get(key);
    if (events?.delete(eventId)) {
      this.count -= 1;
      if (events.size === 0) this.bySession.delete(key);
    }
  }

  /** Takes out every event waiting for this session (the caller re-adds those still failing). */
  take(roomId: string, sessionId: string): PendingEvent[] {
    const key = sessionKey(roomId, sessionId);
    const events = this.bySession.get(key);
    if (!events) return [];
    this.bySession.delete(key);
    this.count -= events.size;
    return [...events.values()];
  }

  /** Forgets one event (it was decrypted some other way, or redacted). */
  remove(roomId: string, sessionId: string, eventId: string): void {
    const key = sessionKey(roomId, sessionId);
    const events = this.bySession.get(key);
    if (events?.delete(eventId)) {
      this.count -= 1;
      if (events.size === 0) this.bySession.delete(key);
    }
  }

  /** How many events wait. */
  get size(): number {
    return this.count;
  }
}
