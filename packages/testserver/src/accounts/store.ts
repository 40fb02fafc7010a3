/**
 * Users, devices, access and refresh tokens, interactive auth, 3PIDs,
 * profiles, E2EE keys, to-device queues, media.
 *
 * The methods marked "contract" are what sync (rooms/) and the other domains
 * call. The rest serves the accounts routes and the test handle. Sub-stores
 * (tokens, keys, to-device, media, key backup, outbox, UIA) live in sibling
 * files.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import type { Requester } from "../http/types";
import { isJsonObject } from "../http/types";
import { KeyStore } from "./keys-store";
import { MediaStore } from "./media-store";
import { Outbox, toMsisdn } from "./outbox";
import type { Medium } from "./outbox";
import { RoomKeyStore } from "./room-keys-store";
import { ToDeviceStore } from "./to-device-store";
import { TokenStore } from "./tokens";
import type { IssuedTokens } from "./tokens";
import { UiaSessions } from "./uia";

export interface Profile {
  displayname?: string;
  avatar_url?: string;
}

export interface Threepid {
  medium: Medium;
  address: string;
  validated_at: number;
  added_at: number;
}

export interface UserRecord {
  userId: string;
  passwordHash?: { salt: string; hash: string };
  isGuest: boolean;
  admin: boolean;
  deactivated: boolean;
  createdTs: number;
  /** Every profile field, displayname and avatar_url included. */
  profile: Map<string, unknown>;
  threepids: Threepid[];
}

export interface DeviceRecord {
  userId: string;
  deviceId: string;
  displayName?: string;
  lastSeenTs: number;
  lastSeenIp: string;
}

/** What login and registration return. */
export type LoginResult = IssuedTokens & {
  user_id: string;
  device_id: string;
};

/**
 * Resolves an access token this server did not issue (the test OpenID
 * provider's, src/oidc) to its user and device, or undefined.
 */
export type ExternalTokenVerifier = (token: string) => { userId: string; deviceId: string } | undefined;

export class AccountStore {
  /** Accepts access tokens issued elsewhere (OIDC sign-in); unset, only ours are. */
  externalTokenVerifier: ExternalTokenVerifier | undefined;
  readonly tokens: TokenStore;
  readonly keys: KeyStore;
  readonly toDevice: ToDeviceStore;
  readonly media: MediaStore;
  readonly roomKeys = new RoomKeyStore();
  /** Mail and SMS the server "sent" (3PID validation); tests read it. */
  readonly outbox: Outbox;
  readonly uia: UiaSessions;
  private readonly users = new Map<string, UserRecord>();
  private readonly devices = new Map<string, Map<string, DeviceRecord>>();

  constructor(protected readonly ctx: ServerContext) {
    this.tokens = new TokenStore(ctx);
    this.keys = new KeyStore(ctx);
    this.toDevice = new ToDeviceStore(ctx);
    this.media = new MediaStore(ctx);
    this.outbox = new Outbox(ctx);
    this.uia = new UiaSessions(ctx);
  }

  /**
   * Contract. Resolves an access token: the requester, "expired" for a
   * token past its lifetime (answered with soft_logout true), or undefined
   * when unknown.
   */
  authenticate(token: string): Requester | "expired" | undefined {
    const entry = this.tokens.lookup(token);
    if (entry === undefined) return this.authenticateExternal(token);
    if (entry === "expired") return entry;
    const device = this.devices.get(entry.userId)?.get(entry.deviceId);
    if (device) device.lastSeenTs = this.ctx.clock.now();
    return { userId: entry.userId, deviceId: entry.deviceId, accessToken: token, isGuest: entry.isGuest };
  }

  /** A token from the external verifier, for a registered user; its device is created on first use. */
  private authenticateExternal(token: string): Requester | undefined {
    const owner = this.externalTokenVerifier?.(token);
    if (!owner || !this.userExists(owner.userId)) return undefined;
    if (!this.device(owner.userId, owner.deviceId)) {
      const byUser = this.devices.get(owner.userId) ?? new Map<string, DeviceRecord>();
      this.devices.set(owner.userId, byUser);
      byUser.set(owner.deviceId, { ...owner, lastSeenTs: 0, lastSeenIp: "127.0.0.1" });
      this.keys.markChanged(owner.userId);
    }
    const device = this.device(owner.userId, owner.deviceId);
    if (device) device.lastSeenTs = this.ctx.clock.now();
    return { ...owner, accessToken: token, isGuest: false };
  }

  /** Contract. Whether the user is registered (and not deactivated). */
  userExists(userId: string): boolean {
    const user = this.users.get(userId);
    return user !== undefined && !user.deactivated;
  }

