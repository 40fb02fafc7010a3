/**
 * The threads of the open room: the thread list panel (all threads or the
 * ones the user took part in, unread first, paged from the server through
 * the SDK's ThreadList) and the summaries shown under thread roots in the
 * timeline (reply count, last reply, participants, unread state), live from
 * the room's RoomThreads. One per RoomViewModel (`threadsOf`), ended with
 * the room's scope. The list asks /threads only of a server whose /versions
 * says it has it (Matrix v1.4); elsewhere the SDK builds it from what the
 * client knows, fetching roots known only by their replies.
 */
import { ObservableValue, realScheduler, ThreadList } from "../sdk";
import type { Client, Room, Thread, ThreadListInclude } from "../sdk";
import type { Subscribable } from "./useObservable";
import type { Scope } from "./Scope";

/** How unread a thread is: nothing, messages, or mentions/highlights. */
export type ThreadUnread = "none" | "unread" | "highlight";

/** A person shown in a thread summary. */
export interface ThreadPerson {
  readonly userId: string;
  readonly name: string;
  readonly avatarUrl?: string;
}

/** A thread as the panel and the root's summary show it. */
export interface ThreadRow {
  readonly rootId: string;
  readonly root?: ThreadPerson;
  /** The root's text, one line. */
  readonly rootPreview: string;
  readonly replyCount: number;
  readonly lastSender?: ThreadPerson;
  readonly lastPreview: string;
  readonly lastTs: number;
  /** Up to three people: the last replier, the root's sender, you when you took part. */
  readonly participants: readonly ThreadPerson[];
  readonly participated: boolean;
  readonly unread: ThreadUnread;
}

/** What the ThreadsViewModel needs of its room view model. */
export interface ThreadsHost {
  readonly client: Pick<Client, "userId" | "http" | "sync" | "serverFeatures">;
  readonly room: Room;
  readonly scope: Scope;
}

function previewOf(content: unknown): string {
  const body =
    typeof content === "object" && content !== null
      ? (content as Record<string, unknown>)["body"]
      : undefined;
  return typeof body === "string" ? (body.split("\n")[0] ?? "").slice(0, 140) : "";
}

/** The unread state of a thread's counts. */
export function unreadOf(thread: Pick<Thread, "unread">): ThreadUnread {
  if (thread.unread.highlightCount > 0) return "highlight";
  return thread.unread.notificationCount > 0 ? "unread" : "none";
}

const RANK: Record<ThreadUnread, number> = { highlight: 2, unread: 1, none: 0 };

export class ThreadsViewModel {
  /** The panel's filter. */
  readonly include = new ObservableValue<ThreadListInclude>("all");
  /** The panel's rows: unread first, then the most recent activity. */
  readonly rows = new ObservableValue<readonly ThreadRow[]>([]);
  readonly loading = new ObservableValue(false);
  readonly error = new ObservableValue<string | null>(null);
  readonly hasMore = new ObservableValue(true);
  private list: ThreadList | undefined;
  private listScope: Scope | undefined;
  private readonly summaries = new Map<string, ObservableValue<ThreadRow | null>>();

  constructor(private readonly host: ThreadsHost) {
    const { room, scope } = host;
    scope.subscribe(room.threads.list, () => this.refreshSummaries());
    scope.subscribe(room, () => this.refreshSummaries());
    scope.add(() => this.listScope?.end());
  }

  /** Opens the panel's list (first page) if not open yet. */
  open(): void {
    if (this.list === undefined) this.reload();
  }

  /** Switches between all threads and mine. */
  setInclude(include: ThreadListInclude): void {
    if (include === this.include.getSnapshot() && this.list !== undefined) return;
    this.include.set(include);
    this.reload();
  }

  /** Loads the next page. */
  async loadMore(): Promise<void> {
    const list = this.list;
    if (list === undefined || this.loading.getSnapshot() || !list.hasMore) return;
    this.loading.set(true);
    this.error.set(null);
    try {
      const more = await list.loadMore();
      if (list === this.list) this.hasMore.set(more);
    } catch (err) {
      if (list === this.list) this.error.set(err instanceof Error ? err.message : String(err));
    } finally {
      if (list === this.list) this.loading.set(false);
    }
  }

