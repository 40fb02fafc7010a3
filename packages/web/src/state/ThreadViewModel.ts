/**
 * One open thread: its own timeline (the SDK's ThreadTimeline: the root,
 * then replies paged from /relations and followed live), its own composer
 * (writing m.thread replies) and threaded read receipts: while the thread
 * is shown, its newest event is marked read with thread_id = the root, which
 * clears the thread's unread counts on the server (and so the room badge's
 * share of them).
 */
import { ObservableValue, realScheduler, ThreadTimeline } from "../sdk";
import type { KeyValueStorage, ReadonlyObservableList, Room, TimelineItem } from "../sdk";
import type { MediaProbe } from "./composer/attachments";
import { ComposerViewModel } from "./ComposerViewModel";
import type { ComposerClient } from "./ComposerViewModel";
import { Scope } from "./Scope";

export interface ThreadViewModelOptions {
  client: ComposerClient & {
    receipts: { sendReceipt(roomId: string, eventId: string, o?: { threadId?: string }): Promise<boolean> };
  };
  room: Room;
  rootId: string;
  storage?: KeyValueStorage;
  probe?: MediaProbe;
}

export class ThreadViewModel {
  readonly rootId: string;
  readonly composer: ComposerViewModel;
  readonly loading = new ObservableValue(true);
  readonly paginating = new ObservableValue(false);
  readonly error = new ObservableValue<string | null>(null);
  private readonly timeline: ThreadTimeline;
  private readonly scope = new Scope();
  private lastRead: string | undefined;
  private visible = true;

  constructor(private readonly options: ThreadViewModelOptions) {
    const { client, room, rootId } = options;
    this.rootId = rootId;
    this.timeline = new ThreadTimeline({ room, rootId, http: client.http, scheduler: realScheduler });
    this.scope.add(() => this.timeline.dispose());
    this.composer = new ComposerViewModel({
      client,
      room,
      threadRootId: rootId,
      events: () => this.timeline.items.getSnapshot(),
      ...(options.storage ? { storage: options.storage } : {}),
      ...(options.probe ? { probe: options.probe } : {}),
    });
    this.scope.add(() => this.composer.dispose());
    this.scope.subscribe(this.timeline.items, () => this.markRead());
    this.timeline.load().then(
      () => {
        this.loading.set(false);
        this.markRead();
      },
      (err: unknown) => {
        this.loading.set(false);
        this.error.set(err instanceof Error ? err.message : String(err));
      },
    );
  }

  /** The thread's events, root first. */
  get items(): ReadonlyObservableList<TimelineItem> {
    return this.timeline.items;
  }

  get canPaginate(): boolean {
    return this.timeline.canPaginate;
  }

  /** Loads older replies. */
  async loadOlder(): Promise<void> {
    if (this.paginating.getSnapshot() || !this.timeline.canPaginate) return;
    this.paginating.set(true);
    try {
      await this.timeline.paginate();
    } catch (err) {
      this.error.set(err instanceof Error ? err.message : String(err));
    } finally {
      this.paginating.set(false);
    }
  }

  /** Whether the thread is on screen (a hidden tab reads nothing). */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.markRead();
  }

  /** Sends the threaded receipt for the newest event, once per event. */
  markRead(): void {
    if (!this.visible || this.scope.ended) return;
    const items = this.timeline.items.getSnapshot();
    const last = [...items].reverse().find((i) => i.eventId.startsWith("$"));
    if (last === undefined || last.eventId === this.lastRead) return;
    this.lastRead = last.eventId;
    const { client, room, rootId } = this.options;
    // The root belongs to the main timeline; a thread with only its root has nothing to mark.
    if (last.eventId === rootId) return;
    client.receipts.sendReceipt(room.roomId, last.eventId, { threadId: rootId }).catch(() => {
      this.lastRead = undefined;
    });
  }

  dispose(): void {
    this.scope.end();
  }
}
