/**
 * The one-way key feed from the MatrixRTC encryption manager to the frame
 * encryptor's key provider. It reads our key in use and every participant's
 * received keys (observables) and hands each new (identity, index, key) to
 * a sink, the LiveKit key provider in the browser and a fake in tests. It
 * holds no key itself beyond what it has already passed on, to tell new
 * from old.
 *
 * A remote participant is known on the SFU either as `userId:deviceId` (a
 * token from the legacy /sfu/get) or by the hashed identity (from
 * /get_token), depending on their token service, so each key is given for
 * both names; a frame is decrypted by the key of whichever name it comes
 * under. Rotations arrive as a new index: the encryptor keeps older indexes
 * in its key ring, so frames still in flight under the old key decode and
 * the call carries on.
 */
import type { ReadonlyObservable } from "../../util/observable";
import { ObservableValue } from "../../util/observable";
import type { OwnKey, ParticipantKeys, RtcParticipant } from "../keys/EncryptionManager";
import { hashedIdentity, legacyIdentity } from "../keys/identity";

/** Where keys go: LiveKit's key provider (`onSetEncryptionKey`) or a test fake. */
export interface KeySink {
  setKey(identity: string, index: number, key: Uint8Array): void;
}

/** What the feed reads: the encryption manager's observables. */
export interface KeySource {
  readonly ownKey: ReadonlyObservable<OwnKey | undefined>;
  readonly participants: ReadonlyObservable<readonly RtcParticipant[]>;
}

/** Per participant on the SFU: whether their key has arrived. */
export type KeyState = "waiting_for_keys" | "has_keys";

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class KeyFeed {
  private readonly given = new Map<string, Map<number, Uint8Array>>();
  private readonly watched = new Map<string, { identities: string[]; unsubscribe: () => void }>();
  private readonly keyedValue = new ObservableValue<ReadonlySet<string>>(new Set());
  private readonly unsubscribes: Array<() => void> = [];
  private localIdentity: string | undefined;
  private disposed = false;

  constructor(
    private readonly source: KeySource,
    private readonly sink: KeySink,
  ) {
    this.unsubscribes.push(
      source.ownKey.subscribe(() => this.pushOwn()),
      source.participants.subscribe((list) => void this.onParticipants(list)),
    );
    void this.onParticipants(source.participants.getSnapshot());
  }

  /** SFU identities (both names of each participant) whose keys have arrived. */
  get keyedIdentities(): ReadonlyObservable<ReadonlySet<string>> {
    return this.keyedValue;
  }

  /** Whether the participant the SFU knows as `identity` can be decrypted yet. */
  keyState(identity: string): KeyState {
    return this.keyedValue.getSnapshot().has(identity) ? "has_keys" : "waiting_for_keys";
  }

  /** Our identity on the SFU (from the token); our key is given under it, now and on every rotation. */
  setLocalIdentity(identity: string): void {
    this.localIdentity = identity;
    this.given.delete(identity);
    this.pushOwn();
  }

  private give(identity: string, index: number, key: Uint8Array): boolean {
    let byIndex = this.given.get(identity);
    if (byIndex === undefined) {
      byIndex = new Map();
      this.given.set(identity, byIndex);
    }
    if (sameBytes(byIndex.get(index), key)) return false;
    byIndex.set(index, key);
    this.sink.setKey(identity, index, key);
    return true;
  }

  private pushOwn(): void {
    const own = this.source.ownKey.getSnapshot();
    if (this.disposed || own === undefined || this.localIdentity === undefined) return;
    this.give(this.localIdentity, own.index, own.key);
  }

  private async onParticipants(list: readonly RtcParticipant[]): Promise<void> {
    const present = new Set<string>();
    for (const p of list) {
      const id = `${p.userId}|${p.deviceId}|${p.memberId}`;
      present.add(id);
      if (this.watched.has(id)) continue;
      const entry = { identities: [legacyIdentity(p.userId, p.deviceId)], unsubscribe: () => {} };
      this.watched.set(id, entry);
      const hashed = await hashedIdentity(p.userId, p.deviceId, p.memberId);
      if (this.disposed) return;
      if (this.watched.get(id) !== entry) continue;
      if (!entry.identities.includes(hashed)) entry.identities.push(hashed);
      if (!entry.identities.includes(p.identity)) entry.identities.push(p.identity);
      const apply = (keys: ParticipantKeys): void => this.applyKeys(entry.identities, keys);
      entry.unsubscribe = p.keys.subscribe(apply);
      apply(p.keys.getSnapshot());
    }
    for (const [id, entry] of this.watched) {
      if (present.has(id)) continue;
      entry.unsubscribe();
      this.watched.delete(id);
      // A departed participant's keys are dropped from our memory; the SFU stops sending their frames.
      for (const identity of entry.identities) this.given.delete(identity);
      this.updateKeyed();
    }
  }

  private applyKeys(identities: readonly string[], keys: ParticipantKeys): void {
    if (this.disposed) return;
    // The newest index last: the encryptor uses the last key set for a participant as its current one.
    const entries = [...keys.keys.entries()].sort(([a], [b]) => {
      const latest = keys.latestIndex;
      if (a === latest) return 1;
      if (b === latest) return -1;
      return a - b;
    });
    for (const identity of identities) for (const [index, key] of entries) this.give(identity, index, key);
    this.updateKeyed();
  }

  private updateKeyed(): void {
    const keyed = new Set<string>();
    for (const entry of this.watched.values())
      for (const identity of entry.identities)
        if ((this.given.get(identity)?.size ?? 0) > 0) keyed.add(identity);
    const before = this.keyedValue.getSnapshot();
    if (before.size === keyed.size && [...keyed].every((k) => before.has(k))) return;
    this.keyedValue.set(keyed);
  }

  dispose(): void {
    this.disposed = true;
    for (const u of this.unsubscribes.splice(0)) u();
    for (const entry of this.watched.values()) entry.unsubscribe();
    this.watched.clear();
    this.given.clear();
  }
}