  /** The live summary of one thread root (null while it has no replies). */
  summaryOf(rootId: string): Subscribable<ThreadRow | null> {
    let value = this.summaries.get(rootId);
    if (value === undefined) {
      const thread = this.host.room.threads.get(rootId);
      value = new ObservableValue<ThreadRow | null>(
        thread && thread.replyCount > 0 ? this.rowOf(thread) : null,
      );
      this.summaries.set(rootId, value);
    }
    return value;
  }

  /** A thread's row now (the thread view's header). */
  rowFor(rootId: string): ThreadRow | null {
    const thread = this.host.room.threads.get(rootId);
    return thread === undefined ? null : this.rowOf(thread);
  }

  private reload(): void {
    this.listScope?.end();
    const scope = this.host.scope.child();
    this.listScope = scope;
    const features = this.host.client.sync.features.getSnapshot();
    const list = new ThreadList({
      room: this.host.room,
      http: this.host.client.http,
      scheduler: realScheduler,
      include: this.include.getSnapshot(),
      // The server's thread support (SPEC §4, from /versions); until it is known, the first load awaits it.
      support: features ? features.threads : this.host.client.serverFeatures().then((f) => f.threads),
    });
    this.list = list;
    scope.add(() => list.dispose());
    const publish = (): void => this.rows.set(this.sortRows(list.items.getSnapshot()));
    scope.subscribe(list.items, publish);
    scope.subscribe(this.host.room, publish);
    publish();
    this.hasMore.set(true);
    this.loading.set(false);
    void this.loadMore();
  }

  private sortRows(threads: readonly Thread[]): ThreadRow[] {
    // The SDK lists by activity; unread threads come first, keeping that order inside each group.
    return threads
      .map((t) => this.rowOf(t))
      .map((row, i) => [row, i] as const)
      .sort((a, b) => RANK[b[0].unread] - RANK[a[0].unread] || a[1] - b[1])
      .map(([row]) => row);
  }

  private refreshSummaries(): void {
    for (const [rootId, value] of this.summaries) {
      const thread = this.host.room.threads.get(rootId);
      const next = thread && thread.replyCount > 0 ? this.rowOf(thread) : null;
      if (!sameRow(value.getSnapshot(), next)) value.set(next);
    }
  }

  private person(userId: string): ThreadPerson {
    const member = this.host.room.getSnapshot().members.get(userId);
    return {
      userId,
      name: member?.name ?? userId,
      ...(member?.avatarUrl !== undefined ? { avatarUrl: member.avatarUrl } : {}),
    };
  }

  private rowOf(thread: Thread): ThreadRow {
    const me = this.host.client.userId;
    const root = thread.root !== undefined ? this.person(thread.root.sender) : undefined;
    const last = thread.lastEvent !== undefined ? this.person(thread.lastEvent.sender) : undefined;
    const people = new Map<string, ThreadPerson>();
    for (const p of [last, root, thread.participated ? this.person(me) : undefined])
      if (p !== undefined && !people.has(p.userId)) people.set(p.userId, p);
    return {
      rootId: thread.rootId,
      ...(root !== undefined ? { root } : {}),
      rootPreview: previewOf(thread.root?.content),
      replyCount: thread.replyCount,
      ...(last !== undefined ? { lastSender: last } : {}),
      lastPreview: previewOf(thread.lastEvent?.content),
      lastTs: thread.lastEvent?.origin_server_ts ?? thread.root?.origin_server_ts ?? 0,
      participants: [...people.values()].slice(0, 3),
      participated: thread.participated,
      unread: unreadOf(thread),
    };
  }
}

function sameRow(a: ThreadRow | null, b: ThreadRow | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.replyCount === b.replyCount &&
    a.unread === b.unread &&
    a.lastTs === b.lastTs &&
    a.lastPreview === b.lastPreview &&
    a.rootPreview === b.rootPreview &&
    a.lastSender?.name === b.lastSender?.name &&
    a.participants.length === b.participants.length
  );
}

const byHost = new WeakMap<ThreadsHost, ThreadsViewModel>();

/** The room's threads view model, created on first use and ended with the room's scope. */
export function threadsOf(host: ThreadsHost): ThreadsViewModel {
  let vm = byHost.get(host);
  if (vm === undefined) {
    vm = new ThreadsViewModel(host);
    byHost.set(host, vm);
  }
  return vm;
}
