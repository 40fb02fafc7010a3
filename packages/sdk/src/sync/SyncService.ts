/**
 * The sync service: a small facade that wires the store, the sync processor
 * (persist, then emit), the SyncLoop, its HTTP transport, the filter and the
 * capabilities, and owns the client's running state.
 *
 * start(): opens the store, compares the stored client options with this
 * run's (a mismatch discards the incompatible cache), restores the stored
 * snapshot through the processor (rooms appear before the network answers)
 * and starts the loop from the stored token. Start hooks run first: the
 * room list summary is read before the snapshot, so the list shows before
 * the full store is read (models/room-list/summary-cache.ts). Guests skip the cache (SPEC
 * §6): they run on a MemoryStore and restore nothing. stop() forces a save.
 * Browser online/offline and visibility reach the loop through a platform
 * adapter; page hide forces a save. The loop speaks sync v2 or simplified
 * sliding sync (MSC4186), chosen by sliding/SelectingSyncTransport.
 */
import type { Logger } from "../util/logger";
import type { Capabilities } from "../api/types/server";
import type { ClientEvent } from "../api/types/events";
import type { LeftRoom, SetPresence } from "../api/types/sync";
import type { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { FallbackStore } from "../store/FallbackStore";
import { MemoryStore } from "../store/MemoryStore";
import type { JsonObject, Store } from "../store/Store";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import { CapabilitiesService } from "./capabilities";
import { clientOptionsFilterIdStore, reconcileClientOptions } from "./client-options";
import type { CacheOptions } from "./client-options";
import { ClientNotRunningError, StoreInUseError } from "./errors";
import type { SyncFailure } from "./errors";
import { buildSyncFilter, DEFAULT_INITIAL_SYNC_LIMIT, SyncFilterManager } from "./filters";
import { LeftRoomsLoader } from "./left-rooms";
import { MemberLoader } from "./members";
import type { OobMemberState } from "./members";
import { startPeeking } from "./peeking";
import { SyncProcessor } from "./processor/SyncProcessor";
import type { PeekSession } from "./peeking";
import { nullPlatform } from "./platform";
import type { PlatformAdapter } from "./platform";
import { realScheduler } from "../util/scheduler";
import { ServerInfo } from "./server-info";
import type { ServerFeatures } from "./server-features";
import type { Scheduler } from "../util/scheduler";
import { SyncLoop } from "./SyncLoop";
import type { SyncBatchHandler, SyncState } from "./SyncLoop";
import { HttpSyncTransport, withoutRetries } from "./transport";
import type { StateAfterMode } from "./transport";
import { SelectingSyncTransport } from "./sliding/SelectingSyncTransport";
import type { ActiveSyncMode, SyncMode } from "./sliding/SelectingSyncTransport";
import { LazySyncTransport } from "./sliding/LazySyncTransport";
import { v2Since } from "./sliding/token";

/** What the service needs of the sync processor (sync/processor). */
export interface SyncProcessorLike {
  /** Emits the stored snapshot to the model layer; returns the token to continue from. */
  restore(): Promise<string | undefined>;
  /** Processes one sync response: persist, then emit. */
  handle: SyncBatchHandler;
  /**
   * Stages the current snapshot and saves it at once (stop, page hide). A
   * processor that stages on every batch may leave it out; the store is
   * force-saved either way.
   */
  flush?(): Promise<void>;
}

/** Work around the restore and forced saves (the room list summary cache). */
export interface StartHooks {
  /**
   * Runs once the store is open, before the client-options check (not for
   * guests): reads may start early, beside the check's.
   */
  afterOpen?: () => void;
  /**
   * Runs before the stored snapshot is restored (not for guests);
   * `discarded` tells that the check found the cache of other options and
   * deleted it (what was read before is stale).
   */
  beforeRestore?: (discarded: boolean) => Promise<unknown>;
  /** Runs before a forced save (stop, page hide), to stage what it keeps. */
  beforeSave?: () => void;
}

export interface SyncServiceOptions {
  http: HttpApi;
  /** The persistent store; guests get a MemoryStore instead. */
  store: Store;
  userId: string;
  guest?: boolean;
  /**
   * The processor, or a factory given the store actually used (guests: the
   * MemoryStore). Defaults to a SyncProcessor over that store; pass a factory
   * to keep a reference (the model layer subscribes to it).
   */
  processor?: SyncProcessorLike | ((store: Store) => SyncProcessorLike);
  /** Timeline events per room in the initial sync; defaults to 30 (SPEC §9). */
  initialSyncLimit?: number;
  /** Lazy-load members; defaults to true, always false for guests. */
  lazyLoadMembers?: boolean;
  pollTimeoutMs?: number;
  requestMarginMs?: number;
  setPresence?: SetPresence | (() => SetPresence | undefined);
  stateAfter?: StateAfterMode;
  /** Sync v2, simplified sliding sync, or "auto" (the default): sliding when /versions advertises it. */
  syncMode?: SyncMode;
  capabilitiesRefreshMs?: number;
  scheduler?: Scheduler;
  logger?: Logger;
  platform?: PlatformAdapter;
  /** Sync stopped on M_UNKNOWN_TOKEN; the auth layer decides what a soft logout means. */
  onUnknownToken?: (softLogout: boolean, error: MatrixError) => void;
}

export class SyncService {
  /** The store this service uses (a MemoryStore for guests). */
  readonly store: Store;
  readonly guest: boolean;
  readonly members: MemberLoader;
  /** The processing pipeline the loop hands batches to. */
  readonly processor: SyncProcessorLike;
  private readonly cacheOptions: CacheOptions;
  private readonly filters: SyncFilterManager;
  private readonly transport: SelectingSyncTransport;
  private readonly capabilitiesService: CapabilitiesService;
  /** The cached versions document and the server's features (see server-features.ts). */
  readonly serverInfo: ServerInfo;
  private readonly leftRooms: LeftRoomsLoader;
  private readonly logger: Logger;
  private readonly stateValue = new ObservableValue<SyncState | null>(null);
  private readonly lastSyncValue = new ObservableValue<number | null>(null);
  private readonly failureValue = new ObservableValue<SyncFailure | null>(null);
  /** The loop's last failure, and the store's (sync continues in memory): `failure` is the first set. */
  private loopFailure: SyncFailure | null = null;
  private storeFailure: SyncFailure | null = null;
  private readonly runningValue = new ObservableValue<boolean>(false);
  private loop: SyncLoop | undefined;
  private starting: Promise<void> | undefined;
  private opened = false;
  private teardown: Array<() => void> = [];
  private peek: { controller: AbortController; session?: PeekSession } | undefined;
  private hooks: StartHooks = {};

  constructor(private readonly options: SyncServiceOptions) {
    this.guest = options.guest ?? false;
    this.logger = options.logger ?? console;
    this.store = this.guest ? new MemoryStore() : degradable(options.store, this.logger);
    if (this.store instanceof FallbackStore) {
      // Storage failed: sync goes on in memory, and the failure says so (kind store).
      this.store.failure.subscribe((error) => {
        this.storeFailure =
          error === null ? null : { kind: "store", message: error.message, permanent: false, error };
        this.failureValue.set(this.loopFailure ?? this.storeFailure);
      });
    }
    const processor =
      options.processor ?? ((store: Store) => new SyncProcessor({ store, logger: this.logger }));
    this.processor = typeof processor === "function" ? processor(this.store) : processor;
    const lazyLoadMembers = !this.guest && (options.lazyLoadMembers ?? true);
    const initialSyncLimit = options.initialSyncLimit ?? DEFAULT_INITIAL_SYNC_LIMIT;
    const filter = buildSyncFilter({ guest: this.guest, lazyLoadMembers, initialSyncLimit });
    this.cacheOptions = {
      userId: options.userId,
      guest: this.guest,
      lazyLoadMembers,
      initialSyncLimit,
      filter: JSON.stringify(filter),
    };
    const scheduler = options.scheduler ?? realScheduler;
    this.capabilitiesService = new CapabilitiesService({
      http: options.http,
      scheduler,
      logger: this.logger,
      ...(options.capabilitiesRefreshMs !== undefined ? { refreshMs: options.capabilitiesRefreshMs } : {}),
    });
    // The loop owns retries of everything on its path, so these requests are sent once.
    const once = withoutRetries(options.http);
    this.serverInfo = new ServerInfo({
      http: once,
      capabilities: this.capabilitiesService,
      logger: this.logger,
    });
    const versions = (signal: AbortSignal): Promise<unknown> => this.serverInfo.versions(signal);
    this.filters = new SyncFilterManager({
      http: once,
      userId: options.userId,
      filter,
      // Only fields the server knows: a v1.2 server refuses the whole filter over one it does not.
      resolveFilter: async () =>
        this.guest
          ? filter
          : buildSyncFilter({
              lazyLoadMembers,
              initialSyncLimit,
              unreadThreadNotifications: (await this.serverInfo.serverFeatures()).unreadThreadNotifications,
            }),
      ids: clientOptionsFilterIdStore(this.store, this.cacheOptions),
      logger: this.logger,
    });
    this.transport = new SelectingSyncTransport({
      http: options.http,
      versions,
      ...(options.syncMode !== undefined ? { mode: options.syncMode } : {}),
      v2: new HttpSyncTransport({
        http: options.http,
        filters: this.filters,
        ...(options.setPresence !== undefined ? { setPresence: options.setPresence } : {}),
        ...(options.stateAfter !== undefined ? { stateAfter: options.stateAfter } : {}),
        versions,
        now: () => scheduler.now(),
        logger: this.logger,
      }),
      // Loaded when chosen: sliding sync's code stays off the first screen.
      sliding: new LazySyncTransport(async () => {
        const { SlidingSyncTransport } = await import("./sliding/SlidingSyncTransport");
        return new SlidingSyncTransport({
          http: options.http,
          userId: options.userId,
          timelineLimit: initialSyncLimit,
          lazyLoadMembers,
          logger: this.logger,
        });
      }),
      logger: this.logger,
    });
    this.members = new MemberLoader({ http: options.http, store: this.store });
    this.leftRooms = new LeftRoomsLoader({
      http: options.http,
      userId: options.userId,
      now: () => scheduler.now(),
    });
  }

  /** The sync state (null before the first sync of the first run answers). */
  get state(): ReadonlyObservable<SyncState | null> {
    return this.stateValue;
  }

  /** When the last sync succeeded, so the UI can say the data is stale. */
  get lastSyncAt(): ReadonlyObservable<number | null> {
    return this.lastSyncValue;
  }

  /**
   * The last sync failure (network, server, rate_limited or refused, with the
   * server's errcode and message), null once a sync succeeds. A refusal
   * marked `permanent` has stopped the loop: retry() starts it again. After
   * a storage failure it stays `store` (sync continues in memory) whenever
   * the loop itself has no failure to report.
   */
  get failure(): ReadonlyObservable<SyncFailure | null> {
    return this.failureValue;
  }

  /** Starts the loop again after it gave up on a refusal; does nothing otherwise. */
  retry(): void {
    const loop = this.loop;
    if (!this.isRunning || loop === undefined || loop.isRunning) return;
    loop.start();
  }

  /** The server's capabilities, refreshed while running; the last good value survives failures. */
  get capabilities(): ReadonlyObservable<Capabilities | null> {
    return this.capabilitiesService.value;
  }

  /** The server's optional features; null until the versions document arrived. */
  get features(): ReadonlyObservable<ServerFeatures | null> {
    return this.serverInfo.features;
  }

  /** The sync protocol in use; null until "auto" mode has read /versions. */
  get syncMode(): ReadonlyObservable<ActiveSyncMode | null> {
    return this.transport.activeMode;
  }

  /** Whether the client runs (start() finished and stop() not called). */
  get running(): ReadonlyObservable<boolean> {
    return this.runningValue;
  }

  get isRunning(): boolean {
    return this.runningValue.getSnapshot();
  }

  /** Restores from the store, then starts syncing. Resolves once restored and the loop runs. */
  start(): Promise<void> {
    if (this.isRunning) return Promise.resolve();
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Sets the start hooks (replacing any set before). */
  setStartHooks(hooks: StartHooks): void {
    this.hooks = hooks;
  }

  /** Stops syncing, capabilities and peeking, and forces a save. */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    if (!this.isRunning) return;
    this.runningValue.set(false);
    this.stopPeeking();
    this.capabilitiesService.stop();
    const loop = this.loop;
    await loop?.stop();
    this.endSubscriptions();
    await this.forceSave();
  }

  /** Deletes everything the store holds; only while stopped. */
  async deleteAllData(): Promise<void> {
    if (this.isRunning || this.starting) throw new StoreInUseError();
    await this.store.deleteAllData();
    this.members.reset();
  }

  /** Persists the snapshot and all staged data now (stop, page hide). */
  async forceSave(): Promise<void> {
    try {
      this.hooks.beforeSave?.();
    } catch (error) {
      this.logger.error("Staging before the save failed", error);
    }
    if (this.processor.flush) await this.processor.flush();
    await this.store.save(true);
  }

  /** Loads a room's members out of band (at the given token, or the current sync token). */
  async loadMembers(roomId: string, at?: string): Promise<JsonObject[]> {
    this.requireRunning();
    // A sliding sync position is no /members `at` token: then the current members are loaded.
    const token = at ?? v2Since(this.loop?.nextSince);
    return await this.members.load(roomId, token);
  }

  /** A room's out-of-band member loading state. */
  memberState(roomId: string): ReadonlyObservable<OobMemberState> {
    return this.members.state(roomId);
  }

  /** The rooms the user has left (one sync with the left-rooms filter and timeout 0). */
  async loadLeftRooms(): Promise<Map<string, LeftRoom>> {
    this.requireRunning();
    return await this.leftRooms.load();
  }

  /** Fetches the capabilities now; resolves with the current value. */
  async refreshCapabilities(): Promise<Capabilities | null> {
    this.requireRunning();
    return await this.capabilitiesService.refresh();
  }

  /**
   * Peeks into a room: one peek at a time, a new one stops the previous.
   * stopPeeking() (or stop()) rejects the pending call with 'Peeking aborted'.
   */
  async peekRoom(roomId: string, onEvents: (events: ClientEvent[]) => void): Promise<PeekSession> {
    this.requireRunning();
    this.stopPeeking();
    const peek: { controller: AbortController; session?: PeekSession } = {
      controller: new AbortController(),
    };
    this.peek = peek;
    const session = await startPeeking(
      {
        http: this.options.http,
        roomId,
        onEvents,
        ...(this.options.scheduler ? { scheduler: this.options.scheduler } : {}),
        logger: this.logger,
      },
      peek.controller.signal,
    );
    if (peek.controller.signal.aborted) session.stop();
    else peek.session = session;
    return session;
  }

  /** Stops the current peek, if any. */
  stopPeeking(): void {
    const peek = this.peek;
    this.peek = undefined;
    peek?.controller.abort(new Error("Peeking stopped"));
    peek?.session?.stop();
  }

  /** Throws 'Client is not running' unless started. */
  requireRunning(): void {
    if (!this.isRunning) throw new ClientNotRunningError();
  }

  private async doStart(): Promise<void> {
    if (!this.opened) {
      await this.store.open();
      this.opened = true;
    }
    if (!this.guest) this.hooks.afterOpen?.();
    const discarded = await reconcileClientOptions(this.store, this.cacheOptions, {
      logger: this.logger,
      onDiscard: () => this.members.reset(),
    });
    if (!this.guest) {
      await this.hooks.beforeRestore?.(discarded).catch((error: unknown) => {
        this.logger.warn("Sync: the start hook failed; restoring without it", error);
      });
    }
    const since = this.guest ? undefined : await this.processor.restore();
    const loop = new SyncLoop({
      transport: this.transport,
      handler: (response, meta) => this.processor.handle(response, meta),
      ...(since !== undefined ? { since } : {}),
      ...(this.options.pollTimeoutMs !== undefined ? { pollTimeoutMs: this.options.pollTimeoutMs } : {}),
      ...(this.options.requestMarginMs !== undefined
        ? { requestMarginMs: this.options.requestMarginMs }
        : {}),
      ...(this.options.scheduler ? { scheduler: this.options.scheduler } : {}),
      logger: this.logger,
      onUnknownToken: (softLogout, error) => this.onUnknownToken(softLogout, error),
    });
    this.loop = loop;
    this.teardown.push(
      loop.state.subscribe((state) => this.stateValue.set(state)),
      loop.lastSyncAt.subscribe((at) => this.lastSyncValue.set(at)),
      loop.failure.subscribe((failure) => {
        this.loopFailure = failure;
        this.failureValue.set(failure ?? this.storeFailure);
      }),
      (this.options.platform ?? nullPlatform).subscribe({
        online: (online) => loop.setOnline(online),
        visible: (visible) => {
          loop.setVisible(visible);
          // A hidden page may be discarded without a pagehide: save while we can.
          if (!visible) this.saveInBackground();
        },
        pageHide: () => this.saveInBackground(),
      }),
    );
    // A new run has no answer yet (not "stopped" from the previous one).
    this.stateValue.set(null);
    this.loopFailure = null;
    this.failureValue.set(this.storeFailure);
    this.runningValue.set(true);
    loop.start();
    this.capabilitiesService.start();
  }

  private onUnknownToken(softLogout: boolean, error: MatrixError): void {
    // The loop has stopped itself (state error): end the run without overwriting that state.
    this.runningValue.set(false);
    this.stopPeeking();
    this.capabilitiesService.stop();
    this.endSubscriptions();
    this.saveInBackground();
    this.options.onUnknownToken?.(softLogout, error);
  }

  private endSubscriptions(): void {
    for (const end of this.teardown.splice(0)) end();
  }

  private saveInBackground(): void {
    this.forceSave().catch((error: unknown) => this.logger.error("Saving the store failed", error));
  }
}

/**
 * A persistent store behind the degrading wrapper, so a storage failure (a
 * full disk, a browser that drops IndexedDB) never drops sync data: the
 * wrapper continues in memory. Memory stores and wrapped ones are kept as given.
 */
function degradable(store: Store, logger: Pick<Logger, "warn">): Store {
  if (store instanceof FallbackStore || store.kind === "memory") return store;
  return new FallbackStore(store, { warn: (message, error) => logger.warn(message, error) });
}
