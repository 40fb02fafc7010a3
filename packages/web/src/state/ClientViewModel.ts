/**
 * A signed-in client: the SDK's createClient over an IndexedDbStore (inside
 * a FallbackStore, so a broken IndexedDB degrades to memory instead of
 * failing), with the browser platform, the unknown-token handling and
 * crypto (loaded lazily by the SDK). Around it: the room list, the selected
 * room (RoomViewModel), authenticated media, the "not syncing" status and
 * logout. Other view models take the SDK client as `clientVm.client`.
 * Everything it subscribes to is owned by its Scope.
 */
import { pagePresenceStorage, storedPresence } from "./settings/presenceChoice";
import { browserPlatform, createClient, FallbackStore, IndexedDbStore } from "../sdk";
import type {
  Client,
  DatabaseDeleter,
  FetchFn,
  ReadonlyObservable,
  Session,
  SyncService,
  SyncFailure,
  SyncState,
} from "../sdk";
import { MediaLoader } from "./MediaLoader";
import { ObservableValue } from "./observables";
import { SpacesViewModel } from "./spaces/SpacesViewModel";
import { RoomListViewModel } from "./RoomListViewModel";
import { RoomViewModel } from "./RoomViewModel";
import { Router } from "./routing/Router";
import { provideRoomOptions, RoomOptionsViewModel } from "./rooms/RoomOptionsViewModel";
import { Scope } from "./Scope";
import { VerificationCenter } from "./verification/VerificationCenter";
import { createBrowserMediaPlatform } from "../platform";
import type { BrowserMediaPlatform } from "../platform";
import { CallSettings } from "./calls/CallSettings";
import { AppStateError } from "./errors";
import { consoleLogger } from "./logger";

/** The connection status the banner shows. */
export type ConnectionStatus =
  | { kind: "connecting" }
  | { kind: "online" }
  /** Sync fails or the browser is offline; `since` is the last successful sync (ms), if any. */
  | { kind: "offline"; since: number | null }
  /**
   * The server answered and refused the sync (a 4xx): what it said, and
   * whether sync gave up (`stopped`; retrySync() tries again).
   */
  | { kind: "refused"; errcode: string | null; message: string; stopped: boolean }
  /** The server answered but its answer is unusable, or handling it here failed: not a lost connection. */
  | { kind: "failed"; what: "unusable" | "local"; message: string; stopped: boolean }
  /** Saving on this device failed: sync goes on, the data is kept in memory only (until the tab closes). */
  | { kind: "memory_only"; message: string };

export interface ClientOptions {
  session: Session;
  /** The IDBFactory (window.indexedDB). */
  indexedDB: object;
  /** Where browser online/visibility events come from (window). */
  platformScope?: unknown;
  fetch?: FetchFn;
  /** Where call preferences are kept (window.localStorage); none keeps the defaults. */
  callStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

/** The window's local storage, where there is one (reading it can throw in a sandboxed frame). */
function windowStorage(): ClientOptions["callStorage"] {
  try {
    return (globalThis as { localStorage?: ClientOptions["callStorage"] }).localStorage;
  } catch {
    return undefined;
  }
}

/** The IndexedDB database of an account (also deleted on logout). */
export function databaseNameOf(userId: string): string {
  return `lattice:${userId}`;
}

/** The crypto engine's IndexedDB store of an account's device (deleted by logout). */
export function cryptoDatabaseNameOf(userId: string, deviceId: string): string {
  return `lattice-crypto:${userId}:${deviceId}`;
}

/** Maps the sync state, the last sync time and the last failure to what the banner says. */
export function connectionStatusOf(
  state: SyncState | null,
  lastSyncAt: number | null,
  failure: SyncFailure | null = null,
): ConnectionStatus {
  if ((state === "error" || state === "reconnecting") && failure?.kind === "refused") {
    return {
      kind: "refused",
      errcode: failure.errcode ?? null,
      message: failure.message,
      stopped: failure.permanent,
    };
  }
  if (failure !== null) {
    // Not a lost connection, whatever the state: these say what failed instead.
    const what = failure.kind === "protocol" ? "unusable" : failure.kind === "processing" ? "local" : null;
    if (what !== null) return { kind: "failed", what, message: failure.message, stopped: failure.permanent };
    if (failure.kind === "store" && state !== "error" && state !== "reconnecting") {
      return { kind: "memory_only", message: failure.message };
    }
  }
  if (state === "error" || state === "reconnecting") return { kind: "offline", since: lastSyncAt };
  if (state === null || state === "stopped") return { kind: "connecting" };
  return { kind: "online" };
}

export class ClientViewModel {
  readonly userId: string;
  readonly isGuest: boolean;
  readonly roomList: RoomListViewModel;
  /** The spaces bar: the space tree and badges, explore, create, settings, leave. */
  readonly spaces: SpacesViewModel;
  readonly media: MediaLoader;
  /** The open verification dialog (incoming requests, user panels' Verify). */
  readonly verification: VerificationCenter;
  /** Settings › Voice & video, read by the media platform and client.voip. */
  readonly callSettings: CallSettings;
  /** The browser's media for calls; undefined where the browser has no WebRTC (calls are then not offered). */
  readonly mediaPlatform: BrowserMediaPlatform | undefined;
  /** The selected room, or null. */
  readonly room = new ObservableValue<RoomViewModel | null>(null);
  readonly connection = new ObservableValue<ConnectionStatus>({ kind: "connecting" });
  readonly startError = new ObservableValue<string | null>(null);
  /** The user's display name for the account bar (null until loaded, or when none is set). */
  readonly displayName = new ObservableValue<string | null>(null);
  /** The SDK client: the services other view models take. */
  readonly client: Client;
  /** The URL hash and in-app links (ClientShell attaches the window's location). */
  readonly router: Router;
  private readonly scope = new Scope();
  /** An event to open the next selected room at (a link). */
  private pendingEventId: string | undefined;

