/**
 * The sessions of every room, one per room and application. Rooms feed it
 * their membership events (state of `org.matrix.msc3401.call.member` and
 * sticky `org.matrix.msc4143.rtc.member`); it keeps the valid memberships
 * of each session current, re-checking at the next expiry, and emits
 * session started (none to some memberships) and session ended (some to
 * none).
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { CALL_APPLICATION, ROOM_SCOPE } from "../constants";
import { nextExpiry, validMemberships } from "../membership/filter";
import { parseMembership } from "../membership/parse";
import type { CallMembership, SessionDescription } from "../membership/types";
import { RtcSession } from "./RtcSession";

export type SessionEvent = { kind: "started" | "ended"; session: RtcSession };

export interface SessionManagerOptions {
  userId: string;
  deviceId: string;
  scheduler: Scheduler;
  /** The application of the sessions; "m.call" by default. */
  application?: string;
}

interface RoomEntry {
  session: RtcSession;
  raw: CallMembership[];
  isJoined: (userId: string) => boolean;
  recheck?: AbortController;
}

export class SessionManager {
  private readonly rooms = new Map<string, RoomEntry>();
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly activeValue = new ObservableValue<ReadonlyMap<string, RtcSession>>(new Map());
  readonly description: SessionDescription;

  constructor(private readonly options: SessionManagerOptions) {
    this.description = { application: options.application ?? CALL_APPLICATION, id: "", scope: ROOM_SCOPE };
  }

  /** Sessions with at least one membership, by room id. */
  get active(): ReadonlyObservable<ReadonlyMap<string, RtcSession>> {
    return this.activeValue;
  }

  /** Session started / ended events; returns the unsubscribe. */
  onSessionEvent(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The room's session (created empty on first use). */
  session(roomId: string): RtcSession {
    return this.entry(roomId).session;
  }

  private entry(roomId: string): RoomEntry {
    let entry = this.rooms.get(roomId);
    if (entry === undefined) {
      const { userId, deviceId, scheduler } = this.options;
      const session = new RtcSession({ roomId, description: this.description, userId, deviceId, scheduler });
      entry = { session, raw: [], isJoined: () => false };
      this.rooms.set(roomId, entry);
    }
    return entry;
  }

  /**
   * Replaces the room's membership events (current state of both event
   * types, newest sticky events) and who is joined.
   */
  updateRoom(
    roomId: string,
    events: Iterable<ClientEventWithoutRoomId>,
    isJoined: (userId: string) => boolean,
  ): void {
    const entry = this.entry(roomId);
    entry.raw = [];
    for (const event of events) {
      const m = parseMembership(event);
      if (m !== null) entry.raw.push(m);
    }
    entry.isJoined = isJoined;
    this.recompute(roomId, entry);
  }

  private recompute(roomId: string, entry: RoomEntry): void {
    const now = this.options.scheduler.now();
    const valid = validMemberships(entry.raw, { session: this.description, now, isJoined: entry.isJoined });
    const before = entry.session.memberships.getSnapshot().length;
    entry.session.update(valid);
    if (before === 0 && valid.length > 0) this.emit("started", roomId, entry.session);
    if (before > 0 && valid.length === 0) this.emit("ended", roomId, entry.session);
    this.scheduleRecheck(roomId, entry, nextExpiry(valid));
  }

  private scheduleRecheck(roomId: string, entry: RoomEntry, at: number | undefined): void {
    entry.recheck?.abort();
    entry.recheck = undefined;
    if (at === undefined) return;
    const controller = new AbortController();
    entry.recheck = controller;
    const wait = Math.max(0, at - this.options.scheduler.now());
    this.options.scheduler.sleep(wait, controller.signal).then(
      () => {
        if (entry.recheck === controller) this.recompute(roomId, entry);
      },
      () => undefined,
    );
  }

  private emit(kind: SessionEvent["kind"], roomId: string, session: RtcSession): void {
    const next = new Map(this.activeValue.getSnapshot());
    if (kind === "started") next.set(roomId, session);
    else next.delete(roomId);
    this.activeValue.set(next);
    for (const listener of [...this.listeners]) listener({ kind, session });
  }

  /** Stops the expiry timers; joined sessions leave on unload. */
  dispose(): void {
    for (const entry of this.rooms.values()) {
      entry.recheck?.abort();
      entry.session.unload();
    }
    this.rooms.clear();
    this.listeners.clear();
  }
}
