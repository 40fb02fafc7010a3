/**
 * Our media keys and everyone else's, for one joined session.
 *
 * Own keys: 16 random bytes, index from 0 wrapping modulo 256; the first is
 * used at once. A departure queues a new key: it is made MAKE_KEY_DELAY_MS
 * after the departure (later departures in that window share it), sent to
 * everyone left, and used USE_KEY_DELAY_MS after (to-device mode: 1000 ms),
 * so receivers hold it before frames need it. A join re-sends the current
 * key (to-device mode: only within the 10 s grace period of the key; a
 * later join gets a new key, so it cannot read what came before); an
 * updated or reconnected member gets it again. Re-sends are throttled to one
 * per KEY_UPDATE_THROTTLE_MS.
 *
 * Delivery is tracked per key: the devices the transport reached hold it.
 * A member device it could not reach (no device keys or Olm session yet)
 * gets the current key again, without a rotation: on the next membership
 * change, when its user's device list changes, and on a timer that backs
 * off from KEY_REDELIVERY_BASE_MS to KEY_REDELIVERY_MAX_MS until it holds it.
 *
 * Received keys are bound to the sending device and exposed per participant
 * (with the identity the SFU knows it by) as observables the frame
 * encryptor reads; nothing else holds a key.
 */
import { backoffDelay } from "../../util/backoff";
import type { BackoffPolicy } from "../../util/backoff";
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import {
  KEY_INDEX_MODULUS,
  KEY_LENGTH_BYTES,
  KEY_REDELIVERY_BASE_MS,
  KEY_REDELIVERY_MAX_MS,
  KEY_UPDATE_THROTTLE_MS,
  MAKE_KEY_DELAY_MS,
  TO_DEVICE_KEY_GRACE_PERIOD_MS,
  TO_DEVICE_USE_KEY_DELAY_MS,
  USE_KEY_DELAY_MS,
} from "../constants";
import { deviceKey } from "../membership/filter";
import type { CallMembership } from "../membership/types";
import { identityOf } from "./identity";
import type { IdentityMode } from "./identity";
import { encodeKey } from "./messages";
import type { ReceivedKey, WireKey } from "./messages";
import type { KeyTarget, KeyTransports } from "./transports";

/** Re-sends of the current key to members it has not reached: 5 s, doubling, at most 60 s. */
const KEY_REDELIVERY_BACKOFF: BackoffPolicy = {
  baseDelayMs: KEY_REDELIVERY_BASE_MS,
  maxDelayMs: KEY_REDELIVERY_MAX_MS,
  jitter: "none",
};

/** One participant's keys: by index, and the newest index received. */
export interface ParticipantKeys {
  readonly latestIndex: number | undefined;
  readonly keys: ReadonlyMap<number, Uint8Array>;
}

/** A remote member device of the session and its keys. */
export interface RtcParticipant {
  readonly userId: string;
  readonly deviceId: string;
  readonly memberId: string;
  /** The identity the SFU knows the participant by (legacy or hashed). */
  readonly identity: string;
  readonly membership: CallMembership;
  readonly keys: ReadonlyObservable<ParticipantKeys>;
}

/** Our key in use for encrypting frames. */
export interface OwnKey {
  readonly index: number;
  readonly key: Uint8Array;
}

export interface EncryptionManagerOptions {
  transports: KeyTransports;
  scheduler: Scheduler;
  userId: string;
  deviceId: string;
  identityMode?: IdentityMode;
  /** Random bytes; crypto.getRandomValues by default. */
  randomBytes?: (length: number) => Uint8Array;
}

const EMPTY: ParticipantKeys = { latestIndex: undefined, keys: new Map() };

export class EncryptionManager {
  private readonly ownKeyValue = new ObservableValue<OwnKey | undefined>(undefined);
  private readonly participantsValue = new ObservableValue<readonly RtcParticipant[]>([]);
  private readonly received = new Map<string, ObservableValue<ParticipantKeys>>();
  private members = new Map<string, CallMembership>();
  private ownKeys = new Map<number, Uint8Array>();
  private currentIndex = -1;
  private currentCreatedAt = 0;
  private readonly timers = new AbortController();
  private rotationQueued = false;
  private pendingResend: Set<string> | "all" | undefined;
  private lastResendAt = Number.NEGATIVE_INFINITY;
  private resendScheduled = false;
  private joined = false;
  /** Bumped with each new key: a send's result counts only for the key it carried. */
  private keyGeneration = 0;
  /** Member devices (deviceKey) the current key reached, and those a send is under way to. */
  private sharedWith = new Set<string>();
  private inFlight = new Set<string>();
  private redeliveryAttempt = 0;
  private redeliveryScheduled = false;

  constructor(private readonly options: EncryptionManagerOptions) {}

  /** Our key in use (after its use-key delay). */
  get ownKey(): ReadonlyObservable<OwnKey | undefined> {
    return this.ownKeyValue;
  }

