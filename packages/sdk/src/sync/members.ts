/**
 * Out-of-band member loading (SPEC §4 Other): with lazy-loaded members a
 * sync carries only the members the timeline needs, and the rest are loaded
 * on demand with GET /rooms/{roomId}/members?at=<token>&not_membership=leave
 * and kept in the Store's oob_membership_events (keyed by room_id and
 * state_key). Each room moves NotStarted -> InProgress -> Finished, and back
 * to NotStarted on failure or clear. Concurrent loads of one room share one
 * request; a clear while a load is in flight discards its answer.
 */
import { members as fetchMembers } from "../api/timeline";
import type { HttpApi } from "../http/types";
import type { JsonObject, Store } from "../store/Store";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";

/** A room's out-of-band loading state. */
export const OobMemberState = {
  NotStarted: "NotStarted",
  InProgress: "InProgress",
  Finished: "Finished",
} as const;
export type OobMemberState = (typeof OobMemberState)[keyof typeof OobMemberState];

export interface MemberLoaderOptions {
  http: HttpApi;
  store: Store;
}

interface RoomEntry {
  state: ObservableValue<OobMemberState>;
  pending: Promise<JsonObject[]> | undefined;
  /** Bumped by clear(), so a load that started before it does not write after it. */
  generation: number;
}

/** Loads and caches the members of rooms synced with lazy-loaded members. */
export class MemberLoader {
  private readonly rooms = new Map<string, RoomEntry>();

  constructor(private readonly options: MemberLoaderOptions) {}

  /** The loading state of a room, observable. */
  state(roomId: string): ReadonlyObservable<OobMemberState> {
    return this.entry(roomId).state;
  }

  /**
   * The room's members: from the store when loaded before, else from the
   * server as of `at` (the timeline's prev_batch, or the sync token), stored
   * before they are returned. Concurrent calls for one room share one load.
   */
  load(roomId: string, at?: string): Promise<JsonObject[]> {
    const entry = this.entry(roomId);
    if (entry.pending) return entry.pending;
    const generation = entry.generation;
    entry.state.set(OobMemberState.InProgress);
    const pending = this.fetch(roomId, at, generation).then(
      (members) => {
        if (entry.generation === generation) entry.state.set(OobMemberState.Finished);
        return members;
      },
      (error: unknown) => {
        if (entry.generation === generation) entry.state.set(OobMemberState.NotStarted);
        throw error;
      },
    );
    entry.pending = pending;
    const done = (): void => {
      if (entry.pending === pending) entry.pending = undefined;
    };
    pending.then(done, done);
    return pending;
  }

  /** Forgets a room's members (store and state), e.g. when the room is left or the cache cleared. */
  async clear(roomId: string): Promise<void> {
    const entry = this.entry(roomId);
    entry.generation += 1;
    entry.pending = undefined;
    entry.state.set(OobMemberState.NotStarted);
    await this.options.store.clearOutOfBandMembers(roomId);
  }

  /** Resets every room's state (the store was wiped). */
  reset(): void {
    for (const entry of this.rooms.values()) {
      entry.generation += 1;
      entry.pending = undefined;
      entry.state.set(OobMemberState.NotStarted);
    }
  }

  private entry(roomId: string): RoomEntry {
    let entry = this.rooms.get(roomId);
    if (!entry) {
      entry = {
        state: new ObservableValue<OobMemberState>(OobMemberState.NotStarted),
        pending: undefined,
        generation: 0,
      };
      this.rooms.set(roomId, entry);
    }
    return entry;
  }

  private async fetch(roomId: string, at: string | undefined, generation: number): Promise<JsonObject[]> {
    const { http, store } = this.options;
    const cached = await store.getOutOfBandMembers(roomId);
    if (cached !== null) return cached;
    const response: unknown = await fetchMembers(http, roomId, {
      ...(at !== undefined ? { at } : {}),
      not_membership: "leave",
    });
    const members = memberEvents(response, roomId);
    if (this.entry(roomId).generation === generation) {
      await store.setOutOfBandMembers(roomId, members);
    }
    return members;
  }
}

/**
 * The usable member events of an untrusted /members answer: objects of type
 * m.room.member with a string state_key and an object content; the rest is
 * dropped. The room id is filled in, since the store keys by it.
 */
export function memberEvents(response: unknown, roomId: string): JsonObject[] {
  const chunk = (response as { chunk?: unknown } | null)?.chunk;
  if (!Array.isArray(chunk)) return [];
  const out: JsonObject[] = [];
  for (const item of chunk) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const event = item as JsonObject;
    if (event["type"] !== "m.room.member" || typeof event["state_key"] !== "string") continue;
    const content = event["content"];
    if (typeof content !== "object" || content === null || Array.isArray(content)) continue;
    out.push({ ...event, room_id: roomId });
  }
  return out;
}
