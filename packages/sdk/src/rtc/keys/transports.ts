/**
 * The two key transports behind one switch. To-device (Olm-encrypted, to
 * each member device) is on by default and the room transport off; the
 * switch goes to room-only, for good, when a valid room key arrives or when
 * the to-device send reports 'The widget driver does not support to-device
 * encryption'. Sends are retried with backoff for about 5 s: a to-device
 * send that reached only some devices (no device keys yet, no Olm session)
 * is retried for the devices it missed, and those still missed at the end
 * are handed back so the encryption manager can try them again later. A
 * room key event that failed to decrypt is tried once more after 1 s, and
 * read whenever the crypto layer decrypts it later (its Megolm key came
 * after the event): only events seen undecryptable during this call, so a
 * late key for old history cannot bring back a stale key.
 */
import { backoffDelay } from "../../util/backoff";
import type { BackoffPolicy } from "../../util/backoff";
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import {
  ENCRYPTION_KEYS_EVENT,
  KEY_DECRYPT_RETRY_MS,
  KEY_SEND_RETRY_BUDGET_MS,
  TO_DEVICE_UNSUPPORTED,
} from "../constants";
import { readRoomKeys, readToDeviceKey, roomKeyContent, toDeviceKeyContent } from "./messages";
import type { KeyContext, ReceivedKey, WireKey } from "./messages";

export type KeyTransportMode = "to-device" | "room";

export interface KeyTarget {
  readonly userId: string;
  readonly deviceId: string;
}

/** A room or to-device event as the transports see it (already decrypted when it could be). */
export interface KeyEvent {
  readonly type: string;
  readonly sender: string;
  /** To-device: the sender's device that the Olm session authenticated, as the crypto layer reports it. */
  readonly senderDevice?: string;
  /** To-device: the embedded client's host decrypted it (Olm from `sender`; the widget API names no device). */
  readonly hostDecrypted?: boolean;
  readonly content: unknown;
  readonly eventId?: string;
  readonly roomId?: string;
  /** The room event as sync gave it, for a second decryption attempt. */
  readonly source?: ClientEventWithoutRoomId;
}

export interface KeyTransportIo {
  /**
   * Olm-encrypts and sends `content` to each target; resolves with the targets it could not reach
   * (device keys unknown, no Olm session), nothing when all got it. Throws TO_DEVICE_UNSUPPORTED
   * when it cannot send encrypted to-device at all.
   */
  sendToDevice(
    targets: readonly KeyTarget[],
    content: Record<string, unknown>,
  ): Promise<readonly KeyTarget[] | void>;
  /** Sends a room event `io.element.call.encryption_keys`. */
  sendRoomEvent(content: Record<string, unknown>): Promise<void>;
  /** Tries decrypting a room event again; the decrypted event, or undefined. */
  redecrypt?(event: KeyEvent): Promise<KeyEvent | undefined>;
}

export interface KeyTransportsOptions {
  io: KeyTransportIo;
  scheduler: Scheduler;
  context: KeyContext;
  /** Our member id, named in to-device messages (hashed identity mode). */
  memberId?: string;
  /** Start in room mode (the room transport on, to-device off). */
  mode?: KeyTransportMode;
  onKey: (key: ReceivedKey) => void;
  warn?: (message: string, error?: unknown) => void;
}

/** How many undecryptable room events are remembered for a late decryption. */
const UNDECRYPTED_KEPT = 256;

/** First backoff step; doubled each retry while the total stays within the budget. */
export const KEY_SEND_FIRST_BACKOFF_MS = 250;
const KEY_SEND_BACKOFF: BackoffPolicy = {
  baseDelayMs: KEY_SEND_FIRST_BACKOFF_MS,
  maxDelayMs: Infinity,
  jitter: "none",
};

export class KeyTransports {
  private readonly modeValue: ObservableValue<KeyTransportMode>;
  private readonly closed = new AbortController();
  /** Room events seen still encrypted (by event id), oldest first: a late decryption of one is read. */
  private readonly undecrypted = new Set<string>();

  constructor(private readonly options: KeyTransportsOptions) {
    this.modeValue = new ObservableValue<KeyTransportMode>(options.mode ?? "to-device");
  }

  get mode(): ReadonlyObservable<KeyTransportMode> {
    return this.modeValue;
  }

  private switchToRoom(): void {
    this.modeValue.set("room");
  }

