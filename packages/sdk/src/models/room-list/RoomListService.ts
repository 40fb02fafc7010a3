/**
 * RoomListService: the room list as an ObservableList of room snapshots,
 * filtered and sorted. Each sync batch moves only the rooms it changed
 * (remove at the old place, binary-search the new one), so a batch costs
 * O(k log n) comparisons for k changed rooms out of n, not a re-sort; a
 * batch touching a large share of the rooms, or a new filter or sort,
 * rebuilds the list once (a reset diff). A room upgraded to a joined room
 * is left out; when its successor changes (joined, left) the old room is
 * looked at again with it.
 */
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import type { RoomSnapshot } from "../room/Room";
import type { Rooms } from "../room/Rooms";
import { allOf, comparatorOf, notReplacedFilter, visibleFilter } from "./filters";
import type { FilterContext, RoomFilter, RoomSort } from "./filters";

export interface RoomListOptions {
  /** Combined with the default (joined rooms and invites). */
  filter?: RoomFilter;
  sort?: RoomSort;
  /** Above this share of changed rooms a batch rebuilds the list. */
  rebuildRatio?: number;
  /**
   * Called on each comparison the list makes (instrumentation: tests count
   * them to show that a batch moves rooms instead of re-sorting).
   */
  onCompare?: () => void;
}

export class RoomListService {
  private readonly list = new ObservableList<RoomSnapshot>();
  /** The snapshot each listed room is listed with (to find it again). */
  private readonly listed = new Map<string, RoomSnapshot>();
  private filter: RoomFilter;
  private compare: (a: RoomSnapshot, b: RoomSnapshot) => number;
  private sortValue: RoomSort;
  private readonly unsubscribe: () => void;
  private readonly ctx: FilterContext;
  /** Successor room id -> the rooms whose tombstone names it (to look at them again). */
  private readonly replaces = new Map<string, Set<string>>();

  constructor(
    private readonly rooms: Rooms,
    private readonly options: RoomListOptions = {},
  ) {
    this.filter = options.filter ?? (() => true);
    this.sortValue = options.sort ?? "recent";
    this.ctx = { room: (id) => rooms.find(id)?.getSnapshot() };
    this.compare = this.comparator();
    this.unsubscribe = rooms.onChange((changed) => this.onChange(changed));
    this.rebuild();
  }

  /** The rooms, in order, with diffs. */
  get items(): ReadonlyObservableList<RoomSnapshot> {
    return this.list;
  }

  get sort(): RoomSort {
    return this.sortValue;
  }

  /** Replaces the filter (undefined: all joined rooms and invites). */
  setFilter(filter: RoomFilter | undefined): void {
    this.filter = filter ?? (() => true);
    this.rebuild();
  }

  /** Replaces filter and sort together, with one rebuild. */
  setView(filter: RoomFilter | undefined, sort: RoomSort): void {
    this.filter = filter ?? (() => true);
    this.sortValue = sort;
    this.rebuild();
  }

  setSort(sort: RoomSort): void {
    this.sortValue = sort;
    this.rebuild();
  }

  dispose(): void {
    this.unsubscribe();
  }

  private comparator(): (a: RoomSnapshot, b: RoomSnapshot) => number {
    const compare = comparatorOf(this.sortValue, this.ctx);
    const count = this.options.onCompare;
    if (count === undefined) return compare;
    return (a, b) => {
      count();
      return compare(a, b);
    };
  }

  private accepts(room: RoomSnapshot): boolean {
    const next = room.tombstone?.replacementRoom;
    if (next !== undefined) {
      let olds = this.replaces.get(next);
      if (olds === undefined) this.replaces.set(next, (olds = new Set()));
      olds.add(room.roomId);
    }
    return allOf(visibleFilter, notReplacedFilter, this.filter)(room, this.ctx);
  }

  private rebuild(): void {
    const out: RoomSnapshot[] = [];
    this.listed.clear();
    this.replaces.clear();
    // A space order reads the space's children now.
    this.compare = this.comparator();
    for (const room of this.rooms.all.getSnapshot().values()) {
      const snap = room.getSnapshot();
      if (!this.accepts(snap)) continue;
      out.push(snap);
      this.listed.set(snap.roomId, snap);
    }
    out.sort(this.compare);
    this.list.reset(out);
  }

  private onChange(changed: ReadonlySet<string>): void {
    const total = Math.max(this.listed.size, this.rooms.all.getSnapshot().size);
    // A changed space changes which rooms a space filter accepts: rebuild.
    const spaceChanged = [...changed].some((id) => this.ctx.room(id)?.isSpace === true);
    if (spaceChanged || changed.size > total * (this.options.rebuildRatio ?? 0.25)) {
      this.rebuild();
      return;
    }
    const touched = new Set(changed);
    for (const id of changed) for (const old of this.replaces.get(id) ?? []) touched.add(old);
    this.list.batch(() => {
      for (const id of touched) this.move(id);
    });
  }

  private move(roomId: string): void {
    const old = this.listed.get(roomId);
    if (old !== undefined) {
      const at = this.indexOf(old);
      if (this.list.at(at)?.roomId === roomId) this.list.remove(at);
      this.listed.delete(roomId);
    }
    const snap = this.rooms.find(roomId)?.getSnapshot();
    if (snap === undefined || !this.accepts(snap)) return;
    this.list.insert(this.indexOf(snap), snap);
    this.listed.set(roomId, snap);
  }

  /** The first index whose room does not sort before `room` (binary search). */
  private indexOf(room: RoomSnapshot): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const item = this.list.at(mid);
      if (item !== undefined && this.compare(item, room) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
