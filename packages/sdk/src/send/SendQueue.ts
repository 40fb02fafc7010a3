/**
 * The send queue: every event this client sends goes through it. A send
 * shows a local echo at once (status queued, a fresh txn id), is persisted,
 * and is sent in order with the other events of its room: an event behind
 * one that failed waits ('Event blocked by other events not yet sent') until
 * that one is resent or cancelled. Transient failures are retried with
 * bounded backoff, and sends are held while the sync says the connection is
 * down; other failures leave the event not_sent with a readable reason. The
 * remote echo (our txn id in unsigned.transaction_id, or the event id the PUT
 * returned) removes the local echo. Redactions and reactions take the same
 * road; redacting a local echo that has not left yet just cancels it.
 *
 * One worker per room walks that room's entries; the statuses follow
 * models/event-status, whose table refuses any other move.
 */
import { redactEvent, sendEvent } from "../api/send";
import { cloneJson } from "../store/MemoryStore";
import { createTxnIdGenerator } from "../http/txn";
import type { TxnIdGenerator } from "../http/txn";
import type { RetryPolicy } from "../http/retry";
import type { HttpApi } from "../http/types";
import { cancel as cancelStatus } from "../models/event-status";
import type { EventStatus } from "../models/event-status";
import { unknownRoom } from "../models/errors";
import type { JsonObject, Store, StoredPendingEvent } from "../store/Store";
import type { SyncBatchListener, ProcessedSync } from "../sync/processor/types";
import { realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";
import type { SyncState } from "../sync/SyncLoop";
import { withoutRetries } from "../sync/transport";
import type { ReadonlyObservableList } from "../util/observable-list";
import { isConnectionDown } from "./connection";
import { SendQueueError } from "./errors";
import {
  BLOCKED_MESSAGE,
  classifyFailure,
  DEFAULT_SEND_RETRY_POLICY,
  failureOf,
  isTransient,
  sendRetryDelay,
} from "./failure";
import type { SendFailure, SendFailureKind } from "./failure";
import { echoCandidates, roomsTurningOnEncryption } from "./remote-echo";
import { PendingEntries } from "./PendingEntries";
import type { Entry, RoomQueue } from "./room-queue";
import type { EncryptFn, PendingEvent, RemoteEcho, SendOptions, SendQueueOptions } from "./types";

/** How many unmatched echoes of our own events are remembered. */
const ECHOES_KEPT = 500;

export class SendQueue {
  private readonly http: HttpApi;
  private readonly store: Store;
  private readonly scheduler: Scheduler;
  private readonly txnIds: TxnIdGenerator;
  private readonly encrypt: EncryptFn | undefined;
  private readonly policy: RetryPolicy;
  private readonly pending: PendingEntries;
  private readonly encryptedRooms = new Set<string>();
  /** Echoes of our txn ids that matched nothing pending (bounded), by txn id. */
  private readonly echoed = new Map<string, string>();
  private readonly echoListeners = new Set<(echo: RemoteEcho) => void>();
  private readonly teardown: Array<() => void> = [];
  private readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private started = false;
  private disposed = false;
  private online = true;
  private nextSeq = 0;

  constructor(private readonly options: SendQueueOptions) {
    // Retries are the queue's: one PUT per attempt, so statuses and backoff stay visible.
    this.http = withoutRetries(options.http);
    this.store = options.store;
    this.scheduler = options.scheduler ?? realScheduler;
    this.txnIds = options.txnIds ?? createTxnIdGenerator(() => this.scheduler.now());
    this.encrypt = options.encrypt;
    this.policy = { ...DEFAULT_SEND_RETRY_POLICY, ...options.retry };
    this.pending = new PendingEntries(
      this.store,
      (room) => {
        room.wake();
        this.pump(room.roomId);
      },
      options.logger,
    );
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    const connection = options.connection;
    if (connection) {
      this.online = !isConnectionDown(connection.getSnapshot());
      this.teardown.push(connection.subscribe((state) => this.onConnection(state)));
    }
  }

  /**
   * Restores the pending events of an earlier run from the store (they keep
   * their txn ids, so a resend is idempotent) and starts sending. Sends made
   * before start() wait behind the restored events.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      for (const record of await this.store.getPendingEvents()) this.restore(record);
    } finally {
      this.markReady();
    }
    for (const roomId of this.pending.rooms.keys()) this.pump(roomId);
  }

  /** Stops the workers; in-flight answers are ignored, persisted events stay for the next run. */
  dispose(): void {
    this.disposed = true;
    for (const stop of this.teardown.splice(0)) stop();
    for (const room of this.pending.rooms.values()) room.wake();
    this.markReady();
  }

  /** The local echoes of a room, in send order, as a list with diffs. */
  room(roomId: string): ReadonlyObservableList<PendingEvent> {
    return this.pending.roomQueue(roomId).list;
  }

  /** The pending event with this txn id, if it is still pending. */
  get(txnId: string): PendingEvent | undefined {
    return this.pending.byTxn.get(txnId)?.snapshot;
  }

  /**
   * Queues a room event; returns its local echo at once. With `hidden` (call
   * signalling: media keys, rings, declines) the event is sent in order and
   * encrypted like any other, but it is not listed in `room()` (no local
   * echo the user sees) and not persisted (a reload must not send it late).
   * With `txnId` the caller names the transaction (its own journal resends
   * it after a reload, and the server de-duplicates it).
   */
  send(roomId: string, type: string, content: JsonObject, options: SendOptions = {}): PendingEvent {
    return this.enqueue(
      roomId,
      "event",
      type,
      cloneJson(content),
      undefined,
      undefined,
      options.hidden,
      options.txnId,
    ).snapshot;
  }

  /**
   * Queues a room event whose m.relates_to points at `targetId`: an event
   * id, or the txn id of a local echo, whose event id is filled in once it
   * is sent (an edit of a message still on its way). Cancelling that echo
   * cancels this event too, as for reactions.
   */
  sendRelated(roomId: string, type: string, content: JsonObject, targetId: string): PendingEvent {
    const target = this.pending.resolve(targetId);
    const relates = content["m.relates_to"];
    const relation =
      relates !== null && typeof relates === "object" && !Array.isArray(relates) ? relates : {};
    const body = {
      ...cloneJson(content),
      "m.relates_to": { ...relation, event_id: target.eventId ?? targetId },
    };
    const dependsOn = target.eventId === undefined ? target.txnId : undefined;
    return this.enqueue(roomId, "event", type, body, dependsOn).snapshot;
  }

  /** Queues an m.annotation reaction to an event id, or to a local echo's txn id. */
  react(roomId: string, targetId: string, key: string): PendingEvent {
    const target = this.pending.resolve(targetId);
    const relates = { rel_type: "m.annotation", event_id: target.eventId ?? targetId, key };
    return this.enqueue(roomId, "event", "m.reaction", { "m.relates_to": relates }, target.txnId).snapshot;
  }

  /**
   * Redacts an event (by id, or by a local echo's txn id). A local echo that
   * has not left yet (queued, not_sent, encrypting) is cancelled instead and
   * null returned; one being sent is redacted once its id is known.
   */
  redact(roomId: string, targetId: string, reason?: string): PendingEvent | null {
    const target = this.pending.resolve(targetId);
    const entry = target.txnId !== undefined ? this.pending.byTxn.get(target.txnId) : undefined;
    if (entry && target.eventId === undefined && entry.snapshot.status !== "sending") {
      this.cancel(target.txnId as string);
      return null;
    }
    const body = reason !== undefined ? { reason } : {};
    const queued = this.enqueue(roomId, "redaction", "m.room.redaction", body, target.txnId, target.eventId);
    return queued.snapshot;
  }

  /** Cancels a queued, not_sent or encrypting event ('Events in other states cannot be cancelled'). */
  cancel(txnId: string): void {
    const entry = this.pending.entry(txnId);
    cancelStatus(entry.snapshot.status);
    const room = this.pending.roomQueue(entry.record.roomId);
    this.pending.setStatus(entry, "cancelled");
    this.pending.drop(room, entry);
    // What pointed at it (a reaction, a redaction) has nothing left to point at.
    for (const dependent of room.entries.filter((e) => e.record.dependsOnTxnId === txnId)) {
      if (dependent.snapshot.status !== "sending") this.cancel(dependent.record.txnId);
    }
    this.pending.unblock(room);
  }

  /** Sends a not_sent event again; refused while an earlier event of its room is still unsent. */
  resend(txnId: string): void {
    const entry = this.pending.entry(txnId);
    if (entry.snapshot.status !== "not_sent") {
      throw new SendQueueError("NOT_FAILED", "Only events that failed to send can be resent");
    }
    const room = this.pending.roomQueue(entry.record.roomId);
    const earlier = room.entries.slice(0, room.entries.indexOf(entry));
    if (earlier.some((e) => e.snapshot.status === "not_sent"))
      throw new SendQueueError("BLOCKED", BLOCKED_MESSAGE);
    entry.attempts = 0;
    this.pending.setStatus(entry, "queued");
    this.pending.unblock(room);
  }

  /** Resolves at the event's next settled status: sent, not_sent, cancelled, or null (remote echo). */
  whenSettled(txnId: string): Promise<PendingEvent | undefined> {
    return this.pending.whenSettled(txnId);
  }

  /** Calls `listener` whenever a remote echo replaces a local echo; returns the unsubscribe. */
  onRemoteEcho(listener: (echo: RemoteEcho) => void): () => void {
    this.echoListeners.add(listener);
    return () => this.echoListeners.delete(listener);
  }

  /** Subscribes to a sync processor's batches (remote echo, encryption); ended by dispose(). */
  attach(processor: { subscribe(listener: SyncBatchListener): () => void }): void {
    this.teardown.push(processor.subscribe((batch) => this.handleSync(batch)));
  }

  /** Reads one processed batch: rooms that turned on encryption, and remote echoes of our events. */
  handleSync(batch: ProcessedSync): void {
    for (const roomId of roomsTurningOnEncryption(batch)) this.encryptedRooms.add(roomId);
    for (const candidate of echoCandidates(batch)) {
      const room = this.pending.rooms.get(candidate.roomId);
      const entry = room?.entries.find(
        (e) =>
          (candidate.txnId !== undefined && e.record.txnId === candidate.txnId) ||
          e.snapshot.eventId === candidate.eventId,
      );
      if (room && entry) {
        this.applyEcho(room, entry, candidate.eventId);
      } else if (candidate.txnId !== undefined) {
        // Ours (only the sending device sees the txn id) but not pending here: maybe an event a
        // reload is about to resend, whose echo came first. Remembered so it is not shown twice.
        this.echoed.set(candidate.txnId, candidate.eventId);
        if (this.echoed.size > ECHOES_KEPT) this.echoed.delete(this.echoed.keys().next().value as string);
      }
    }
  }

  /** The server's copy arrived: the local echo goes, its status cleared (null). */
  private applyEcho(room: RoomQueue, entry: Entry, eventId: string): void {
    this.echoed.delete(entry.record.txnId);
    this.pending.recordSent(entry, eventId);
    entry.snapshot = Object.freeze({ ...entry.snapshot, status: null, eventId });
    this.pending.notify(entry);
    this.pending.drop(room, entry);
    for (const listener of [...this.echoListeners]) {
      try {
        listener({ roomId: room.roomId, txnId: entry.record.txnId, eventId });
      } catch (error) {
        this.options.logger?.warn("Send queue: echo listener failed", error);
      }
    }
    // The echo settles an event the client thought failed (an answer lost on the way back).
    this.pending.unblock(room);
  }

  // ---- queue bookkeeping ----

  private enqueue(
    roomId: string,
    kind: "event" | "redaction",
    eventType: string,
    content: JsonObject,
    dependsOnTxnId?: string,
    redacts?: string,
    hidden = false,
    txnId?: string,
  ): Entry {
    if (this.disposed) throw new SendQueueError("DISPOSED", "The send queue has been disposed");
    if (txnId !== undefined && this.pending.byTxn.has(txnId))
      throw new SendQueueError("DUPLICATE_TXN", `An event with txn id ${txnId} is already pending`);
    if (this.options.knowsRoom && !this.options.knowsRoom(roomId)) throw unknownRoom(roomId);
    const now = this.scheduler.now();
    this.nextSeq = Math.max(this.nextSeq + 1, now * 1000);
    const record: StoredPendingEvent = {
      txnId: txnId ?? this.freshTxnId(),
      roomId,
      seq: this.nextSeq,
      kind,
      eventType,
      content,
      ...(redacts !== undefined ? { redacts } : {}),
      ...(dependsOnTxnId !== undefined && redacts === undefined ? { dependsOnTxnId } : {}),
      status: "queued",
      createdAt: now,
    };
    const entry = this.pending.add(record, undefined, hidden);
    this.pending.persist(entry);
    this.pump(roomId);
    return entry;
  }

  /** A txn id no pending or sent event of this run has (an injected generator could repeat one). */
  private freshTxnId(): string {
    for (;;) {
      const txnId = this.txnIds();
      if (!this.pending.byTxn.has(txnId) && !this.pending.sentTxns.has(txnId)) return txnId;
    }
  }

  private restore(record: StoredPendingEvent): void {
    if (
      typeof record.txnId !== "string" ||
      typeof record.roomId !== "string" ||
      typeof record.seq !== "number" ||
      (record.kind !== "event" && record.kind !== "redaction") ||
      typeof record.content !== "object" ||
      record.content === null ||
      this.pending.byTxn.has(record.txnId)
    )
      return;
    // An event cut off while encrypting or sending goes again with the same txn id: the server
    // de-duplicates it. A reload is a fresh try for events that failed only for want of a connection.
    const retry = record.failure?.kind === "unreachable" || record.failure?.kind === "blocked";
    const status: EventStatus = record.status === "not_sent" && !retry ? "not_sent" : "queued";
    const failure: SendFailure | undefined =
      status === "not_sent" && record.failure
        ? { kind: record.failure.kind as SendFailureKind, message: record.failure.message }
        : undefined;
    this.nextSeq = Math.max(this.nextSeq, record.seq);
    const entry = this.pending.add({ ...record, status }, failure);
    const eventId = this.echoed.get(record.txnId);
    if (eventId !== undefined) this.applyEcho(this.pending.roomQueue(record.roomId), entry, eventId);
  }

  private onConnection(state: SyncState | null): void {
    const wasOnline = this.online;
    this.online = !isConnectionDown(state);
    if (wasOnline || !this.online) return;
    // Back online: events that failed only because the server was unreachable go again.
    for (const room of this.pending.rooms.values()) {
      for (const entry of [...room.entries]) {
        if (entry.snapshot.status === "not_sent" && entry.snapshot.failure?.kind === "unreachable") {
          entry.attempts = 0;
          this.pending.setStatus(entry, "queued");
        }
      }
      this.pending.unblock(room);
    }
  }

  private isEncrypted(roomId: string): boolean {
    return this.encryptedRooms.has(roomId) || (this.options.isRoomEncrypted?.(roomId) ?? false);
  }

  // ---- the per-room worker ----

  private pump(roomId: string): void {
    const room = this.pending.rooms.get(roomId);
    if (!room || room.running || this.disposed) return;
    room.running = true;
    void this.run(room);
  }

  private async run(room: RoomQueue): Promise<void> {
    try {
      await this.ready;
      for (;;) {
        if (this.disposed) return;
        const head = room.entries.find((e) => e.snapshot.status !== "sent");
        if (!head) return;
        if (head.snapshot.status === "not_sent") {
          this.pending.blockFollowers(room, head);
          return;
        }
        if (!this.online) {
          await room.untilWoken();
          continue;
        }
        const delay = await this.attempt(room, head);
        if (delay !== null) await this.scheduler.sleep(delay, room.signal).catch(() => undefined);
      }
    } catch (error) {
      this.options.logger?.warn("Send queue: worker failed", error);
    } finally {
      // No await between the last check and here, so a send that found the worker running is seen.
      room.running = false;
    }
  }

  /** One attempt at the head of a room; returns the wait before the next attempt, or null. */
  private async attempt(room: RoomQueue, entry: Entry): Promise<number | null> {
    // Persisted before the first PUT: a reload then resends it rather than losing it.
    await entry.persisted;
    if (entry.removed || this.disposed) return null;
    const { roomId, txnId, kind } = entry.record;
    if (entry.record.dependsOnTxnId !== undefined) {
      const eventId = this.pending.sentTxns.get(entry.record.dependsOnTxnId);
      if (eventId === undefined) {
        // The local echo it points at is gone without being sent.
        this.cancel(txnId);
        return null;
      }
      this.pending.pointAt(entry, eventId);
    }
    let { eventType: type, content } = entry.record;
    if (kind === "event" && this.isEncrypted(roomId)) {
      if (!this.encrypt) {
        this.pending.setStatus(entry, "not_sent", failureOf("encryption_unsupported"));
        return null;
      }
      this.pending.setStatus(entry, "encrypting");
      try {
        ({ type, content } = await this.encrypt(roomId, type, cloneJson(content)));
      } catch (error) {
        if (entry.removed || entry.snapshot.status !== "encrypting") return null;
        const failure = {
          kind: "encryption_failed" as const,
          message: "The message could not be encrypted",
          error,
        };
        this.pending.setStatus(entry, "not_sent", failure);
        return null;
      }
      // Cancelled while encrypting.
      if (entry.removed || entry.snapshot.status !== "encrypting" || this.disposed) return null;
    }
    this.pending.setStatus(entry, "sending");
    try {
      const answer =
        kind === "redaction"
          ? await redactEvent(this.http, roomId, entry.record.redacts ?? "", txnId, content)
          : await sendEvent(this.http, roomId, type, txnId, content);
      // A crash here (dispose) records nothing: the next run resends the same txn id.
      if (this.disposed || entry.removed) return null;
      this.pending.recordSent(entry, answer.event_id);
      this.pending.setStatus(entry, "sent", undefined, answer.event_id);
      this.pending.persist(entry, true);
      // A resent event whose echo the sync already delivered (before a reload) gets no second echo.
      if (this.echoed.get(txnId) === answer.event_id) this.applyEcho(room, entry, answer.event_id);
      return null;
    } catch (error) {
      if (this.disposed || entry.removed) return null;
      if (isTransient(error) && !this.online) {
        // The sync already knows the server is gone: hold without spending an attempt.
        this.pending.setStatus(entry, "queued");
        return 0;
      }
      entry.attempts++;
      const delay = sendRetryDelay(error, entry.attempts, this.policy, () => this.scheduler.random());
      if (delay === null) {
        entry.attempts = 0;
        this.pending.setStatus(entry, "not_sent", classifyFailure(error));
        return null;
      }
      this.pending.setStatus(entry, "queued");
      return delay;
    }
  }
}
