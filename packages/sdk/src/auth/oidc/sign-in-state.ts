/**
 * The sign-in state kept between sending the browser to the provider and
 * its return (SPEC.md §3: homeserverUrl, nonce, identityServerUrl), keyed by
 * the OAuth `state`, plus what the code exchange needs (code verifier,
 * redirect URI, client id, issuer). It goes stale after 900 s (SPEC §9).
 * Storage is a small injectable interface; what it returns is untrusted and
 * checked field by field.
 */
import { OidcError } from "./errors";
import { isRecord } from "./fetch";
import type { KeyValueStorage } from "../storage";

/** SPEC §9: stored sign-in state older than this is not used. */
export const STALE_STATE_MS = 900_000;

/** One pending sign-in. */
export interface SignInState {
  homeserverUrl: string;
  nonce: string;
  identityServerUrl?: string;
  codeVerifier: string;
  redirectUri: string;
  clientId: string;
  issuer: string;
  deviceId: string;
  /** When the sign-in started, in ms since the epoch. */
  createdAt: number;
}

/** Where pending sign-ins are kept. Methods may be synchronous or asynchronous. */
export interface SignInStateStorage {
  get(key: string): unknown;
  set(key: string, value: SignInState): unknown;
  remove(key: string): unknown;
}

/** Keeps pending sign-ins in memory (tests, or an app that never reloads during sign-in). */
export class MemorySignInStateStorage implements SignInStateStorage {
  private readonly entries = new Map<string, SignInState>();

  get(key: string): SignInState | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: SignInState): void {
    this.entries.set(key, { ...value });
  }

  remove(key: string): void {
    this.entries.delete(key);
  }
}

const KEY_PREFIX = "lattice_oidc_state_";

/**
 * Loosely typed key-value storage, shaped like the Web Storage API
 * (sessionStorage). The SDK core compiles without DOM types, hence the
 * structural type.
 */
export type KeyValueStore = KeyValueStorage;

/** Keeps pending sign-ins in a Web Storage (sessionStorage survives the redirect). */
export class WebSignInStateStorage implements SignInStateStorage {
  constructor(private readonly store: KeyValueStore) {}

  get(key: string): unknown {
    const raw = this.store.getItem(KEY_PREFIX + key);
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  }

  set(key: string, value: SignInState): void {
    this.store.setItem(KEY_PREFIX + key, JSON.stringify(value));
  }

  remove(key: string): void {
    this.store.removeItem(KEY_PREFIX + key);
  }
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}

/**
 * Reads and removes the state stored under `key`: each sign-in completes
 * once. Missing, malformed or stale (older than 900 s at `now`): 'State
 * required to finish logging in is not found in storage'. Present but
 * without homeserverUrl or nonce: 'Stored state needs homeserverUrl and
 * nonce'.
 */
export async function takeSignInState(
  storage: SignInStateStorage,
  key: string,
  now: number,
): Promise<SignInState> {
  const raw = await storage.get(key);
  await storage.remove(key);
  const missing = (why: string): OidcError =>
    new OidcError("MissingOrInvalidStoredState", { cause: new Error(why) });
  if (!isRecord(raw)) throw missing(`no stored state for ${JSON.stringify(key)}`);
  const createdAt = raw["createdAt"];
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt))
    throw missing("stored state has no creation time");
  if (now - createdAt > STALE_STATE_MS) throw missing(`stored state is ${now - createdAt} ms old`);
  const { homeserverUrl, nonce } = raw;
  if (
    typeof homeserverUrl !== "string" ||
    homeserverUrl === "" ||
    typeof nonce !== "string" ||
    nonce === ""
  ) {
    throw new OidcError("StoredStateIncomplete");
  }
  const { codeVerifier, redirectUri, clientId, issuer, deviceId, identityServerUrl } = raw;
  if (
    typeof codeVerifier !== "string" ||
    typeof redirectUri !== "string" ||
    typeof clientId !== "string" ||
    typeof issuer !== "string" ||
    typeof deviceId !== "string" ||
    !optionalString(identityServerUrl)
  ) {
    throw missing("stored state is malformed");
  }
  return {
    homeserverUrl,
    nonce,
    codeVerifier,
    redirectUri,
    clientId,
    issuer,
    deviceId,
    createdAt,
    ...(identityServerUrl !== undefined ? { identityServerUrl } : {}),
  };
}
