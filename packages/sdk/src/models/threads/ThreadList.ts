/**
 * ThreadList: a room's threads as the thread panel lists them, all or only
 * those the user took part in, fetched 30 a page from GET /threads. Roots
 * come back with their bundled summaries and feed the room's RoomThreads.
 * Against a server without /threads (no support, or 404/405/400
 * M_UNRECOGNIZED) it pages the room's /messages instead and builds threads
 * from the relations it finds. The list publishes a snapshot plus real
 * diffs (insert, update, remove), like the room's own thread list. Pages
 * (roots and their bundled last replies) pass through the room's decrypt
 * hook first.
 */
import { messages } from "../../api/timeline";
import { threads } from "../../api/threads";
import { isUnrecognisedError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../sync/scheduler";
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import { own } from "../json";
import type { Room } from "../room/Room";
import { PAGINATION_PAGE_SIZE, withRetry } from "../timeline/pagination";
import type { Thread } from "./RoomThreads";
import { usableEvents } from "../timeline/validate";
import type { ThreadSupport } from "./support";
import { patchList } from "./patch-list";
import { DEFAULT_VALIDATION_LIMITS } from "../../sync/validate/limits";
import { isEchoableToken } from "../../sync/validate/tokens";

const rootIdOf = (thread: Thread): string => thread.rootId;

export type ThreadListInclude = "all" | "participated";

export interface ThreadListOptions {
  room: Room;
  http: HttpApi;
  scheduler: Scheduler;
  include?: ThreadListInclude;
  /** The server's thread support; "none" goes straight to the local fallback. */
  support?: ThreadSupport;
  pageSize?: number;
}

export class ThreadList {
  readonly include: ThreadListInclude;
  private readonly list = new ObservableList<Thread>();
  private readonly unsubscribe: () => void;
  /** "server" while /threads answers; "local" once it is known missing. */
  private mode: "server" | "local";
  private token: string | null | undefined;
  private done = false;

  constructor(private readonly options: ThreadListOptions) {
    this.include = options.include ?? "all";
    this.mode = options.support === "none" ? "local" : "server";
    // Real diffs (a thread moving up on new activity is a remove and an insert), never a reset.
    this.unsubscribe = options.room.threads.list.subscribe((snapshot) =>
      patchList(this.list, this.filter(snapshot), rootIdOf),
    );
    patchList(this.list, this.filter(options.room.threads.list.getSnapshot()), rootIdOf);
  }

  /** The threads, most recent activity first. */
  get items(): ReadonlyObservableList<Thread> {
    return this.list;
  }

  /** Whether threads are read from /threads or built locally. */
  get source(): "server" | "local" {
    return this.mode;
  }

  /** Whether more pages may exist. */
  get hasMore(): boolean {
    return !this.done;
  }

  /** Loads the next page; resolves with whether more may exist. */
  async loadMore(): Promise<boolean> {
    if (this.done) return false;
    if (this.mode === "server") {
      try {
        await this.loadServerPage();
        return !this.done;
      } catch (error) {
        if (!isUnrecognisedError(error)) throw error;
        this.mode = "local";
        this.token = undefined;
      }
    }
    await this.loadLocalPage();
    return !this.done;
  }

  /** Stops following the room's threads. */
  dispose(): void {
    this.unsubscribe();
  }

  private async loadServerPage(): Promise<void> {
    const { room, http } = this.options;
    const page = await threads(http, room.roomId, {
      include: this.include,
      limit: this.options.pageSize ?? PAGINATION_PAGE_SIZE,
      ...(typeof this.token === "string" ? { from: this.token } : {}),
    });
    const roots = await room.decryptEvents(usableEvents(own(page, "chunk")));
    room.threads.addEvents(roots, (id) => room.findEvent(id));
    const next = own(page, "next_batch");
    this.token = isEchoableToken(next, DEFAULT_VALIDATION_LIMITS.maxStringLength) ? next : null;
    if (this.token === null) this.done = true;
  }

  /** One page of the room's history, scanned for thread roots and replies. */
  private async loadLocalPage(): Promise<void> {
    const { room, http, scheduler } = this.options;
    const from = this.token === undefined ? undefined : this.token;
    if (from === null) {
      this.done = true;
      return;
    }
    if (this.token === undefined) room.threads.addEvents(room.recentEvents, (id) => room.findEvent(id));
    const page = await withRetry(
      () =>
        messages(http, room.roomId, {
          dir: "b",
          limit: this.options.pageSize ?? PAGINATION_PAGE_SIZE,
          ...(from !== undefined ? { from } : {}),
        }),
      scheduler,
    );
    const events = await room.decryptEvents(usableEvents(own(page, "chunk")));
    room.threads.addEvents(events, (id) => room.findEvent(id));
    const end = own(page, "end");
    this.token =
      events.length > 0 && isEchoableToken(end, DEFAULT_VALIDATION_LIMITS.maxStringLength) ? end : null;
    if (this.token === null) this.done = true;
  }

  private filter(threadsNow: readonly Thread[]): Thread[] {
    return this.include === "all" ? [...threadsNow] : threadsNow.filter((t) => t.participated);
  }
}