  /** Remote participants with their identities and keys. */
  get participants(): ReadonlyObservable<readonly RtcParticipant[]> {
    return this.participantsValue;
  }

  /** The keys received from one device, as an observable. */
  keysOf(userId: string, deviceId: string): ReadonlyObservable<ParticipantKeys> {
    return this.slot(userId, deviceId);
  }

  /** Our key with `index`, as last made (tests and re-sends). */
  ownKeyAt(index: number): Uint8Array | undefined {
    return this.ownKeys.get(index);
  }

  private slot(userId: string, deviceId: string): ObservableValue<ParticipantKeys> {
    const id = deviceKey(userId, deviceId);
    let value = this.received.get(id);
    if (value === undefined) {
      value = new ObservableValue<ParticipantKeys>(EMPTY);
      this.received.set(id, value);
    }
    return value;
  }

  /** Makes our first key, uses it at once and sends it to the members. */
  join(memberships: readonly CallMembership[]): void {
    if (this.joined) return;
    this.joined = true;
    const key = this.makeKey();
    this.ownKeyValue.set({ index: key.index, key: this.ownKeys.get(key.index) as Uint8Array });
    this.onMemberships(memberships, true);
    this.deliver(key, this.targets());
  }

  /** Stops every timer; the keys stay readable until dropped with the manager. */
  leave(): void {
    this.joined = false;
    this.timers.abort();
    this.options.transports.close();
  }

  private makeKey(): WireKey {
    const bytes = (this.options.randomBytes ?? randomBytes)(KEY_LENGTH_BYTES);
    this.currentIndex = (this.currentIndex + 1) % KEY_INDEX_MODULUS;
    this.currentCreatedAt = this.options.scheduler.now();
    this.ownKeys.set(this.currentIndex, bytes);
    this.keyGeneration++;
    this.sharedWith = new Set();
    this.inFlight = new Set();
    this.redeliveryAttempt = 0;
    return { index: this.currentIndex, key: encodeKey(bytes) };
  }

  private currentWireKey(): WireKey {
    return { index: this.currentIndex, key: encodeKey(this.ownKeys.get(this.currentIndex) as Uint8Array) };
  }

  private allWireKeys(): WireKey[] {
    return [this.currentWireKey()];
  }

  private targets(only?: Set<string>): KeyTarget[] {
    const out: KeyTarget[] = [];
    for (const [id, m] of this.members)
      if (only === undefined || only.has(id)) out.push({ userId: m.sender, deviceId: m.deviceId });
    return out;
  }

  private get toDeviceMode(): boolean {
    return this.options.transports.mode.getSnapshot() === "to-device";
  }

  /** The session's memberships changed: diff them into joins, updates and departures. */
  onMemberships(memberships: readonly CallMembership[], initial = false): void {
    const { userId, deviceId } = this.options;
    const next = new Map<string, CallMembership>();
    for (const m of memberships)
      if (!(m.sender === userId && m.deviceId === deviceId)) next.set(deviceKey(m.sender, m.deviceId), m);
    const joinedIds = new Set<string>();
    const updatedIds = new Set<string>();
    let departed = false;
    for (const [id, m] of next) {
      const before = this.members.get(id);
      if (before === undefined) joinedIds.add(id);
      else if (before.eventId !== m.eventId || before.createdTs !== m.createdTs) updatedIds.add(id);
    }
    for (const id of this.members.keys())
      if (!next.has(id)) {
        departed = true;
        this.sharedWith.delete(id);
      }
    // An updated membership may come from a restarted client that lost the keys it held.
    for (const id of updatedIds) this.sharedWith.delete(id);
    this.members = next;
    void this.publishParticipants();
    if (!this.joined || initial) return;
    if (departed) this.queueRotation();
    if (joinedIds.size > 0) {
      const age = this.options.scheduler.now() - this.currentCreatedAt;
      if (this.toDeviceMode && age > TO_DEVICE_KEY_GRACE_PERIOD_MS) this.queueRotation(0);
      else this.requestResend(joinedIds);
    }
    if (updatedIds.size > 0) this.requestResend("all");
    // Devices an earlier send missed get the current key with this change (a rotation brings its own).
    const missing = this.missing((id) => !joinedIds.has(id) && !updatedIds.has(id));
    if (missing.size > 0 && !this.rotationQueued) this.requestResend(missing);
  }

  /**
   * Device lists changed (a sync's device_lists.changed): members of those users the current key
   * has not reached get it again now that their devices may be known.
   */
  onDevicesChanged(userIds: readonly string[]): void {
    if (!this.joined || userIds.length === 0) return;
    const users = new Set(userIds);
    const missing = this.missing((_, m) => users.has(m.sender));
    if (missing.size === 0) return;
    this.redeliveryAttempt = 0;
    this.requestResend(missing);
  }

