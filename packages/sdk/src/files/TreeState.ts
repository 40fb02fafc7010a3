/**
 * The state of tree rooms as the file tree reads it: sync's state when sync
 * knows the room, else the state fetched over HTTP or, for a tree just
 * created here, the state it was created with. The tree's own writes are
 * laid over it until sync delivers them, so a new folder, rename or role
 * change reads back at once (matrix-js-sdk reads only sync's copy, and
 * fails on a tree it has not synced yet). A write gives way as soon as
 * sync's copy of its key moves on, so a newer change by someone else (a
 * demotion) is never hidden behind our older write.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import { RoomState } from "../models/room/RoomState";
import type { FilesIo } from "./io";

const LOCAL_PREFIX = "~local-";

interface Overlay {
  /** The state fetched over HTTP or known from creation, used while sync does not know the room. */
  base?: RoomState;
  /** Own writes sync has not delivered yet, oldest first. */
  writes: ClientEventWithoutRoomId[];
}

/** The event id sync held for a write's key when the write was made (absent: none, or not synced). */
const heldBefore = new WeakMap<ClientEventWithoutRoomId, string>();

/** The per-room state cache of the file tree. */
export class TreeState {
  private readonly rooms = new Map<string, Overlay>();
  private readonly fetching = new Map<string, Promise<void>>();
  private localCounter = 0;
  private lastTs = 0;

  constructor(private readonly io: FilesIo) {}

  /** Seeds a room this client just created with the state it was created with. */
  seed(roomId: string, events: readonly ClientEventWithoutRoomId[]): void {
    // Kept as local writes, so each gives way only once sync holds that piece of state: a server
    // may deliver a new room's state over several sync batches.
    this.rooms.set(roomId, { base: RoomState.empty(), writes: [...events] });
  }

  /** Records an own state write (with the event id the server gave it). */
  wrote(
    roomId: string,
    event: Omit<ClientEventWithoutRoomId, "origin_server_ts"> & { origin_server_ts?: number },
  ): void {
    const overlay = this.rooms.get(roomId) ?? { writes: [] };
    // Strictly increasing, so writes within one millisecond keep their order (space child ordering reads it).
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    const write = { origin_server_ts: this.lastTs, ...event };
    const before = eventIdOf(this.io.syncedState(roomId)?.get(event.type, event.state_key ?? ""));
    if (before !== undefined) heldBefore.set(write, before);
    overlay.writes.push(write);
    this.rooms.set(roomId, overlay);
  }

  /** A stand-in event id for state known before the server named it (creation). */
  localId(): string {
    this.localCounter += 1;
    return `${LOCAL_PREFIX}${this.localCounter}`;
  }

  /** The current state, or undefined when neither sync nor a fetch nor creation gave any. */
  peek(roomId: string): RoomState | undefined {
    const overlay = this.rooms.get(roomId);
    const synced = this.io.syncedState(roomId);
    if (synced !== undefined && synced.get("m.room.create") !== undefined) {
      if (overlay) {
        // Writes sync has delivered (or overtaken) are dropped.
        overlay.base = undefined;
        overlay.writes = overlay.writes.filter((w) => {
          const current = synced.get(w.type, w.state_key ?? "");
          // A write known only locally (creation, a membership change) gives way once sync has that key.
          if (w.event_id.startsWith(LOCAL_PREFIX)) return current === undefined;
          const now = eventIdOf(current);
          // Sync moved past the state the write replaced: ours, or a newer one (someone changed the
          // power levels since). Sync's copy is then the truth, even when our own event fell in a gap.
          // (A write made before sync knew the room waits for its own event: a new room's state
          // arrives over several batches, some older than the write.)
          const before = heldBefore.get(w);
          const moved = before !== undefined && now !== undefined && now !== before;
          return !moved && !this.io.syncKnowsEvent(roomId, w.event_id) && now !== w.event_id;
        });
        if (overlay.writes.length === 0) this.rooms.delete(roomId);
      }
      return overlay && overlay.writes.length > 0 ? synced.withEvents(overlay.writes) : synced;
    }
    if (overlay?.base === undefined) return undefined;
    return overlay.base.withEvents(overlay.writes);
  }

  /** The current state, fetched over HTTP when nothing is known yet. */
  async get(roomId: string): Promise<RoomState> {
    const known = this.peek(roomId);
    if (known !== undefined) return known;
    let pending = this.fetching.get(roomId);
    if (pending === undefined) {
      pending = this.io.fetchState(roomId).then(
        (events) => {
          const overlay = this.rooms.get(roomId) ?? { writes: [] };
          overlay.base = RoomState.empty().withEvents(events);
          this.rooms.set(roomId, overlay);
        },
        (error: unknown) => {
          this.fetching.delete(roomId);
          throw error;
        },
      );
      this.fetching.set(roomId, pending);
    }
    await pending;
    this.fetching.delete(roomId);
    return this.peek(roomId) ?? RoomState.empty();
  }

  /** Forgets a room (left or deleted). */
  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }
}

function eventIdOf(event: unknown): string | undefined {
  const id = (event as { event_id?: unknown } | undefined)?.event_id;
  return typeof id === "string" ? id : undefined;
}