  /** The homeserver's base URL (Element Call and widgets' `$org.matrix.msc4039.matrix_base_url`; never the token). */
  get homeserverUrl(): string | undefined {
    return this.options.session.homeserverUrl;
  }

  constructor(private readonly options: ClientOptions) {
    const { session } = options;
    const userId = session.userId;
    if (userId === undefined) throw new AppStateError("No session: sign in first");
    this.userId = userId;
    this.isGuest = session.isGuest;
    const store = new FallbackStore(
      new IndexedDbStore({ indexedDB: options.indexedDB, dbName: databaseNameOf(userId) }),
    );
    this.callSettings = new CallSettings(options.callStorage ?? windowStorage());
    const media = createBrowserMediaPlatform({ preferences: () => this.callSettings.current });
    this.mediaPlatform = media.supported ? media : undefined;
    this.client = createClient({
      session,
      logger: consoleLogger(),
      voip: {
        ...(this.mediaPlatform ? { platform: this.mediaPlatform } : {}),
        fallbackStunAllowed: () => this.callSettings.current.fallbackStunAllowed,
      },
      store,
      // Crypto is on for a signed-in device (the SDK loads the engine on the first encrypted room).
      ...(session.deviceId !== undefined && !session.isGuest
        ? { cryptoStore: { name: cryptoDatabaseNameOf(userId, session.deviceId) } }
        : {}),
      indexedDB: options.indexedDB as DatabaseDeleter,
      ...(options.fetch ? { httpOptions: { fetch: options.fetch } } : {}),
      sync: {
        platform: browserPlatform(options.platformScope ?? globalThis),
        // The device's presence choice on every sync (online unless chosen otherwise).
        setPresence: () => storedPresence(pagePresenceStorage()),
        onUnknownToken: (softLogout) => {
          // The Session's state change takes the app to the soft-logout or sign-in screen.
          void (softLogout ? session.softLogout() : session.clear("token_invalid"));
        },
      },
    });
    this.roomList = new RoomListViewModel(this.client.rooms, this.scope.child(), this.client);
    this.spaces = new SpacesViewModel(this.client, this.roomList, this.scope.child());
    this.media = new MediaLoader(session, options.fetch, this.client.http, () =>
      this.client.serverFeatures().then((features) => features.authenticatedMedia),
    );
    this.scope.add(() => this.media.dispose());
    this.verification = new VerificationCenter(this.client, this.scope.child());

    const update = (): void =>
      this.connection.set(
        connectionStatusOf(
          this.sync.state.getSnapshot(),
          this.sync.lastSyncAt.getSnapshot(),
          this.sync.failure.getSnapshot(),
        ),
      );
    this.scope.subscribe(this.sync.state, update);
    this.scope.subscribe(this.sync.failure, update);
    this.scope.subscribe(this.sync.lastSyncAt, update);
    // The room list is "loading" until a sync has answered (or sync has stopped on an error to show).
    const settle = (): void => {
      const status = this.connection.getSnapshot().kind;
      if (this.sync.lastSyncAt.getSnapshot() !== null || status === "refused" || status === "failed")
        this.roomList.loading.set(false);
    };
    this.roomList.loading.set(true);
    this.scope.subscribe(this.connection, settle);
    this.scope.subscribe(this.sync.lastSyncAt, settle);
    settle();
    this.scope.subscribe(this.roomList.selected, (roomId: string | null) => this.openRoom(roomId));
    this.scope.add(() => this.room.getSnapshot()?.dispose());
    this.router = new Router(this, this.scope.child());
    const roomOptions = new RoomOptionsViewModel(this.client, this.scope.child(), (id) => {
      if (this.roomList.selected.getSnapshot() === id) this.roomList.select(null);
    });
    provideRoomOptions(this.roomList, roomOptions);
  }

