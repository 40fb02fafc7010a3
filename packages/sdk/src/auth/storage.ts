/**
 * Where a session's tokens persist: a small injectable SessionStorage, with
 * an in-memory implementation and an adapter over anything shaped like the
 * Web Storage API (localStorage). The SDK core compiles without DOM types,
 * so the adapter takes a loosely typed key-value store. What is read back
 * is untrusted JSON and is checked field by field.
 */

/** Everything needed to resume a session. */
export interface SessionData {
  homeserverUrl: string;
  identityServerUrl?: string;
  userId: string;
  deviceId: string;
  /** Absent after a soft logout: the old token no longer works. */
  accessToken?: string;
  refreshToken?: string;
  /** When the access token expires, in ms since the epoch (from expires_in_ms). */
  expiresAt?: number;
  isGuest?: boolean;
  /** Set for an OIDC sign-in: refresh and logout go to this provider, as this client. */
  oidc?: OidcSessionInfo;
}

/** The provider of an OIDC session and the client id the app registered there. */
export interface OidcSessionInfo {
  issuer: string;
  clientId: string;
  /** The sign-in ID token's `sub`: a refreshed ID token must name the same (OIDC Core 12.2). */
  subject?: string;
}

/** Persistence of one session. Methods may be synchronous or asynchronous. */
export interface SessionStorage {
  load(): Promise<SessionData | null> | SessionData | null;
  save(data: SessionData): Promise<void> | void;
  clear(): Promise<void> | void;
}

/** Keeps the session in memory (tests, or a session that must not outlive the page). */
export class MemorySessionStorage implements SessionStorage {
  private data: SessionData | null = null;

  load(): SessionData | null {
    return this.data === null ? null : { ...this.data };
  }

  save(data: SessionData): void {
    this.data = { ...data };
  }

  clear(): void {
    this.data = null;
  }
}

/** The part of the Web Storage API the adapter uses (localStorage fits). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A KeyValueStorage in memory (hosts without Web Storage, tests); `entries` shows what it holds. */
export class MemoryKeyValueStorage implements KeyValueStorage {
  readonly entries = new Map<string, string>();

  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }

  removeItem(key: string): void {
    this.entries.delete(key);
  }
}

/** The default key under which the session is stored. */
export const SESSION_STORAGE_KEY = "lattice.session";

/** Stores the session as JSON under one key of a Web-Storage-like store. */
export class WebSessionStorage implements SessionStorage {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly key: string = SESSION_STORAGE_KEY,
  ) {}

  load(): SessionData | null {
    const raw = this.storage.getItem(this.key);
    if (raw === null) return null;
    try {
      return parseSessionData(JSON.parse(raw));
    } catch {
      // A corrupt entry is no session, never a crash.
      return null;
    }
  }

  save(data: SessionData): void {
    this.storage.setItem(this.key, JSON.stringify(data));
  }

  clear(): void {
    this.storage.removeItem(this.key);
  }
}

function optString(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === "string" ? v : undefined;
}

/** Narrows untrusted JSON to SessionData; null when required fields are missing. */
export function parseSessionData(value: unknown): SessionData | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  const homeserverUrl = optString(obj, "homeserverUrl");
  const userId = optString(obj, "userId");
  const deviceId = optString(obj, "deviceId");
  if (homeserverUrl === undefined || userId === undefined || deviceId === undefined) return null;
  const out: SessionData = { homeserverUrl, userId, deviceId };
  const identityServerUrl = optString(obj, "identityServerUrl");
  if (identityServerUrl !== undefined) out.identityServerUrl = identityServerUrl;
  const accessToken = optString(obj, "accessToken");
  if (accessToken !== undefined) out.accessToken = accessToken;
  const refreshToken = optString(obj, "refreshToken");
  if (refreshToken !== undefined) out.refreshToken = refreshToken;
  if (typeof obj["expiresAt"] === "number" && Number.isFinite(obj["expiresAt"])) {
    out.expiresAt = obj["expiresAt"];
  }
  if (obj["isGuest"] === true) out.isGuest = true;
  const oidc = obj["oidc"];
  if (typeof oidc === "object" && oidc !== null && !Array.isArray(oidc)) {
    const issuer = optString(oidc as Record<string, unknown>, "issuer");
    const clientId = optString(oidc as Record<string, unknown>, "clientId");
    const subject = optString(oidc as Record<string, unknown>, "subject");
    if (issuer !== undefined && clientId !== undefined)
      out.oidc = { issuer, clientId, ...(subject !== undefined ? { subject } : {}) };
  }
  return out;
}
