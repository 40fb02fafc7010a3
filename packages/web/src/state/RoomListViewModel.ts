/**
 * The room list's view model over the SDK's RoomListService: the spaces bar
 * (joined spaces, "Home" for all), section filters (all, people, rooms,
 * favourites, low priority, invites), search by name, and the selected
 * room. The list itself is the service's ObservableList of room snapshots,
 * so a sync batch moves only the rooms it changed. Favourites and low
 * priority list in their tag's `order`, a space's rooms in the space's
 * child order, everything else by recent activity; an upgraded room (or
 * space) whose successor is joined is left out, its successor stands in. With the SDK client, it
 * also owns the "+" actions (create, DM, join, directory, invites).
 */
import {
  allOf,
  favouritesFilter,
  invitesFilter,
  joinedSuccessorOf,
  lowPriorityFilter,
  peopleFilter,
  RoomListService,
  roomsFilter,
  spaceTreeFilter,
} from "../sdk";
import type { ReadonlyObservableList, RoomFilter, Rooms, RoomSort } from "../sdk";
import { roomBadge } from "./badges";
import { ObservableValue } from "./observables";
import { RoomActionsViewModel } from "./rooms/RoomActionsViewModel";
import type { ActionsClient } from "./rooms/RoomActionsViewModel";
import type { Scope } from "./Scope";

export type RoomSection = "all" | "people" | "rooms" | "favourites" | "low" | "invites";

/** The section filters, in the order shown (their labels are the shell strings `section_<id>`). */
export const SECTIONS: ReadonlyArray<{ id: RoomSection }> = [
  { id: "all" },
  { id: "people" },
  { id: "rooms" },
  { id: "favourites" },
  { id: "low" },
  { id: "invites" },
];

const SECTION_FILTERS: Record<RoomSection, RoomFilter | undefined> = {
  all: undefined,
  people: peopleFilter,
  rooms: roomsFilter,
  favourites: favouritesFilter,
  low: lowPriorityFilter,
  invites: invitesFilter,
};

/** Unread counts as a room list row reads them. */
export interface RoomListCounts {
  readonly notificationCount: number;
  readonly highlightCount: number;
}

/**
 * A room as the room list shows it: the view's own type, so components
 * never name the SDK's RoomSnapshot (GUIDE rule 10). The rows are the
 * SDK's snapshots seen through this narrower type, not copies: a sync
 * batch then changes only the rows whose snapshot changed, and the memoised
 * rows compare by identity.
 */
export interface RoomListItem {
  readonly roomId: string;
  readonly name: { readonly name: string };
  readonly category: "join" | "invite" | "leave" | "knock";
  /** A direct chat (the "people" section). */
  readonly isDirect: boolean;
  readonly members: ReadonlyMap<string, { readonly name: string }>;
  /** The event the preview line summarises (untrusted content). */
  readonly previewEvent?: {
    readonly type: string;
    readonly sender: string;
    readonly content: Readonly<Record<string, unknown>>;
    readonly state_key?: string;
  };
  /** The room's current state, for the topic when there is no preview event. */
  readonly state: { content(type: string): Readonly<Record<string, unknown>> | undefined };
  readonly unread: RoomListCounts;
  readonly threadUnread: ReadonlyMap<string, RoomListCounts>;
}

/** A space in the spaces bar. */
export interface SpaceEntry {
  roomId: string;
  name: string;
}

export class RoomListViewModel {
  readonly section = new ObservableValue<RoomSection>("all");
  readonly search = new ObservableValue("");
  readonly space = new ObservableValue<string | null>(null);
  readonly spaces = new ObservableValue<readonly SpaceEntry[]>([]);
  /** The open room (aria-selected); only `select` (Enter, click, a link) changes it. */
  readonly selected = new ObservableValue<string | null>(null);
  /**
   * The listbox's active option (aria-activedescendant): where the arrow
   * keys are. Moving it opens nothing and marks nothing read; Enter opens it.
   */
  readonly active = new ObservableValue<string | null>(null);
  /**
   * True while the first sync after sign-in has not answered (set by the
   * ClientViewModel): an empty list then means "not known yet", not "none".
   */
  readonly loading = new ObservableValue(false);
  /** Unread notifications over every joined room (whatever the filter): the tab title's count. */
  readonly unreadTotal = new ObservableValue(0);
  /** The "+" menu's actions; null without a client (tests of the list alone). */
  readonly actions: RoomActionsViewModel | null;
  private readonly service: RoomListService;

  constructor(
    private readonly rooms: Rooms,
    private readonly scope: Scope,
    client?: ActionsClient,
  ) {
    this.actions = client !== undefined ? new RoomActionsViewModel(client) : null;
    this.service = new RoomListService(rooms, { filter: (room) => !room.isSpace });
    scope.add(() => this.service.dispose());
    scope.add(
      rooms.onChange(() => {
        this.refreshSpaces();
        this.refreshUnread();
      }),
    );
    this.refreshSpaces();
    this.refreshUnread();
  }

