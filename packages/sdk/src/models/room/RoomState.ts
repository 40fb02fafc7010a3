/**
 * RoomState: the current state of a room, keyed by (type, state_key), as an
 * immutable value. `withEvents` returns a new RoomState sharing the unchanged
 * per-type maps, so a snapshot a UI holds never changes under it. Derived
 * values (members with power levels and disambiguated names, the power
 * levels, the room version rules, the defaults SPEC §3 lists) are computed
 * once per value, on first use.
 */
import type { ClientEventWithoutRoomId, StrippedStateEvent } from "../../api/types/events";
import { rulesOfCreateEvent } from "../creators";
import { own, ownString } from "../json";
import { PowerLevels } from "../power-levels";
import { declaredDisplayName, disambiguatedNames } from "../room-name";
import type { RoomVersionRules } from "../room-versions";
import { orderSpaceChildren } from "../room-list/orders";
import { predecessorOf, tombstoneOf } from "./upgrades";
import type { RoomPredecessor, RoomTombstone } from "./upgrades";

/** A state entry: a full event, or stripped state for invites and knocks. */
export type StateEntry = ClientEventWithoutRoomId | StrippedStateEvent;

const CREATE_TYPE = "m.room.create";

function eventIdOf(entry: StateEntry): string | undefined {
  const id = (entry as { event_id?: unknown }).event_id;
  return typeof id === "string" ? id : undefined;
}

/** Only a stripped create (invite or knock state, no event id) gives way, and only to a full event. */
function createMayReplace(current: StateEntry, next: StateEntry): boolean {
  return eventIdOf(current) === undefined && eventIdOf(next) !== undefined;
}

/** Membership values of m.room.member. */
export type Membership = "join" | "invite" | "leave" | "ban" | "knock";

const MEMBERSHIPS: ReadonlySet<string> = new Set(["join", "invite", "leave", "ban", "knock"]);

/** A room member as the UI shows it. */
export interface RoomMember {
  readonly userId: string;
  readonly membership: Membership;
  /** The disambiguated display name (the user id when none is set). */
  readonly name: string;
  /** The display name the member event declares, if any. */
  readonly rawDisplayName?: string;
  readonly avatarUrl?: string;
  readonly powerLevel: number;
}

/** SPEC §3 room state defaults, used when the room has no such state event. */
export const ROOM_STATE_DEFAULTS = {
  joinRule: "invite",
  historyVisibility: "shared",
  guestAccess: "forbidden",
} as const;

/** The state of one room at one point: immutable. */
export class RoomState {
  private membersCache: ReadonlyMap<string, RoomMember> | undefined;
  private powerLevelsCache: PowerLevels | undefined;
  private spaceChildrenCache: readonly string[] | undefined;

  private constructor(private readonly byType: ReadonlyMap<string, ReadonlyMap<string, StateEntry>>) {}

  /** A state with no events. */
  static empty(): RoomState {
    return new RoomState(new Map());
  }

  /**
   * A new state with `events` applied in order (later wins). Entries without
   * a string state_key are not state and are skipped. Returns `this` when
   * nothing changed.
   *
   * m.room.create is set once: it fixes the room version and, from room
   * version 12, who has infinite power, so a later create (a server bug or
   * a hostile server) is ignored and reported through `onIgnored`. Only an
   * invite's or knock's stripped create (no event id, unsigned) gives way to
   * the room's real one.
   */
  withEvents(events: readonly StateEntry[], onIgnored?: (message: string) => void): RoomState {
    const touched = new Map<string, Map<string, StateEntry>>();
    for (const event of events) {
      if (typeof event.state_key !== "string" || typeof event.type !== "string") continue;
      let inner = touched.get(event.type);
      if (event.type === CREATE_TYPE) {
        const current = (inner ?? this.byType.get(CREATE_TYPE))?.get(event.state_key);
        if (current !== undefined && !createMayReplace(current, event)) {
          if (eventIdOf(current) !== eventIdOf(event)) {
            onIgnored?.(
              `Ignoring m.room.create ${eventIdOf(event) ?? "(stripped)"}: the room's create event is already ${eventIdOf(current) ?? "(stripped)"}`,
            );
          }
          continue;
        }
      }
      if (inner === undefined) {
        inner = new Map(this.byType.get(event.type) ?? []);
        touched.set(event.type, inner);
      }
      inner.set(event.state_key, event);
    }
    if (touched.size === 0) return this;
    const next = new Map(this.byType);
    for (const [type, inner] of touched) next.set(type, inner);
    return new RoomState(next);
  }

  /** The state entry of (type, stateKey). */
  get(type: string, stateKey = ""): StateEntry | undefined {
    return this.byType.get(type)?.get(stateKey);
  }

