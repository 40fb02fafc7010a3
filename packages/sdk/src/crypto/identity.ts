/**
 * Identity and device change warnings, per user, for the UI:
 *
 * - "unverified_device": a user whose identity we verified (or our own
 *   user) has a device that nobody vouched for (no cross-signing signature,
 *   not verified locally): typically a device added after the verification.
 * - "identity_changed": the user's master key changed after we had seen one.
 *   If we had verified the old identity it is a verification violation;
 *   otherwise the new identity needs the user's approval (the engine pins
 *   the first master key it sees).
 *
 * `acknowledge` accepts what is shown: the new master key is pinned (or the
 * verification requirement withdrawn) and the listed devices are no longer
 * warned about. `watch` calls back whenever the engine reports a change of
 * the user's identity or devices (after a key query). One watcher per
 * CryptoMachine: it takes the engine's identity and device callbacks.
 */
import { CryptoError } from "./errors";
import type { UserId } from "@matrix-org/matrix-sdk-crypto-wasm";
import { userIdOrUndefined } from "./ids";
import type { CryptoInternals } from "./verification/internals";

/** One thing the UI should tell the user about someone's identity. */
export type IdentityWarning =
  | { kind: "unverified_device"; userId: string; deviceId: string; displayName?: string }
  | { kind: "identity_changed"; userId: string; previouslyVerified: boolean };

/** What we know of a user's cross-signing identity, and the warnings it raises. */
export interface UserTrust {
  userId: string;
  /** The user published cross-signing keys (and we fetched them). */
  hasIdentity: boolean;
  /** The public master key (base64), when known. */
  masterKey?: string;
  /** We verified this identity (SAS, a signature of ours, or it is ours and we hold its keys). */
  verified: boolean;
  /** The master key changed since we pinned one; acknowledge to pin the new one. */
  needsApproval: boolean;
  /** We had verified this user and the identity is no longer verified. */
  verificationViolation: boolean;
  warnings: IdentityWarning[];
}

export type UserTrustListener = (trust: UserTrust) => void;

function masterKeyOf(json: string): string | undefined {
  try {
    const parsed = JSON.parse(json) as { keys?: Record<string, string> };
    return Object.values(parsed.keys ?? {})[0];
  } catch {
    return undefined;
  }
}

/** Per-user identity warnings over one device's crypto. */
export class IdentityWarnings {
  private readonly watchers = new Map<string, Set<UserTrustListener>>();
  private readonly last = new Map<string, string>();
  private readonly acknowledgedDevices = new Map<string, Set<string>>();
  private readonly dirty = new Set<string>();
  private flushing: ReturnType<typeof setTimeout> | undefined;

  private constructor(private readonly crypto: CryptoInternals) {}

  /** Creates the watcher and takes the engine's identity and device callbacks. */
  static create(crypto: CryptoInternals): Promise<IdentityWarnings> {
    const watcher = new IdentityWarnings(crypto);
    crypto.machine.registerUserIdentityUpdatedCallback((userId: UserId) => {
      const id = userId.toString();
      userId.free();
      return watcher.changed([id]);
    });
    crypto.machine.registerDevicesUpdatedCallback((userIds: string[]) => watcher.changed(userIds));
    // Kept async for callers: the engine took these callbacks synchronously from crypto-wasm 15.
    return Promise.resolve(watcher);
  }

  /** The user's identity and warnings now. */
  async trust(userId: string): Promise<UserTrust> {
    const { engine, machine } = this.crypto;
    const trust: UserTrust = {
      userId,
      hasIdentity: false,
      verified: false,
      needsApproval: false,
      verificationViolation: false,
      warnings: [],
    };
    const id = userIdOrUndefined(engine, userId);
    if (!id) return trust;
    const identity = await machine.getIdentity(id);
    if (identity) {
      try {
        const masterKey = masterKeyOf(identity.masterKey);
        trust.hasIdentity = true;
        if (masterKey !== undefined) trust.masterKey = masterKey;
        trust.verified = identity.isVerified();
        trust.verificationViolation = identity.hasVerificationViolation();
        trust.needsApproval =
          identity instanceof engine.OtherUserIdentity ? identity.identityNeedsUserApproval() : false;
      } finally {
        identity.free();
      }
    }
    if (trust.needsApproval || trust.verificationViolation) {
      trust.warnings.push({
        kind: "identity_changed",
        userId,
        previouslyVerified: trust.verificationViolation,
      });
    }
    if (trust.verified || userId === this.crypto.userId)
      trust.warnings.push(...(await this.unverifiedDevices(id)));
    return trust;
  }