  /** The rooms shown, in order. */
  get items(): ReadonlyObservableList<RoomListItem> {
    return this.service.items;
  }

  setSection(section: RoomSection): void {
    this.section.set(section);
    this.applyFilter();
  }

  setSearch(text: string): void {
    this.search.set(text);
    this.applyFilter();
  }

  setSpace(spaceId: string | null): void {
    this.space.set(spaceId);
    this.applyFilter();
  }

  /** Opens a room (or closes it with null); the active option follows the open room. */
  select(roomId: string | null): void {
    this.selected.set(roomId);
    if (roomId !== null) this.active.set(roomId);
  }

  /** Whether the user is in a room (joined). */
  isJoined(roomId: string): boolean {
    return this.rooms.find(roomId)?.getSnapshot().category === "join";
  }

  /**
   * Selects a room the user just created or joined as soon as sync brings
   * it in as joined (at once when it already is).
   */
  selectWhenJoined(roomId: string): void {
    const joined = (): boolean => this.rooms.find(roomId)?.getSnapshot().category === "join";
    if (joined()) return this.select(roomId);
    const scope = this.scope.child();
    scope.add(
      this.rooms.onChange((changed) => {
        if (!changed.has(roomId) || !joined()) return;
        scope.end();
        this.select(roomId);
      }),
    );
  }

  /**
   * Moves the active option `delta` rooms up or down the list (ArrowUp and
   * ArrowDown); from no active option (or one filtered out) it starts at
   * the open room, else at the top or bottom. Opens nothing.
   */
  move(delta: number): void {
    const list = this.items.getSnapshot();
    if (list.length === 0) return;
    let at = list.findIndex((r) => r.roomId === this.active.getSnapshot());
    if (at < 0) at = list.findIndex((r) => r.roomId === this.selected.getSnapshot());
    const next =
      at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + delta));
    this.active.set(list[next]?.roomId ?? null);
  }

  /** Makes the first (Home) or last (End) room of the list the active option. */
  moveToEdge(edge: "first" | "last"): void {
    const list = this.items.getSnapshot();
    const room = edge === "first" ? list[0] : list[list.length - 1];
    if (room !== undefined) this.active.set(room.roomId);
  }

  /**
   * The active option when it is in the (filtered) list, else null: what
   * the listbox points at and what Enter opens.
   */
  activeInList(): string | null {
    const id = this.active.getSnapshot();
    return id !== null && this.items.getSnapshot().some((r) => r.roomId === id) ? id : null;
  }

  /** Opens the active option (Enter); from the search box, the first match when none is active. */
  openActive(): void {
    const id = this.activeInList() ?? this.items.getSnapshot()[0]?.roomId ?? null;
    if (id !== null) this.select(id);
  }

  private applyFilter(): void {
    const filters: RoomFilter[] = [(room) => !room.isSpace];
    const section = SECTION_FILTERS[this.section.getSnapshot()];
    if (section !== undefined) filters.push(section);
    const space = this.space.getSnapshot();
    // A space shows its sub-spaces' rooms too: the rooms its badge counts.
    if (space !== null) filters.push(spaceTreeFilter(space));
    const needle = this.search.getSnapshot().trim().toLocaleLowerCase();
    if (needle !== "") filters.push((room) => room.name.name.toLocaleLowerCase().includes(needle));
    this.service.setView(allOf(...filters), this.sortFor(this.section.getSnapshot(), space));
  }

  /** Tags sort by their order, a space by its child order, the rest by recent activity. */
  private sortFor(section: RoomSection, space: string | null): RoomSort {
    if (section === "favourites") return { tag: "m.favourite" };
    if (section === "low") return { tag: "m.lowpriority" };
    return space !== null ? { space } : "recent";
  }

  private refreshUnread(): void {
    let total = 0;
    for (const room of this.rooms.all.getSnapshot().values()) {
      const snap = room.getSnapshot();
      if (snap.category === "join" && !snap.isSpace) total += roomBadge(snap).count;
    }
    this.unreadTotal.set(total);
  }

  private refreshSpaces(): void {
    const out: SpaceEntry[] = [];
    const ctx = { room: (id: string) => this.rooms.find(id)?.getSnapshot() };
    for (const room of this.rooms.all.getSnapshot().values()) {
      const snap = room.getSnapshot();
      // An upgraded space is shown through its joined successor only.
      if (snap.isSpace && snap.category === "join" && joinedSuccessorOf(snap, ctx) === undefined)
        out.push({ roomId: snap.roomId, name: snap.name.name });
    }
    out.sort((a, b) => a.name.localeCompare(b.name));
    const before = this.spaces.getSnapshot();
    const same =
      before.length === out.length &&
      before.every((s, i) => s.roomId === out[i]?.roomId && s.name === out[i]?.name);
    if (!same) this.spaces.set(out);
  }
}
