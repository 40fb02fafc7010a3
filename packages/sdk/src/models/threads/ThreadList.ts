/**
 * ThreadList: a room's threads as the thread panel lists them, all or only
 * those the user took part in, fetched 30 a page from GET /threads. Roots
 * come back with their bundled summaries and feed the room's RoomThreads.
 * /threads is Matrix v1.4: with any other support (or a 404/405/400
 * M_UNRECOGNIZED) the list is built from what the client knows: every
 * event the room holds (roots with their bundled summaries, thread replies),
 * then pages of the room's /messages; a thread known only by its replies,
 * or by a root without a summary, gets its root fetched with /event (or
 * /context) once, whose bundled summary holds the true count. The list
 * publishes a snapshot plus real diffs (insert, update, remove), like the
 * room's own thread list. Pages pass through the room's decrypt hook first.
 */
import { eventContext, getEvent, messages } from "../../api/timeline";
import { threads } from "../../api/threads";
import { isUnrecognisedError, MatrixError } from "../../http/errors";
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import { own } from "../json";
import type { Room } from "../room/Room";
import { PAGINATION_PAGE_SIZE, withRetry } from "../timeline/pagination";
import type { Thread } from "./RoomThreads";
import { isUsableEvent, usableEvents } from "../timeline/validate";
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
  /**
   * The server's thread support (from /versions): only "stable" (v1.4) has
   * /threads; the others build the list locally. A promise is awaited by
   * the first load. Absent: /threads is tried and its refusal detected.
   */
  support?: ThreadSupport | Promise<ThreadSupport | undefined>;
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
  /** Roots fetched (or tried) with /event, so a server without bundles is asked once. */
  private readonly fetchedRoots = new Set<string>();

  constructor(private readonly options: ThreadListOptions) {
    this.include = options.include ?? "all";
    this.mode = options.support === "none" || options.support === "experimental" ? "local" : "server";
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
    const support = await this.options.support;
    if (support !== undefined && support !== "stable" && this.token === undefined) this.mode = "local";
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
    // First what the client holds: sync's recent events and the open timeline's pages.
    if (this.token === undefined) room.threads.addEvents(room.knownEvents(), (id) => room.findEvent(id));
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
    await this.fetchMissingRoots();
  }

  /** Fetches the roots of threads known only by replies (or without a summary), once each. */
  private async fetchMissingRoots(): Promise<void> {
    const { room } = this.options;
    const wanted = room.threads.list
      .getSnapshot()
      .map((t) => t.rootId)
      .filter((id) => !this.fetchedRoots.has(id) && room.threads.needsRoot(id));
    for (const rootId of wanted) {
      this.fetchedRoots.add(rootId);
      let root: ClientEventWithoutRoomId | undefined;
      try {
        root = await this.fetchRoot(rootId);
      } catch (error) {
        // Not an answer (the network): try again with the next page.
        this.fetchedRoots.delete(rootId);
        throw error;
      }
      if (root !== undefined)
        room.threads.addEvents(await room.decryptEvents([root]), (id) => room.findEvent(id));
    }
  }

  /** A root by /event, or /context where /event is missing; undefined when the server refuses. */
  private async fetchRoot(rootId: string): Promise<ClientEventWithoutRoomId | undefined> {
    const { room, http } = this.options;
    try {
      const event: unknown = await getEvent(http, room.roomId, rootId);
      return isUsableEvent(event) ? event : undefined;
    } catch (error) {
      if (!(error instanceof MatrixError)) throw error;
      // A root the user may not see (history visibility): the thread shows without it.
      if (!isUnrecognisedError(error)) return undefined;
    }
    try {
      const event: unknown = own(await eventContext(http, room.roomId, rootId, { limit: 0 }), "event");
      return isUsableEvent(event) ? event : undefined;
    } catch (error) {
      if (!(error instanceof MatrixError)) throw error;
      return undefined;
    }
  }

  private filter(threadsNow: readonly Thread[]): Thread[] {
    return this.include === "all" ? [...threadsNow] : threadsNow.filter((t) => t.participated);
  }
}
