/**
 * The persistent to-device queue: batches (key shares, call signalling) are
 * written to the store's to_device_queue with their txn id before the first
 * PUT /sendToDevice, and leave it only once the server accepted them, so a
 * reload sends what was left exactly once (the server de-duplicates by txn
 * id). One worker sends the oldest batch first; transient failures are
 * retried with bounded backoff (forever, at the capped delay: a lost room
 * key is worse than a late one), sends are held while the sync says the
 * connection is down, and a batch the server refuses is dropped and
 * reported so it cannot block the queue.
 */
import { sendToDevice } from "../api/to-device";
import type { ToDeviceMessages } from "../api/types/to-device";
import { createTxnIdGenerator } from "../http/txn";
import type { TxnIdGenerator } from "../http/txn";
import type { RetryPolicy } from "../http/retry";
import type { HttpApi } from "../http/types";
import type { Store, ToDeviceBatch } from "../store/Store";
import { realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";
import type { SyncState } from "../sync/SyncLoop";
import { withoutRetries } from "../sync/transport";
import type { ReadonlyObservable } from "../util/observable";
import { isConnectionDown } from "./connection";
import { classifyFailure, DEFAULT_SEND_RETRY_POLICY, isTransient, sendRetryDelay } from "./failure";
import type { SendFailure } from "./failure";

export interface ToDeviceQueueOptions {
  http: HttpApi;
  store: Store;
  scheduler?: Scheduler;
  txnIds?: TxnIdGenerator;
  /** The sync state: sends are held while it is reconnecting or error. */
  connection?: ReadonlyObservable<SyncState | null>;
  retry?: Partial<RetryPolicy>;
  /** A batch the server refused (it is dropped). */
  onFailure?: (batch: ToDeviceBatch, failure: SendFailure) => void;
  logger?: { warn(message: string, error?: unknown): void };
}

/** The wire form of a batch's messages; ids like __proto__ stay data. */
export function toWireMessages(messages: ToDeviceBatch["messages"]): ToDeviceMessages {
  const out = Object.create(null) as ToDeviceMessages;
  for (const { userId, deviceId, payload } of messages) {
    const devices = out[userId] ?? (Object.create(null) as Record<string, Record<string, unknown>>);
    devices[deviceId] = payload;
    out[userId] = devices;
  }
  return out;
}

export class ToDeviceQueue {
  private readonly http: HttpApi;
  private readonly scheduler: Scheduler;
  private readonly txnIds: TxnIdGenerator;
  private readonly policy: RetryPolicy;
  private readonly teardown: Array<() => void> = [];
  private wakeController = new AbortController();
  private running: Promise<void> | undefined;
  private started = false;
  private disposed = false;
  private online = true;
  private again = false;

  constructor(private readonly options: ToDeviceQueueOptions) {
    this.http = withoutRetries(options.http);
    this.scheduler = options.scheduler ?? realScheduler;
    this.txnIds = options.txnIds ?? createTxnIdGenerator(() => this.scheduler.now());
    this.policy = { ...DEFAULT_SEND_RETRY_POLICY, ...options.retry };
    const connection = options.connection;
    if (connection) {
      this.online = !isConnectionDown(connection.getSnapshot());
      this.teardown.push(
        connection.subscribe((state) => {
          const was = this.online;
          this.online = !isConnectionDown(state);
          if (!was && this.online) this.wake();
        }),
      );
    }
  }

  /** Starts sending, beginning with what an earlier run left in the store. */
  start(): void {
    this.started = true;
    this.kick();
  }

  /** Stops the worker; what is not sent stays in the store for the next run. */
  dispose(): void {
    this.disposed = true;
    for (const stop of this.teardown.splice(0)) stop();
    this.wake();
  }

  /** Persists a batch with a fresh txn id, then sends it in turn; resolves once it is stored. */
  async queue(eventType: string, messages: ToDeviceBatch["messages"]): Promise<ToDeviceBatch> {
    const [stored] = await this.options.store.queueToDevice([{ txnId: this.txnIds(), eventType, messages }]);
    this.kick();
    return stored as ToDeviceBatch;
  }

  /** Resolves when the worker stops: nothing left to send, or disposed (not while it is held offline). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (!this.started || this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private wake(): void {
    const controller = this.wakeController;
    this.wakeController = new AbortController();
    controller.abort(new Error("woken"));
  }

  private untilWoken(): Promise<void> {
    const signal = this.wakeController.signal;
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }

  private async run(): Promise<void> {
    let attempts = 0;
    try {
      for (;;) {
        this.again = false;
        if (this.disposed) return;
        const batch = await this.options.store.nextToDevice();
        if (!batch || batch.id === undefined || this.disposed) return;
        if (!this.online) {
          await this.untilWoken();
          continue;
        }
        try {
          await sendToDevice(this.http, batch.eventType, batch.txnId, toWireMessages(batch.messages));
          if (this.disposed) return;
          await this.options.store.removeToDevice(batch.id);
          attempts = 0;
        } catch (error) {
          if (this.disposed) return;
          if (isTransient(error)) {
            if (!this.online) continue;
            attempts = Math.min(attempts + 1, this.policy.maxAttempts - 1);
            const delay = sendRetryDelay(error, attempts, this.policy, () => this.scheduler.random());
            await this.scheduler
              .sleep(delay ?? this.policy.maxDelayMs, this.wakeController.signal)
              .catch(() => undefined);
            continue;
          }
          const failure = classifyFailure(error);
          this.options.logger?.warn(`To-device batch ${batch.txnId} refused: ${failure.message}`, error);
          await this.options.store.removeToDevice(batch.id);
          this.options.onFailure?.(batch, failure);
        }
      }
    } catch (error) {
      this.options.logger?.warn("To-device queue: worker failed", error);
    }
  }
}
