/**
 * The sync processing pipeline, the SyncLoop's batch handler. Each batch goes
 * through the phases of GUIDE.md rule 6, persist then emit:
 *   1. parse     validate the untrusted answer into a ParsedSync
 *   2. decrypt   the injectable DecryptHook (a no-op until crypto plugs in)
 *   3. write     fold into the accumulator, stage the snapshot in the Store
 *                and save it (throttled; forced for the first snapshot and
 *                on flush/stop); a failed write throws, so the loop fetches
 *                the batch again
 *   4. emit      hand the typed ProcessedSync to subscribers
 * `restore()` reads the stored snapshot and emits it as a first batch before
 * any network answer (instant start), returning the token to continue from;
 * it rebuilds the accumulator a part at a time (about RESTORE_BUDGET_MS of
 * work per task), so a 3,000-room snapshot never blocks the page in one
 * long task.
 */
import type { Logger } from "../../util/logger";
import type { SyncResponse } from "../../api/types/sync";
import type { JsonObject, Store, StoredUser } from "../../store/Store";
import { SyncAccumulator } from "../accumulator/SyncAccumulator";
import { restoreSteps } from "../accumulator/restore";
import type { RestoreOptions } from "../accumulator/restore";
import { yieldToMain } from "../../util/yield";
import type { YieldFn } from "../../util/yield";
import type { SyncBatchMeta } from "../SyncLoop";
import type { ValidationLimits } from "../validate/limits";
import { parseSyncResponse } from "../validate/parseSync";
import type { ParsedSync } from "../validate/types";
import { withoutKnownEvents } from "./dedupe";
import { noDecrypt } from "./types";
import type { DecryptHook, ProcessedSync, SyncBatchListener } from "./types";

/** A batch could not be persisted; the loop fetches it again. */
export class SyncWriteError extends Error {
  override readonly name = "SyncWriteError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface SyncProcessorOptions {
  store: Store;
  decrypt?: DecryptHook;
  logger?: Logger;
  limits?: ValidationLimits;
  /** Timeline entries kept per room (SPEC §9: 50). */
  maxTimelineEntries?: number;
  /** How the restore gives the main thread back between parts (default: yieldToMain). */
  yieldToMain?: YieldFn;
  /** Clock for the restore's parts (default: performance.now). */
  now?: () => number;
}

/** Aimed duration of one part of the restore, in ms. */
export const RESTORE_BUDGET_MS = 12;

export class SyncProcessor {
  private acc: SyncAccumulator;
  private readonly listeners = new Set<SyncBatchListener>();
  private readonly logger: Logger;
  private readonly decrypt: DecryptHook;
  /** Batches accumulated but not emitted because their write failed; emitted before the next one. */
  private pending: ProcessedSync[] = [];
  /** The next_batch of what the accumulator holds. */
  private token: string | undefined;
  /** Whether a snapshot was ever persisted (or restored) in this store. */
  private persisted = false;

  /** The SyncLoop's batch handler (SyncProcessorLike.handle). */
  readonly handle = (response: SyncResponse, meta: SyncBatchMeta): Promise<void> =>
    this.process(response, meta);

  constructor(private readonly options: SyncProcessorOptions) {
    this.logger = options.logger ?? console;
    this.decrypt = options.decrypt ?? noDecrypt;
    this.acc = this.newAccumulator();
  }