  /** Members (matching `where`) the current key has not reached and is not on its way to. */
  private missing(where: (id: string, m: CallMembership) => boolean = () => true): Set<string> {
    const out = new Set<string>();
    for (const [id, m] of this.members)
      if (!this.sharedWith.has(id) && !this.inFlight.has(id) && where(id, m)) out.add(id);
    return out;
  }

  /** Sends `key` to `targets` and records who got it; devices it missed are tried again later. */
  private deliver(key: WireKey, targets: readonly KeyTarget[]): void {
    const generation = this.keyGeneration;
    const ids = targets.map((t) => deviceKey(t.userId, t.deviceId));
    for (const id of ids) this.inFlight.add(id);
    void this.options.transports.send(key, targets, this.allWireKeys()).then((missed) => {
      if (generation !== this.keyGeneration || !this.joined) return;
      const missedIds = new Set(missed.map((t) => deviceKey(t.userId, t.deviceId)));
      for (const id of ids) {
        this.inFlight.delete(id);
        if (!missedIds.has(id)) this.sharedWith.add(id);
      }
      if (missedIds.size > 0) this.scheduleRedelivery();
      else if (this.missing().size === 0) this.redeliveryAttempt = 0;
    });
  }

  /** Tries the members still without the current key again, backing off while some stay out of reach. */
  private scheduleRedelivery(): void {
    if (this.redeliveryScheduled) return;
    this.redeliveryScheduled = true;
    this.redeliveryAttempt++;
    const delay = backoffDelay(this.redeliveryAttempt, KEY_REDELIVERY_BACKOFF);
    this.options.scheduler.sleep(delay, this.timers.signal).then(
      () => {
        this.redeliveryScheduled = false;
        if (!this.joined || this.rotationQueued) return;
        const missing = this.missing();
        if (missing.size > 0) this.requestResend(missing);
      },
      () => undefined,
    );
  }

  private queueRotation(delay = MAKE_KEY_DELAY_MS): void {
    if (this.rotationQueued) return;
    this.rotationQueued = true;
    const { scheduler } = this.options;
    const signal = this.timers.signal;
    void (async () => {
      try {
        await scheduler.sleep(delay, signal);
      } catch {
        return;
      }
      this.rotationQueued = false;
      const key = this.makeKey();
      const bytes = this.ownKeys.get(key.index) as Uint8Array;
      this.deliver(key, this.targets());
      const useAfter = this.toDeviceMode ? TO_DEVICE_USE_KEY_DELAY_MS : USE_KEY_DELAY_MS;
      try {
        await scheduler.sleep(useAfter, signal);
      } catch {
        return;
      }
      this.ownKeyValue.set({ index: key.index, key: bytes });
    })();
  }

  /** Re-sends the current key to `who`, at most once per KEY_UPDATE_THROTTLE_MS. */
  private requestResend(who: Set<string> | "all"): void {
    if (this.pendingResend === "all" || who === "all") this.pendingResend = "all";
    else this.pendingResend = new Set([...(this.pendingResend ?? []), ...who]);
    if (this.resendScheduled) return;
    this.resendScheduled = true;
    const { scheduler } = this.options;
    const wait = Math.max(0, this.lastResendAt + KEY_UPDATE_THROTTLE_MS - scheduler.now());
    scheduler.sleep(wait, this.timers.signal).then(
      () => {
        this.resendScheduled = false;
        const pending = this.pendingResend;
        this.pendingResend = undefined;
        if (pending === undefined || !this.joined) return;
        this.lastResendAt = scheduler.now();
        const targets = this.targets(pending === "all" ? undefined : pending);
        this.deliver(this.currentWireKey(), targets);
      },
      () => undefined,
    );
  }

  /** A key a transport accepted. */
  onKey(key: ReceivedKey): void {
    const value = this.slot(key.userId, key.deviceId);
    const current = value.getSnapshot();
    const keys = new Map(current.keys);
    keys.set(key.index, key.key);
    value.set({ latestIndex: key.index, keys });
  }

  /** Re-sends the current key by the transport now in use (after a switch to the room). */
  resendAll(): void {
    if (this.joined) this.requestResend("all");
  }

  private async publishParticipants(): Promise<void> {
    const mode = this.options.identityMode ?? "legacy";
    const members = [...this.members.values()];
    const list = await Promise.all(
      members.map(async (m) => ({
        userId: m.sender,
        deviceId: m.deviceId,
        memberId: m.memberId,
        identity: await identityOf(mode, m.sender, m.deviceId, m.memberId),
        membership: m,
        keys: this.slot(m.sender, m.deviceId),
      })),
    );
    // A newer membership change may have published while we hashed.
    if (
      members.every((m) => this.members.get(deviceKey(m.sender, m.deviceId)) === m) &&
      members.length === this.members.size
    )
      this.participantsValue.set(list);
  }
}

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}