  /** Starts sync again after it gave up on a refusal (the banner's "Try again"). */
  retrySync(): void {
    this.sync.retry();
  }

  /** The sync service (state, store). */
  get sync(): SyncService {
    return this.client.sync;
  }

  /** The sync state as the SDK reports it. */
  get syncState(): ReadonlyObservable<SyncState | null> {
    return this.sync.state;
  }

  /** Restores from the cache, then syncs. */
  async start(): Promise<void> {
    void this.refreshProfile();
    try {
      await this.client.start();
    } catch (err) {
      this.startError.set(err instanceof Error ? err.message : "Could not start syncing.");
    }
  }

  /** Reads the user's display name again (at start, and after Settings may have changed it). */
  async refreshProfile(): Promise<void> {
    try {
      const name = (await this.client.profile.get()).displayname;
      this.displayName.set(typeof name === "string" && name.trim() !== "" ? name : null);
    } catch {
      // No profile (or offline): the account bar shows the user id alone.
    }
  }

  /**
   * Opens a room at an event (a matrix.to or #/room/<id>/<eventId> link):
   * selects the room, whose timeline then loads around the event; when the
   * room is already open its timeline jumps there.
   */
  openEvent(roomId: string, eventId: string): void {
    this.router.noteEvent(roomId, eventId);
    const open = this.room.getSnapshot();
    if (open?.roomId === roomId) {
      void open.timeline.jumpTo(eventId);
      return;
    }
    this.pendingEventId = eventId;
    this.roomList.select(roomId);
    this.pendingEventId = undefined;
  }

  private openRoom(roomId: string | null): void {
    // The selection is re-announced when the list changes: the open room stays as it is.
    if (roomId !== null && this.room.getSnapshot()?.roomId === roomId && this.pendingEventId === undefined)
      return;
    this.room.getSnapshot()?.dispose();
    // A start from the room list summary loads the rest in chunks: the opened room's full state comes first.
    if (roomId !== null) this.client.rooms.ensureLoaded(roomId);
    const room = roomId === null ? undefined : this.client.rooms.find(roomId);
    const eventId = this.pendingEventId;
    this.room.set(
      room === undefined
        ? null
        : new RoomViewModel({
            client: this.client,
            room,
            media: this.media,
            openRoom: (id) => this.roomList.selectWhenJoined(id),
            ...(eventId !== undefined ? { eventId } : {}),
          }),
    );
  }

  /** Runs `cleanup` when this client ends (view models made beside it, like the calls'). */
  onDispose(cleanup: () => void): void {
    this.scope.add(cleanup);
  }

  /** Stops syncing and ends every subscription (the store is kept). */
  async dispose(): Promise<void> {
    this.scope.end();
    // Closes the store too, so a resumed session (or a logout's delete) is not blocked by this connection.
    await this.client.dispose().catch(() => undefined);
  }

  /** Signs out on the server, ends the client and deletes this account's local data (store and crypto store). */
  async logout(): Promise<void> {
    this.scope.end();
    try {
      await this.client.logout();
    } finally {
      // A failed request must still end the session locally.
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