  /** Subscribes to processed batches; returns the unsubscribe function. */
  subscribe(listener: SyncBatchListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The token the accumulated snapshot continues from. */
  get nextBatch(): string | undefined {
    return this.token;
  }

  /** The accumulator (read it, do not fold into it). */
  get accumulator(): SyncAccumulator {
    return this.acc;
  }

  /**
   * Instant start: reads the stored snapshot, emits it as a first batch with
   * fromCache set, and returns its token for the loop's `since`. Returns
   * undefined, after logging, when there is none or it cannot be read.
   */
  async restore(): Promise<string | undefined> {
    if (this.token !== undefined) return this.token;
    let acc: SyncAccumulator;
    let token: string;
    try {
      const stored = await this.options.store.getSync();
      if (!stored) return undefined;
      const accountData = await this.options.store.getAccountData();
      acc = await this.restoreInParts(stored.roomsData, accountData, {
        logger: this.logger,
        ...(this.options.maxTimelineEntries !== undefined
          ? { maxTimelineEntries: this.options.maxTimelineEntries }
          : {}),
      });
      token = stored.nextBatch;
    } catch (error) {
      this.logger.warn("Sync: discarding the stored sync snapshot", error);
      return undefined;
    }
    this.acc = acc;
    this.token = token;
    this.persisted = true;
    const batch = acc.toBatch(token);
    let shown: ParsedSync = batch;
    try {
      shown = await this.decrypt(batch);
    } catch (error) {
      // The snapshot is still worth showing; undecrypted events stay as they are.
      this.logger.warn("Sync: decrypting the stored snapshot failed", error);
    }
    await this.emit({ ...shown, fromCache: true, catchingUp: false });
    return token;
  }

  /** Rebuilds the accumulator, yielding to the main thread whenever a part took its budget. */
  private async restoreInParts(
    roomsData: unknown,
    accountData: readonly unknown[],
    options: RestoreOptions,
  ): Promise<SyncAccumulator> {
    const now = this.options.now ?? (() => performance.now());
    const yieldFn = this.options.yieldToMain ?? yieldToMain;
    const steps = restoreSteps(roomsData, accountData, options);
    let start = now();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
      if (now() - start < RESTORE_BUDGET_MS) continue;
      await yieldFn();
      start = now();
    }
  }

  /** Runs one sync answer through the phases. Throws when the batch must be fetched again. */
  async process(response: unknown, meta: Partial<SyncBatchMeta> = {}): Promise<void> {
    const parsed = parseSyncResponse(response, {
      logger: this.logger,
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
    const fresh = withoutKnownEvents(parsed, this.acc);
    const decrypted = await this.decrypt(fresh);

    this.acc.accumulate(parsed, meta.since);
    this.token = parsed.nextBatch;
    this.stageUsers(parsed);
    const batch: ProcessedSync = {
      ...decrypted,
      fromCache: false,
      catchingUp: meta.catchingUp ?? false,
      ...(meta.since !== undefined ? { since: meta.since } : {}),
    };
    try {
      // The first snapshot is saved at once, so the next start is instant.
      await this.write(!this.persisted);
    } catch (error) {
      this.pending.push(batch);
      throw new SyncWriteError("Failed to persist sync batch", { cause: error });
    }
    // A refetch that ends at the same token is the failed batch again: its
    // events are already in the pending copy (and deduplicated out of this
    // one), so the batch is emitted once, as first processed.
    const replay = this.pending.some((p) => p.nextBatch === batch.nextBatch);
    const ready = replay ? this.pending : [...this.pending, batch];
    this.pending = [];
    for (const b of ready) await this.emit(b);
  }

  /** Forces a save of the current snapshot (page hide). */
  async flush(): Promise<void> {
    if (this.token === undefined) return;
    await this.write(true);
  }

  /** Saves what is accumulated; call after stopping the loop. */
  async stop(): Promise<void> {
    await this.flush();
  }

  /**
   * Stages the snapshot and saves it. Staging serialises every room, so it
   * happens only when a save will really write (forced, or the throttle
   * allows it), not on every batch.
   */
  private async write(force: boolean): Promise<void> {
    const store = this.options.store;
    if (this.token === undefined || (!force && !store.wantsSave())) return;
    store.setSync({ nextBatch: this.token, roomsData: { ...this.acc.serialise() } });
    store.setAccountData(this.acc.accountData() as unknown as JsonObject[]);
    await store.save(force);
    this.persisted = true;
  }

  /** The latest presence of each sender, for the Store's users (persisted with the next save). */
  private stageUsers(batch: ParsedSync): void {
    if (batch.presence.length === 0) return;
    const users = new Map<string, StoredUser>();
    for (const event of batch.presence)
      users.set(event.sender, { userId: event.sender, presence: { ...event } });
    this.options.store.setUsers([...users.values()]);
  }

  private async emit(batch: ProcessedSync): Promise<void> {
    for (const listener of [...this.listeners]) {
      try {
        await listener(batch);
      } catch (error) {
        // The batch is persisted: a faulty subscriber must not make the loop fetch it again.
        this.logger.error("Sync: subscriber failed", error);
      }
    }
  }

  private newAccumulator(): SyncAccumulator {
    return new SyncAccumulator(
      this.options.maxTimelineEntries !== undefined
        ? { maxTimelineEntries: this.options.maxTimelineEntries }
        : {},
    );
  }
}
