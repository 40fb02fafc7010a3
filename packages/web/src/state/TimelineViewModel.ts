/**
 * The selected room's timeline, read-only for now: the SDK's TimelineWindow
 * (newest events first loaded, live updates, back-pagination on request)
 * and the room's snapshot for its header. Disposing closes the window.
 */
import type { ReadonlyObservableList, Room, RoomSnapshot } from "../sdk";
import type { ReadonlyObservable } from "../sdk";
import { ObservableValue } from "./observables";

type TimelineWindowHandle = ReturnType<Room["openTimeline"]>;
/** One item of the timeline (event, with edits, reactions and redaction applied). */
export type TimelineEntry = TimelineWindowHandle["items"] extends ReadonlyObservableList<infer T> ? T : never;

export class TimelineViewModel {
  readonly loading = new ObservableValue(true);
  readonly paginating = new ObservableValue(false);
  readonly error = new ObservableValue<string | null>(null);
  private readonly window: TimelineWindowHandle;
  private disposed = false;

  constructor(private readonly room: Room) {
    this.window = room.openTimeline();
    this.window.load().then(
      () => this.loading.set(false),
      (err: unknown) => {
        this.loading.set(false);
        this.error.set(err instanceof Error ? err.message : "Could not load the timeline.");
      },
    );
  }

  get roomId(): string {
    return this.room.roomId;
  }

  /** The room's current snapshot (name, topic, members). */
  get snapshot(): ReadonlyObservable<RoomSnapshot> {
    return this.room;
  }

  get items(): ReadonlyObservableList<TimelineEntry> {
    return this.window.items;
  }

  /** Loads older events when there are any; ignored while a load runs. */
  async loadOlder(): Promise<void> {
    if (this.disposed || this.paginating.getSnapshot() || !this.window.canPaginate("b")) return;
    this.paginating.set(true);
    try {
      await this.window.paginate("b");
    } catch (err) {
      this.error.set(err instanceof Error ? err.message : "Could not load older messages.");
    } finally {
      this.paginating.set(false);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.window.close();
  }
}
