/**
 * Secret storage (4S) in account data: key descriptions
 * (m.secret_storage.key.<id>, algorithm m.secret_storage.v1.aes-hmac-sha2
 * with the iv + mac key check and optionally m.pbkdf2 passphrase
 * parameters), the default key (m.secret_storage.default_key), and secrets
 * (m.cross_signing.*, m.megolm_backup.v1) stored as `{ encrypted: { <key
 * id>: { iv, ciphertext, mac } } }`. A key is given back by the user as a
 * recovery key (the backup key's format) or a passphrase; a wrong one is
 * refused by the key check before any secret is touched.
 */
import { getAccountData, setAccountData } from "../../api/account-data";
import type { HttpApi } from "../../http/types";
import { decodeRecoveryKey, encodeRecoveryKey, RecoveryKeyError } from "../recovery-key";
import type { AesHmacPayload, Pbkdf2Params, RandomBytes } from "./aesHmac";
import {
  AES_HMAC_SHA2,
  calculateKeyCheck,
  checkKey,
  decryptAesHmac,
  deriveKeyFromPassphrase,
  encryptAesHmac,
  randomString,
} from "./aesHmac";
import { SecretStorageError } from "./errors";

/** Account data type naming the default key. */
export const DEFAULT_KEY_TYPE = "m.secret_storage.default_key";
/** Account data type prefix of key descriptions. */
export const KEY_TYPE_PREFIX = "m.secret_storage.key.";

/** The secrets the product stores. */
export const SecretName = {
  CrossSigningMaster: "m.cross_signing.master",
  CrossSigningSelfSigning: "m.cross_signing.self_signing",
  CrossSigningUserSigning: "m.cross_signing.user_signing",
  MegolmBackup: "m.megolm_backup.v1",
} as const;
export type SecretName = (typeof SecretName)[keyof typeof SecretName];

/** PBKDF2 rounds for new passphrase keys (the spec leaves it to clients; slow on purpose). */
export const DEFAULT_PBKDF2_ITERATIONS = 500_000;

/** A key description as stored in account data. */
export interface SecretStorageKeyDescription {
  name?: string;
  algorithm: string;
  passphrase?: Pbkdf2Params;
  iv?: string;
  mac?: string;
}

/** A storage key in hand: its id and its 32 bytes. */
export interface UnlockedKey {
  keyId: string;
  key: Uint8Array;
}

/** A newly created key: what to show the user (the recovery key) and the key itself. */
export interface CreatedSecretStorageKey extends UnlockedKey {
  recoveryKey: string;
  description: SecretStorageKeyDescription;
}

export interface SecretStorageOptions {
  random?: RandomBytes;
  /** PBKDF2 rounds for new passphrase keys; tests lower it. */
  pbkdf2Iterations?: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function parseDescription(content: Record<string, unknown> | null): SecretStorageKeyDescription | null {
  if (!content || typeof content["algorithm"] !== "string") return null;
  const out: SecretStorageKeyDescription = { algorithm: content["algorithm"] };
  if (typeof content["name"] === "string") out.name = content["name"];
  if (typeof content["iv"] === "string") out.iv = content["iv"];
  if (typeof content["mac"] === "string") out.mac = content["mac"];
  const p = content["passphrase"];
  if (isObject(p) && p["algorithm"] === "m.pbkdf2" && typeof p["salt"] === "string") {
    const iterations = p["iterations"];
    if (typeof iterations === "number" && Number.isInteger(iterations) && iterations > 0) {
      out.passphrase = { algorithm: "m.pbkdf2", salt: p["salt"], iterations };
      if (typeof p["bits"] === "number") out.passphrase.bits = p["bits"];
    }
  }
  return out;
}

function parsePayload(value: unknown): AesHmacPayload | undefined {
  if (!isObject(value)) return undefined;
  const { iv, ciphertext, mac } = value;
  return typeof iv === "string" && typeof ciphertext === "string" && typeof mac === "string"
    ? { iv, ciphertext, mac }
    : undefined;
}

/** Secret storage of one user, over account data. */
export class SecretStorage {
  constructor(
    private readonly http: HttpApi,
    private readonly userId: string,
    private readonly options: SecretStorageOptions = {},
  ) {}

  /**
   * Creates a new AES-HMAC key (random, or from `passphrase` with fresh
   * PBKDF2 parameters), stores its description with the key check and,
   * unless `setDefault` is false, makes it the default key.
   */
  async createKey(
    options: { passphrase?: string; pbkdf2Iterations?: number; name?: string; setDefault?: boolean } = {},
  ): Promise<CreatedSecretStorageKey> {
    const random = this.options.random;
    let key: Uint8Array;
    let passphrase: Pbkdf2Params | undefined;
    if (options.passphrase !== undefined) {
      passphrase = {
        algorithm: "m.pbkdf2",
        salt: randomString(32, random),
        iterations: options.pbkdf2Iterations ?? this.options.pbkdf2Iterations ?? DEFAULT_PBKDF2_ITERATIONS,
        bits: 256,
      };
      key = await deriveKeyFromPassphrase(options.passphrase, passphrase);
    } else {
      key = new Uint8Array(32);
      (random ?? ((t: Uint8Array<ArrayBuffer>) => globalThis.crypto.getRandomValues(t)))(
        key as Uint8Array<ArrayBuffer>,
      );
    }
    const keyId = randomString(32, random);
    const check = await calculateKeyCheck(key, random ? { random } : {});
    const description: SecretStorageKeyDescription = {
      algorithm: AES_HMAC_SHA2,
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(passphrase ? { passphrase } : {}),
      ...check,
    };
    await setAccountData(this.http, this.userId, KEY_TYPE_PREFIX + keyId, { ...description });
    if (options.setDefault !== false) await this.setDefaultKeyId(keyId);
    return { keyId, key, recoveryKey: encodeRecoveryKey(key), description };
  }