  /** Contract. The user's profile, for membership events and the user directory. */
  profile(userId: string): Profile | undefined {
    const user = this.users.get(userId);
    if (!user) return undefined;
    const out: Profile = {};
    const name = user.profile.get("displayname");
    const avatar = user.profile.get("avatar_url");
    if (typeof name === "string") out.displayname = name;
    if (typeof avatar === "string") out.avatar_url = avatar;
    return out;
  }

  /** Contract. To-device messages after `since`; those at or before it are acknowledged and deleted. */
  toDeviceSince(userId: string, deviceId: string, since: number): JsonObject[] {
    return this.toDevice.since(userId, deviceId, since);
  }

  /** Contract. device_one_time_keys_count for a device. */
  oneTimeKeyCounts(userId: string, deviceId: string): Record<string, number> {
    return this.keys.oneTimeKeyCounts(userId, deviceId);
  }

  /** Contract. device_unused_fallback_key_types for a device. */
  unusedFallbackKeyTypes(userId: string, deviceId: string): string[] {
    return this.keys.unusedFallbackKeyTypes(userId, deviceId);
  }

  /** Contract. Users whose device list changed at a stream position in (since, until]. */
  deviceListChanges(since: number, until: number): string[] {
    return this.keys.changedBetween(since, until);
  }

  // ---- users ----

  /** The full user id for a localpart or user id. */
  userIdFor(localpartOrId: string): string {
    return localpartOrId.startsWith("@") ? localpartOrId : `@${localpartOrId}:${this.ctx.serverName}`;
  }

  getUser(userId: string): UserRecord | undefined {
    return this.users.get(userId);
  }

  /** Every registered user, deactivated ones included. */
  allUsers(): Iterable<UserRecord> {
    return this.users.values();
  }

  createUser(localpart: string, options: { password?: string; isGuest?: boolean } = {}): UserRecord {
    const userId = this.userIdFor(localpart);
    const user: UserRecord = {
      userId,
      isGuest: options.isGuest ?? false,
      admin: false,
      deactivated: false,
      createdTs: this.ctx.clock.now(),
      profile: new Map([["displayname", localpart]]),
      threepids: [],
    };
    if (options.password !== undefined) user.passwordHash = hashPassword(options.password);
    this.users.set(userId, user);
    return user;
  }

  /** A fresh numeric localpart, as Synapse generates for guests and nameless registrations. */
  nextNumericLocalpart(): string {
    let n = this.users.size + 1;
    while (this.users.has(this.userIdFor(String(n)))) n++;
    return String(n);
  }

  setPassword(userId: string, password: string): void {
    const user = this.users.get(userId);
    if (user) user.passwordHash = hashPassword(password);
  }

  checkPassword(userId: string, password: string): boolean {
    const user = this.users.get(userId);
    if (!user?.passwordHash || user.deactivated) return false;
    const candidate = Buffer.from(hashPassword(password, user.passwordHash.salt).hash, "hex");
    return timingSafeEqual(candidate, Buffer.from(user.passwordHash.hash, "hex"));
  }

  setAdmin(userId: string, admin = true): boolean {
    const user = this.users.get(userId);
    if (!user) return false;
    user.admin = admin;
    return true;
  }

  isAdmin(userId: string): boolean {
    return this.users.get(userId)?.admin === true;
  }

  /**
   * The user an identifier (m.id.user, m.id.thirdparty, m.id.phone, or the
   * legacy user / medium+address fields) names. `given` is false when the
   * object names nobody at all.
   */
  resolveIdentifier(obj: JsonObject): string | undefined {
    return this.resolve(obj).userId;
  }

  /**
   * Like resolveIdentifier, and tells whether the object names nobody
   * (`given` false). With `deactivated`, a user id or localpart may also name
   * a deactivated account, so login can answer M_USER_DEACTIVATED.
   */
  resolve(obj: JsonObject, options: { deactivated?: boolean } = {}): { given: boolean; userId?: string } {
    const identifier = obj["identifier"];
    const withDeactivated = options.deactivated ?? false;
    if (isJsonObject(identifier)) {
      const type = identifier["type"];
      if (type === "m.id.user" && typeof identifier["user"] === "string") {
        return { given: true, userId: this.findUser(identifier["user"], withDeactivated) };
      }
      if (type === "m.id.thirdparty") {
        const medium = identifier["medium"];
        const address = identifier["address"];
        if (typeof medium === "string" && typeof address === "string") {
          return { given: true, userId: this.findByThreepid(medium, address) };
        }
      }
      if (type === "m.id.phone") {
        const country = identifier["country"];
        const phone = identifier["phone"];
        if (typeof country === "string" && typeof phone === "string") {
          const msisdn = toMsisdn(country, phone);
          return { given: true, userId: msisdn ? this.findByThreepid("msisdn", msisdn) : undefined };
        }
      }
      return { given: true };
    }
    if (typeof obj["user"] === "string") {
      return { given: true, userId: this.findUser(obj["user"], withDeactivated) };
    }
    if (typeof obj["medium"] === "string" && typeof obj["address"] === "string") {
      return { given: true, userId: this.findByThreepid(obj["medium"], obj["address"]) };
    }
    return { given: false };
  }

