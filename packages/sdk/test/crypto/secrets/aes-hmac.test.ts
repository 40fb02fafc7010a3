/**
 * The m.secret_storage.v1.aes-hmac-sha2 algorithm on its own: round trips,
 * a wrong key / name / tampered ciphertext refused by the MAC, bit 63 of
 * the IV clear, the key check, PBKDF2 passphrases; each checked against an
 * independent implementation of the spec's steps with node:crypto, and
 * against matrix-js-sdk's implementation (both directions), so a secret
 * one client stores the other reads.
 */
import { createCipheriv, createHmac, hkdfSync, pbkdf2Sync } from "node:crypto";
import decryptJs from "matrix-js-sdk/lib/utils/decryptAESSecretStorageItem.js";
import encryptJs from "matrix-js-sdk/lib/utils/encryptAESSecretStorageItem.js";
import { calculateKeyCheck as keyCheckJs } from "matrix-js-sdk/lib/secret-storage.js";
import { describe, expect, it } from "vitest";
import { base64ToBytes } from "../../../src/crypto/recovery-key";
import {
  calculateKeyCheck,
  checkKey,
  decryptAesHmac,
  deriveKeyFromPassphrase,
  encryptAesHmac,
} from "../../../src/crypto/secrets/aesHmac";
import { SecretStorageError } from "../../../src/crypto/secrets/errors";

const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) % 256);
const other = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 1) % 256);

/** The spec's steps, written again with node:crypto. */
function specEncrypt(
  k: Uint8Array,
  name: string,
  text: string,
  iv: Buffer,
): { ciphertext: Buffer; mac: Buffer } {
  const keys = Buffer.from(hkdfSync("sha256", k, Buffer.alloc(32), name, 64));
  const cipher = createCipheriv("aes-256-ctr", keys.subarray(0, 32), iv);
  const ciphertext = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  const mac = createHmac("sha256", keys.subarray(32)).update(ciphertext).digest();
  return { ciphertext, mac };
}

async function rejection(p: Promise<unknown>): Promise<SecretStorageError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretStorageError);
  return error as SecretStorageError;
}

describe("m.secret_storage.v1.aes-hmac-sha2", () => {
  it("round-trips and matches the spec's steps", async () => {
    const secret = "c2VjcmV0IGJhY2t1cCBrZXkgYnl0ZXM";
    const payload = await encryptAesHmac(key, "m.megolm_backup.v1", secret);
    expect(await decryptAesHmac(key, "m.megolm_backup.v1", payload)).toBe(secret);
    const iv = Buffer.from(base64ToBytes(payload.iv));
    expect(iv.length).toBe(16);
    expect((iv[8] ?? 0) & 0x80).toBe(0);
    const expected = specEncrypt(key, "m.megolm_backup.v1", secret, iv);
    expect(Buffer.from(base64ToBytes(payload.ciphertext))).toEqual(expected.ciphertext);
    expect(Buffer.from(base64ToBytes(payload.mac))).toEqual(expected.mac);
    expect(payload.mac).not.toMatch(/=$/);
  });

  it("clears bit 63 of every random IV", async () => {
    const random = (t: Uint8Array<ArrayBuffer>): void => {
      t.fill(0xff);
    };
    const payload = await encryptAesHmac(key, "x", "y", { random });
    expect(base64ToBytes(payload.iv)[8]).toBe(0x7f);
  });

  it("refuses a wrong key, a wrong name and a tampered ciphertext", async () => {
    const payload = await encryptAesHmac(key, "m.cross_signing.master", "seed");
    expect((await rejection(decryptAesHmac(other, "m.cross_signing.master", payload))).code).toBe(
      "wrong_key",
    );
    expect((await rejection(decryptAesHmac(key, "m.cross_signing.self_signing", payload))).code).toBe(
      "wrong_key",
    );
    const bytes = base64ToBytes(payload.ciphertext);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = { ...payload, ciphertext: Buffer.from(bytes).toString("base64") };
    expect((await rejection(decryptAesHmac(key, "m.cross_signing.master", tampered))).code).toBe("wrong_key");
    expect(
      (await rejection(decryptAesHmac(key, "m.cross_signing.master", { ...payload, iv: "%%" }))).code,
    ).toBe("bad_format");
  });

  it("checks a key against a description's iv and mac (padded or not)", async () => {
    const check = await calculateKeyCheck(key);
    const expected = specEncrypt(key, "", "\0".repeat(32), Buffer.from(base64ToBytes(check.iv)));
    expect(Buffer.from(base64ToBytes(check.mac))).toEqual(expected.mac);
    expect(await checkKey(key, check)).toBe(true);
    expect(
      await checkKey(key, { iv: check.iv, mac: Buffer.from(base64ToBytes(check.mac)).toString("base64") }),
    ).toBe(true);
    expect(await checkKey(other, check)).toBe(false);
    expect(await checkKey(key.slice(1), check)).toBe(false);
  });

  it("derives passphrase keys with PBKDF2-SHA-512", async () => {
    const params = { algorithm: "m.pbkdf2" as const, salt: "saltsaltsalt", iterations: 1000 };
    const derived = await deriveKeyFromPassphrase("correct horse", params);
    expect(Buffer.from(derived)).toEqual(pbkdf2Sync("correct horse", "saltsaltsalt", 1000, 32, "sha512"));
    expect((await deriveKeyFromPassphrase("correct horse", { ...params, bits: 512 })).length).toBe(64);
    const wrong = { ...params, algorithm: "m.other" } as unknown as typeof params;
    expect((await rejection(deriveKeyFromPassphrase("x", wrong))).code).toBe("unsupported_algorithm");
  });
});

describe("interop with matrix-js-sdk's secret storage algorithm", () => {
  it("each side decrypts what the other encrypted, and the key checks agree", async () => {
    const ours = await encryptAesHmac(key, "m.cross_signing.user_signing", "our seed");
    expect(await decryptJs(ours, new Uint8Array(key), "m.cross_signing.user_signing")).toBe("our seed");
    const theirs = await encryptJs("their seed", new Uint8Array(key), "m.cross_signing.user_signing");
    expect(await decryptAesHmac(key, "m.cross_signing.user_signing", theirs)).toBe("their seed");
    const check = await keyCheckJs(new Uint8Array(key));
    expect(await checkKey(key, check)).toBe(true);
    expect(await checkKey(other, check)).toBe(false);
    const mine = await calculateKeyCheck(key);
    expect((await keyCheckJs(new Uint8Array(key), mine.iv)).mac.replace(/=+$/, "")).toBe(mine.mac);
  });
});
