/**
 * End-to-end encryption keys: device keys, one-time keys, fallback keys,
 * cross-signing keys and their signatures, and the device-list change log
 * that sync's device_lists.changed and /keys/changes read.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";

interface DeviceKeyState {
  deviceKeys?: JsonObject;
  /** "algorithm:keyId" -> key, in upload order. */
  oneTime: Map<string, unknown>;
  /** algorithm -> fallback key. */
  fallback: Map<string, { keyId: string; key: unknown; used: boolean }>;
}

export type CrossSigningKind = "master" | "self_signing" | "user_signing";

export class KeyStore {
  /** userId -> deviceId -> keys. */
  private readonly devices = new Map<string, Map<string, DeviceKeyState>>();
  /** userId -> kind -> key. */
  private readonly crossSigning = new Map<string, Map<CrossSigningKind, JsonObject>>();
  private readonly changes: Array<{ pos: number; userId: string }> = [];

  constructor(private readonly ctx: ServerContext) {}

  /** Records that a user's devices or keys changed, at a new stream position. */
  markChanged(userId: string): void {
    const pos = this.ctx.notifier.advance();
    this.changes.push({ pos, userId });
  }

  /** Users whose device list changed at a position in (since, until]. */
  changedBetween(since: number, until: number): string[] {
    const out = new Set<string>();
    for (const c of this.changes) if (c.pos > since && c.pos <= until) out.add(c.userId);
    return [...out];
  }

  private state(userId: string, deviceId: string): DeviceKeyState {
    let byDevice = this.devices.get(userId);
    if (!byDevice) {
      byDevice = new Map();
      this.devices.set(userId, byDevice);
    }
    let s = byDevice.get(deviceId);
    if (!s) {
      s = { oneTime: new Map(), fallback: new Map() };
      byDevice.set(deviceId, s);
    }
    return s;
  }

  setDeviceKeys(userId: string, deviceId: string, keys: JsonObject): void {
    this.state(userId, deviceId).deviceKeys = keys;
  }

  deviceKeys(userId: string, deviceId: string): JsonObject | undefined {
    return this.devices.get(userId)?.get(deviceId)?.deviceKeys;
  }

  /** Adds one-time keys; a key id reused with other content is refused (returns that id). */
  addOneTimeKeys(userId: string, deviceId: string, keys: Array<[string, unknown]>): string | undefined {
    const s = this.state(userId, deviceId);
    for (const [id, key] of keys) {
      const old = s.oneTime.get(id);
      if (old !== undefined && JSON.stringify(old) !== JSON.stringify(key)) return id;
    }
    for (const [id, key] of keys) s.oneTime.set(id, key);
    return undefined;
  }

  /** Sets fallback keys, one per algorithm; a new key is unused. */
  setFallbackKeys(userId: string, deviceId: string, keys: Array<[string, unknown]>): void {
    const s = this.state(userId, deviceId);
    for (const [id, key] of keys) {
      const algorithm = id.split(":")[0] ?? id;
      const old = s.fallback.get(algorithm);
      if (old && old.keyId === id && JSON.stringify(old.key) === JSON.stringify(key)) continue;
      s.fallback.set(algorithm, { keyId: id, key, used: false });
    }
  }

  /** Counts of unclaimed one-time keys per algorithm (signed_curve25519 always present, as in Synapse). */
  oneTimeKeyCounts(userId: string, deviceId: string): Record<string, number> {
    const counts: Record<string, number> = Object.create(null) as Record<string, number>;
    counts["signed_curve25519"] = 0;
    const s = this.devices.get(userId)?.get(deviceId);
    for (const id of s?.oneTime.keys() ?? []) {
      const algorithm = id.split(":")[0] ?? id;
      counts[algorithm] = (counts[algorithm] ?? 0) + 1;
    }
    return counts;
  }

  unusedFallbackKeyTypes(userId: string, deviceId: string): string[] {
    const s = this.devices.get(userId)?.get(deviceId);
    return [...(s?.fallback ?? new Map<string, { used: boolean }>()).entries()]
      .filter(([, v]) => !v.used)
      .map(([k]) => k);
  }

  /** Claims the oldest one-time key of an algorithm, else the fallback key (marking it used). */
  claim(userId: string, deviceId: string, algorithm: string): [string, unknown] | undefined {
    const s = this.devices.get(userId)?.get(deviceId);
    if (!s) return undefined;
    for (const [id, key] of s.oneTime) {
      if (id.startsWith(`${algorithm}:`)) {
        s.oneTime.delete(id);
        return [id, key];
      }
    }
    const fb = s.fallback.get(algorithm);
    if (!fb) return undefined;
    fb.used = true;
    return [fb.keyId, fb.key];
  }

  /** Forgets a deleted device's keys. */
  deleteDevice(userId: string, deviceId: string): void {
    this.devices.get(userId)?.delete(deviceId);
  }

  crossSigningKey(userId: string, kind: CrossSigningKind): JsonObject | undefined {
    return this.crossSigning.get(userId)?.get(kind);
  }

  setCrossSigningKey(userId: string, kind: CrossSigningKind, key: JsonObject): void {
    let m = this.crossSigning.get(userId);
    if (!m) {
      m = new Map();
      this.crossSigning.set(userId, m);
    }
    m.set(kind, key);
  }

  /** Finds the object a signature upload targets: a device's keys or a cross-signing key by public key. */
  signable(userId: string, keyId: string): JsonObject | undefined {
    const device = this.deviceKeys(userId, keyId);
    if (device) return device;
    for (const key of this.crossSigning.get(userId)?.values() ?? []) {
      const keys = key["keys"];
      if (typeof keys === "object" && keys !== null && Object.values(keys).includes(keyId)) return key;
    }
    return undefined;
  }
}