  /** A live (or, when asked, deactivated) user by localpart or id, case-insensitively as Synapse logs in. */
  private findUser(name: string, withDeactivated = false): string | undefined {
    const userId = this.userIdFor(name.toLowerCase().startsWith("@") ? name : name.toLowerCase());
    const counts = (u: UserRecord | undefined): boolean =>
      u !== undefined && (withDeactivated || !u.deactivated);
    if (counts(this.users.get(userId))) return userId;
    const lower = userId.toLowerCase();
    for (const u of this.users.values()) if (counts(u) && u.userId.toLowerCase() === lower) return u.userId;
    return undefined;
  }

  findByThreepid(medium: string, address: string): string | undefined {
    const normalised = medium === "email" ? address.toLowerCase() : address;
    for (const u of this.users.values()) {
      if (u.deactivated) continue;
      if (u.threepids.some((t) => t.medium === medium && t.address === normalised)) return u.userId;
    }
    return undefined;
  }

  addThreepid(userId: string, medium: Medium, address: string): void {
    const user = this.users.get(userId);
    if (!user) return;
    const normalised = medium === "email" ? address.toLowerCase() : address;
    if (user.threepids.some((t) => t.medium === medium && t.address === normalised)) return;
    const now = this.ctx.clock.now();
    user.threepids.push({ medium, address: normalised, validated_at: now, added_at: now });
  }

  removeThreepid(userId: string, medium: string, address: string): boolean {
    const user = this.users.get(userId);
    if (!user) return false;
    const before = user.threepids.length;
    const normalised = medium === "email" ? address.toLowerCase() : address;
    user.threepids = user.threepids.filter((t) => !(t.medium === medium && t.address === normalised));
    return user.threepids.length !== before;
  }

  // ---- devices and sessions ----

  devicesOf(userId: string): DeviceRecord[] {
    return [...(this.devices.get(userId)?.values() ?? [])];
  }

  device(userId: string, deviceId: string): DeviceRecord | undefined {
    return this.devices.get(userId)?.get(deviceId);
  }

  /** Logs a user in on a (new or given) device; an existing device id is reused with its old tokens revoked. */
  login(
    userId: string,
    options: { deviceId?: string; displayName?: string; refresh?: boolean } = {},
  ): LoginResult {
    const user = this.users.get(userId);
    const deviceId = options.deviceId ?? this.ctx.ids.deviceId();
    let byUser = this.devices.get(userId);
    if (!byUser) {
      byUser = new Map();
      this.devices.set(userId, byUser);
    }
    const existing = byUser.get(deviceId);
    if (existing) {
      this.tokens.revokeDevice(userId, deviceId);
      if (options.displayName !== undefined) existing.displayName = options.displayName;
    } else {
      byUser.set(deviceId, {
        userId,
        deviceId,
        displayName: options.displayName,
        lastSeenTs: this.ctx.clock.now(),
        lastSeenIp: "127.0.0.1",
      });
      this.keys.markChanged(userId);
    }
    const issued = this.tokens.issue(userId, deviceId, user?.isGuest ?? false, options.refresh ?? false);
    return { user_id: userId, device_id: deviceId, ...issued };
  }

  /** Deletes a device with its tokens, keys and to-device queue. */
  deleteDevice(userId: string, deviceId: string): boolean {
    const byUser = this.devices.get(userId);
    if (!byUser?.delete(deviceId)) return false;
    this.tokens.revokeDevice(userId, deviceId);
    this.keys.deleteDevice(userId, deviceId);
    this.toDevice.deleteDevice(userId, deviceId);
    this.keys.markChanged(userId);
    return true;
  }

  /** Deactivates an account: devices and 3PIDs go, and with erase the profile too. */
  deactivate(userId: string, erase: boolean): void {
    const user = this.users.get(userId);
    if (!user) return;
    for (const d of this.devicesOf(userId)) this.deleteDevice(userId, d.deviceId);
    user.deactivated = true;
    user.passwordHash = undefined;
    user.threepids = [];
    if (erase) user.profile.clear();
  }
}

function hashPassword(
  password: string,
  salt = randomBytes(16).toString("hex"),
): { salt: string; hash: string } {
  // A test server: a salted SHA-256 is enough to keep plain passwords out of memory dumps.
  return { salt, hash: createHash("sha256").update(salt).update(password).digest("hex") };
}