  /** The default key's id, or null when none is set. */
  async getDefaultKeyId(): Promise<string | null> {
    const content = await getAccountData(this.http, this.userId, DEFAULT_KEY_TYPE);
    const key = content?.["key"];
    return typeof key === "string" && key !== "" ? key : null;
  }

  /** Makes `keyId` the default key. */
  async setDefaultKeyId(keyId: string): Promise<void> {
    await setAccountData(this.http, this.userId, DEFAULT_KEY_TYPE, { key: keyId });
  }

  /** A key's description, or null when there is none (or it is unreadable). */
  async getKeyDescription(keyId: string): Promise<SecretStorageKeyDescription | null> {
    return parseDescription(await getAccountData(this.http, this.userId, KEY_TYPE_PREFIX + keyId));
  }

  private async describe(
    keyId?: string,
  ): Promise<{ keyId: string; description: SecretStorageKeyDescription }> {
    const id = keyId ?? (await this.getDefaultKeyId());
    if (id === null) throw new SecretStorageError("no_default_key", "Secret storage has no default key");
    const description = await this.getKeyDescription(id);
    if (!description) throw new SecretStorageError("unknown_key", `Secret storage has no key ${id}`);
    if (description.algorithm !== AES_HMAC_SHA2) {
      throw new SecretStorageError(
        "unsupported_algorithm",
        `Unknown secret storage algorithm ${description.algorithm}`,
      );
    }
    return { keyId: id, description };
  }

  private async checked(
    keyId: string,
    description: SecretStorageKeyDescription,
    key: Uint8Array,
  ): Promise<UnlockedKey> {
    // A description without a check cannot refuse a key; the MAC of each secret still will.
    if (description.iv !== undefined && description.mac !== undefined) {
      if (!(await checkKey(key, { iv: description.iv, mac: description.mac }))) {
        throw new SecretStorageError("wrong_key", "The key does not match secret storage");
      }
    }
    return { keyId, key };
  }

  /** Unlocks a key (the default one when `keyId` is omitted) with a recovery key. */
  async keyFromRecoveryKey(recoveryKey: string, keyId?: string): Promise<UnlockedKey> {
    const { keyId: id, description } = await this.describe(keyId);
    let key: Uint8Array;
    try {
      key = decodeRecoveryKey(recoveryKey);
    } catch (error) {
      if (error instanceof RecoveryKeyError)
        throw new SecretStorageError("wrong_key", error.message, { cause: error });
      throw error;
    }
    return this.checked(id, description, key);
  }

  /** Unlocks a key (the default one when `keyId` is omitted) with its passphrase. */
  async keyFromPassphrase(passphrase: string, keyId?: string): Promise<UnlockedKey> {
    const { keyId: id, description } = await this.describe(keyId);
    if (!description.passphrase) {
      throw new SecretStorageError(
        "wrong_key",
        "This secret storage key has no passphrase; use the recovery key",
      );
    }
    return this.checked(id, description, await deriveKeyFromPassphrase(passphrase, description.passphrase));
  }

  /**
   * Stores a secret encrypted with each given key, replacing what was
   * stored under that name.
   */
  async store(name: string, secret: string, keys: readonly UnlockedKey[]): Promise<void> {
    const random = this.options.random;
    const encrypted: Record<string, AesHmacPayload> = {};
    for (const { keyId, key } of keys) {
      encrypted[keyId] = await encryptAesHmac(key, name, secret, random ? { random } : {});
    }
    await setAccountData(this.http, this.userId, name, { encrypted });
  }

  /** The ids of the keys a secret is stored with (empty when it is not stored). */
  async storedWith(name: string): Promise<string[]> {
    const content = await getAccountData(this.http, this.userId, name);
    const encrypted = content?.["encrypted"];
    return isObject(encrypted) ? Object.keys(encrypted).filter((k) => parsePayload(encrypted[k])) : [];
  }

  /** Reads and decrypts a secret with an unlocked key. */
  async get(name: string, unlocked: UnlockedKey): Promise<string> {
    const content = await getAccountData(this.http, this.userId, name);
    const encrypted = content?.["encrypted"];
    const payload = isObject(encrypted) ? parsePayload(encrypted[unlocked.keyId]) : undefined;
    if (!payload) {
      throw new SecretStorageError(
        "missing_secret",
        `The secret ${name} is not stored with key ${unlocked.keyId}`,
      );
    }
    return decryptAesHmac(unlocked.key, name, payload);
  }
}