  /**
   * Sends `key` (room mode: with `allKeys`, the room form carries a list) to
   * `targets`; resolves with the targets still without it after every retry
   * (empty when all got it; in room mode one event reaches everyone).
   */
  async send(
    key: WireKey,
    targets: readonly KeyTarget[],
    allKeys: readonly WireKey[] = [key],
  ): Promise<KeyTarget[]> {
    const { io, scheduler, context } = this.options;
    let remaining = [...targets];
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const backoff = backoffDelay(attempt, KEY_SEND_BACKOFF);
      const mode = this.modeValue.getSnapshot();
      let failure: unknown;
      try {
        if (mode === "room") {
          await io.sendRoomEvent(roomKeyContent(context, allKeys, scheduler.now()));
          return [];
        }
        if (remaining.length === 0) return [];
        const missed = await io.sendToDevice(
          remaining,
          toDeviceKeyContent(context, key, scheduler.now(), this.options.memberId),
        );
        // Only the devices it missed are tried again: the others hold the key already.
        remaining = remaining.filter((t) => (missed ?? []).some((m) => sameTarget(m, t)));
        if (remaining.length === 0) return [];
        failure = new Error(`No Olm session with ${remaining.map(describeTarget).join(", ")}`);
      } catch (error) {
        if (mode === "to-device" && error instanceof Error && error.message === TO_DEVICE_UNSUPPORTED) {
          this.options.warn?.(TO_DEVICE_UNSUPPORTED);
          this.switchToRoom();
          continue;
        }
        failure = error;
      }
      if (waited + backoff > KEY_SEND_RETRY_BUDGET_MS || this.closed.signal.aborted) {
        this.options.warn?.("Could not send the call encryption key", failure);
        return remaining;
      }
      try {
        await scheduler.sleep(backoff, this.closed.signal);
      } catch {
        return remaining;
      }
      waited += backoff;
    }
  }

  /** A decrypted to-device event from the sync batch. */
  receiveToDevice(event: KeyEvent): void {
    if (event.type !== ENCRYPTION_KEYS_EVENT) return;
    const key = readToDeviceKey(
      this.options.context,
      event.sender,
      event.senderDevice,
      event.content,
      event.hostDecrypted === true,
    );
    if (key !== null) this.options.onKey(key);
  }

  /** A room timeline event; one still encrypted is tried again once after 1 s. */
  receiveRoomEvent(event: KeyEvent, retried = false): void {
    if (event.type === "m.room.encrypted") {
      if (retried) return;
      if (event.eventId !== undefined) {
        this.undecrypted.add(event.eventId);
        if (this.undecrypted.size > UNDECRYPTED_KEPT)
          this.undecrypted.delete(this.undecrypted.values().next().value as string);
      }
      void this.retryDecrypt(event);
      return;
    }
    if (event.eventId !== undefined) this.undecrypted.delete(event.eventId);
    if (event.type !== ENCRYPTION_KEYS_EVENT) return;
    const keys = readRoomKeys(this.options.context, event.roomId, event.sender, event.content);
    if (keys.length === 0) return;
    this.switchToRoom();
    for (const key of keys) this.options.onKey(key);
  }

  /** A room event the crypto layer decrypted late: read when we saw it undecryptable. */
  receiveLateDecrypted(event: KeyEvent): void {
    if (event.eventId === undefined || !this.undecrypted.has(event.eventId)) return;
    this.receiveRoomEvent(event, true);
  }

  private async retryDecrypt(event: KeyEvent): Promise<void> {
    const { io, scheduler } = this.options;
    if (io.redecrypt === undefined) return;
    try {
      await scheduler.sleep(KEY_DECRYPT_RETRY_MS, this.closed.signal);
      const again = await io.redecrypt(event);
      if (again !== undefined) this.receiveRoomEvent({ ...again, roomId: event.roomId }, true);
    } catch {
      // Closed, or still undecryptable: the key is lost and the sender's next rotation brings another.
    }
  }

  /** Stops retries and pending decryption attempts. */
  close(): void {
    this.closed.abort();
  }
}

function sameTarget(a: KeyTarget, b: KeyTarget): boolean {
  return a.userId === b.userId && a.deviceId === b.deviceId;
}

function describeTarget(t: KeyTarget): string {
  return `${t.userId}:${t.deviceId}`;
}