  /** The content of (type, stateKey), or undefined. */
  content(type: string, stateKey = ""): Record<string, unknown> | undefined {
    return this.get(type, stateKey)?.content;
  }

  /** Every entry of one type, keyed by state key. */
  ofType(type: string): ReadonlyMap<string, StateEntry> {
    return this.byType.get(type) ?? new Map<string, StateEntry>();
  }

  /** All state types present. */
  types(): string[] {
    return [...this.byType.keys()];
  }

  /** The room version rules, from m.room.create. */
  get rules(): RoomVersionRules {
    return this.powerLevels.rules;
  }

  /** The power levels, from m.room.power_levels and m.room.create. */
  get powerLevels(): PowerLevels {
    this.powerLevelsCache ??= PowerLevels.from({
      content: this.content("m.room.power_levels"),
      createEvent: this.get("m.room.create"),
    });
    return this.powerLevelsCache;
  }

  /** The room version rules of a create event alone (before power levels exist). */
  static rulesOf(createEvent: unknown): RoomVersionRules {
    return rulesOfCreateEvent(createEvent);
  }

  /** Members by user id, with disambiguated names and power levels. */
  get members(): ReadonlyMap<string, RoomMember> {
    if (this.membersCache !== undefined) return this.membersCache;
    const entries = [...this.ofType("m.room.member")];
    const names = disambiguatedNames(
      entries.map(([userId, e]) => ({
        userId,
        displayName: own(e.content, "displayname"),
        membership: own(e.content, "membership"),
      })),
    );
    const pl = this.powerLevels;
    const out = new Map<string, RoomMember>();
    for (const [userId, e] of entries) {
      const m = ownString(e.content, "membership");
      if (m === undefined || !MEMBERSHIPS.has(m)) continue;
      const raw = declaredDisplayName(own(e.content, "displayname"));
      const avatar = ownString(e.content, "avatar_url");
      out.set(userId, {
        userId,
        membership: m as Membership,
        name: names.get(userId) ?? userId,
        ...(raw !== undefined ? { rawDisplayName: raw } : {}),
        ...(avatar !== undefined && avatar !== "" ? { avatarUrl: avatar } : {}),
        powerLevel: pl.userLevel(userId),
      });
    }
    this.membersCache = out;
    return out;
  }

  /** A user's membership, or undefined. */
  membershipOf(userId: string): Membership | undefined {
    const m = ownString(this.content("m.room.member", userId), "membership");
    return m !== undefined && MEMBERSHIPS.has(m) ? (m as Membership) : undefined;
  }

  /** Counts of joined and invited members from the state. */
  memberCounts(): { joined: number; invited: number } {
    let joined = 0;
    let invited = 0;
    for (const e of this.ofType("m.room.member").values()) {
      const m = own(e.content, "membership");
      if (m === "join") joined++;
      else if (m === "invite") invited++;
    }
    return { joined, invited };
  }

  /** m.room.join_rules, defaulting to invite (SPEC §3). */
  get joinRule(): string {
    return ownString(this.content("m.room.join_rules"), "join_rule") ?? ROOM_STATE_DEFAULTS.joinRule;
  }

  /** m.room.history_visibility, defaulting to shared (SPEC §3). */
  get historyVisibility(): string {
    return (
      ownString(this.content("m.room.history_visibility"), "history_visibility") ??
      ROOM_STATE_DEFAULTS.historyVisibility
    );
  }

  /** m.room.guest_access, defaulting to forbidden (SPEC §3). */
  get guestAccess(): string {
    return ownString(this.content("m.room.guest_access"), "guest_access") ?? ROOM_STATE_DEFAULTS.guestAccess;
  }

  /** Whether the room is a space (m.room.create type m.space). */
  get isSpace(): boolean {
    return ownString(this.content("m.room.create"), "type") === "m.space";
  }

  /** The room this one was upgraded from (SPEC §5 version markers applied). */
  get predecessor(): RoomPredecessor | undefined {
    return predecessorOf(this);
  }

  /** The room this one was upgraded to, from an honoured m.room.tombstone. */
  get tombstone(): RoomTombstone | undefined {
    return tombstoneOf(this);
  }

  /** Whether m.room.encryption is set. */
  get isEncrypted(): boolean {
    return this.get("m.room.encryption") !== undefined;
  }

  /**
   * Child room ids of a space (m.space.child with a non-empty via), in the
   * spec's order: valid `order` strings by code unit, then the child
   * event's timestamp, then room id.
   */
  get spaceChildren(): readonly string[] {
    this.spaceChildrenCache ??= orderSpaceChildren(this.ofType("m.space.child"));
    return this.spaceChildrenCache;
  }
}
