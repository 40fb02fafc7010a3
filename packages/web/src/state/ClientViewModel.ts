/**
 * A signed-in client: the SDK's SyncService over an IndexedDbStore (inside
 * a FallbackStore, so a broken IndexedDB degrades to memory instead of
 * failing), the Rooms model fed by the sync processor, the room list, the
 * selected room's timeline, authenticated media, the "not syncing" status
 * and logout. Everything it subscribes to is owned by its Scope.
 */
import {
  browserPlatform,
  FallbackStore,
  IndexedDbStore,
  Rooms,
  signOut,
  SyncProcessor,
  SyncService,
  TokenRefresher,
} from "../sdk";
import type { FetchFn, ReadonlyObservable, Session, SyncState } from "../sdk";
import { MediaLoader } from "./MediaLoader";
import { ObservableValue } from "./observables";
import { RoomListViewModel } from "./RoomListViewModel";
import { Scope } from "./Scope";
import { TimelineViewModel } from "./TimelineViewModel";

/** The connection status the banner shows. */
export type ConnectionStatus =
  | { kind: "connecting" }
  | { kind: "online" }
  /** Sync fails or the browser is offline; `since` is the last successful sync (ms), if any. */
  | { kind: "offline"; since: number | null };

export interface ClientOptions {
  session: Session;
  /** The IDBFactory (window.indexedDB). */
  indexedDB: object;
  /** Where browser online/visibility events come from (window). */
  platformScope?: unknown;
  fetch?: FetchFn;
}

/** The IndexedDB database of an account (also deleted on logout). */
export function databaseNameOf(userId: string): string {
  return `lattice:${userId}`;
}

/** Maps the sync state and the last sync time to what the banner says. */
export function connectionStatusOf(state: SyncState | null, lastSyncAt: number | null): ConnectionStatus {
  if (state === "error" || state === "reconnecting") return { kind: "offline", since: lastSyncAt };
  if (state === null || state === "stopped") return { kind: "connecting" };
  return { kind: "online" };
}

export class ClientViewModel {
  readonly userId: string;
  readonly isGuest: boolean;
  readonly roomList: RoomListViewModel;
  readonly media: MediaLoader;
  readonly timeline = new ObservableValue<TimelineViewModel | null>(null);
  readonly connection = new ObservableValue<ConnectionStatus>({ kind: "connecting" });
  readonly startError = new ObservableValue<string | null>(null);
  readonly sync: SyncService;
  private readonly rooms: Rooms;
  private readonly scope = new Scope();

  constructor(private readonly options: ClientOptions) {
    const { session } = options;
    const userId = session.userId;
    if (userId === undefined) throw new Error("No session: sign in first");
    this.userId = userId;
    this.isGuest = session.isGuest;
    const http = TokenRefresher.forSession(session, options.fetch ? { fetch: options.fetch } : {});
    const store = new FallbackStore(
      new IndexedDbStore({ indexedDB: options.indexedDB, dbName: databaseNameOf(userId) }),
    );
    let processor: SyncProcessor | undefined;
    this.sync = new SyncService({
      http,
      store,
      userId,
      guest: session.isGuest,
      processor: (s) => (processor = new SyncProcessor({ store: s })),
      platform: browserPlatform(options.platformScope ?? globalThis),
      onUnknownToken: (softLogout) => {
        // The Session's state change takes the app to the soft-logout or sign-in screen.
        void (softLogout ? session.softLogout() : session.clear("token_invalid"));
      },
    });
    this.rooms = new Rooms({
      userId,
      http,
      ...(processor ? { source: processor } : {}),
      recentEventsKept: 50,
    });
    this.scope.add(() => this.rooms.dispose());
    this.roomList = new RoomListViewModel(this.rooms, this.scope.child());
    this.media = new MediaLoader(session, options.fetch);
    this.scope.add(() => this.media.dispose());

    const update = (): void =>
      this.connection.set(
        connectionStatusOf(this.sync.state.getSnapshot(), this.sync.lastSyncAt.getSnapshot()),
      );
    this.scope.subscribe(this.sync.state, update);
    this.scope.subscribe(this.sync.lastSyncAt, update);
    this.scope.subscribe(this.roomList.selected, (roomId: string | null) => this.openRoom(roomId));
    this.scope.add(() => this.timeline.getSnapshot()?.dispose());
  }

  /** The sync state as the SDK reports it. */
  get syncState(): ReadonlyObservable<SyncState | null> {
    return this.sync.state;
  }

  /** Restores from the cache, then syncs. */
  async start(): Promise<void> {
    try {
      await this.sync.start();
    } catch (err) {
      this.startError.set(err instanceof Error ? err.message : "Could not start syncing.");
    }
  }

  private openRoom(roomId: string | null): void {
    this.timeline.getSnapshot()?.dispose();
    const room = roomId === null ? undefined : this.rooms.find(roomId);
    this.timeline.set(room === undefined ? null : new TimelineViewModel(room));
  }

  /** Stops syncing and ends every subscription (the store is kept). */
  async dispose(): Promise<void> {
    this.scope.end();
    await this.sync.stop().catch(() => undefined);
    // Close the database so a resumed session (or a logout's delete) is not blocked by this connection.
    await this.sync.store.close().catch(() => undefined);
  }

  /** Signs out on the server, ends the client and deletes this account's local data. */
  async logout(): Promise<void> {
    const http = TokenRefresher.forSession(this.options.session);
    this.scope.end();
    await this.sync.stop().catch(() => undefined);
    await this.sync.store.deleteAllData().catch(() => undefined);
    await this.sync.store.close().catch(() => undefined);
    try {
      await signOut(http, this.options.session);
    } finally {
      // signOut clears the session itself; a failed request must still end it locally.
      if (this.options.session.state.getSnapshot().kind !== "signed_out")
        await this.options.session.clear("logout");
      await deleteDatabase(this.options.indexedDB, databaseNameOf(this.userId));
    }
  }
}

/** Deletes an IndexedDB database; never throws (a blocked delete finishes once tabs close). */
function deleteDatabase(factory: object, name: string): Promise<void> {
  const idb = factory as Partial<IDBFactory>;
  if (typeof idb.deleteDatabase !== "function") return Promise.resolve();
  return new Promise((resolve) => {
    const req = idb.deleteDatabase?.(name);
    if (req === undefined) return resolve();
    req.onsuccess = () => resolve();
    req.onerror = () => resolve();
    req.onblocked = () => resolve();
  });
}