  /**
   * Calls `listener` with the user's trust now (unless `initial` is false:
   * changes only) and after each change; returns the unsubscribe.
   */
  watch(userId: string, listener: UserTrustListener, initial = true): () => void {
    let set = this.watchers.get(userId);
    if (!set) {
      set = new Set();
      this.watchers.set(userId, set);
    }
    set.add(listener);
    if (initial) void this.emit(userId, [listener]);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(userId);
    };
  }

  /**
   * Accepts the user's current identity and devices: pins a changed master
   * key, withdraws the requirement of a lost verification, and stops
   * warning about the devices listed now. Returns the trust afterwards.
   */
  async acknowledge(userId: string): Promise<UserTrust> {
    const { engine, machine } = this.crypto;
    const id = userIdOrUndefined(engine, userId);
    if (!id) return this.trust(userId);
    const identity = await machine.getIdentity(id);
    if (identity) {
      try {
        if (identity.hasVerificationViolation()) await identity.withdrawVerification();
        if (identity instanceof engine.OtherUserIdentity && identity.identityNeedsUserApproval()) {
          await identity.pinCurrentMasterKey();
        }
      } finally {
        identity.free();
      }
    }
    const before = await this.trust(userId);
    const seen = this.acknowledgedDevices.get(userId) ?? new Set<string>();
    for (const w of before.warnings) if (w.kind === "unverified_device") seen.add(w.deviceId);
    this.acknowledgedDevices.set(userId, seen);
    await this.emit(userId);
    return this.trust(userId);
  }

  /**
   * Verifies another user's identity by signing their master key with our
   * user-signing key (after the user compared it out of band); the
   * signature goes to /keys/signatures/upload. Needs our cross-signing keys.
   */
  async verifyUser(userId: string): Promise<void> {
    const { engine, machine, outgoing } = this.crypto;
    const id = userIdOrUndefined(engine, userId);
    const identity = id ? await machine.getIdentity(id) : undefined;
    if (!identity || !(identity instanceof engine.OtherUserIdentity)) {
      identity?.free();
      throw new CryptoError("unknown_device", `No cross-signing identity of another user ${userId}`);
    }
    try {
      await outgoing.send(await identity.verify());
    } finally {
      identity.free();
    }
    await this.emit(userId);
  }

  private async unverifiedDevices(id: UserId): Promise<IdentityWarning[]> {
    const userId = id.toString();
    const seen = this.acknowledgedDevices.get(userId);
    const devices = await this.crypto.machine.getUserDevices(id);
    const out: IdentityWarning[] = [];
    try {
      for (const d of devices.devices()) {
        const deviceId = d.deviceId.toString();
        const own = userId === this.crypto.userId && deviceId === this.crypto.deviceId;
        if (!own && !d.isVerified() && !d.isBlacklisted() && !seen?.has(deviceId)) {
          const name = d.displayName;
          out.push({ kind: "unverified_device", userId, deviceId, ...(name ? { displayName: name } : {}) });
        }
        d.free();
      }
    } finally {
      devices.free();
    }
    return out;
  }

  /** The engine's callback: it must answer with a promise and must not be re-entered, so work waits a tick. */
  private changed(userIds: readonly string[]): Promise<void> {
    for (const u of userIds) if (this.watchers.has(u)) this.dirty.add(u);
    this.flushing ??= setTimeout(() => {
      this.flushing = undefined;
      const users = [...this.dirty];
      this.dirty.clear();
      for (const u of users) void this.emit(u);
    }, 0);
    return Promise.resolve();
  }

  private async emit(userId: string, only?: UserTrustListener[]): Promise<void> {
    let trust: UserTrust;
    try {
      trust = await this.trust(userId);
    } catch (error) {
      this.crypto.logger.warn("crypto: reading a user's identity failed", error);
      return;
    }
    const json = JSON.stringify(trust);
    if (!only) {
      if (this.last.get(userId) === json) return;
      this.last.set(userId, json);
    }
    for (const listener of only ?? [...(this.watchers.get(userId) ?? [])]) {
      try {
        listener(trust);
      } catch (error) {
        this.crypto.logger.warn("crypto: an identity listener threw", error);
      }
    }
  }
}
