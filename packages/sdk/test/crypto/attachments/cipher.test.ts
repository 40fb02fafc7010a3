/**
 * Encryption and decryption of attachments: known-answer vectors (NIST
 * SP 800-38A CTR-AES256 and one built in the Matrix format), cross-checks
 * against Node's createCipheriv and against matrix-encrypt-attachment,
 * property round trips from 0 bytes to 1 MB, tampering, counter wrap and the
 * legacy version policy.
 */
import fc from "fast-check";
import * as reference from "matrix-encrypt-attachment";
import { describe, expect, it } from "vitest";
import { decryptAttachment, encryptAttachment } from "../../../src/crypto/attachments/cipher";
import { AttachmentError } from "../../../src/crypto/attachments/errors";
import { b64, b64url, bytesEqual, fileFor, hex, nodeCtr, nodeSha256, pattern } from "./helpers";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    return (error as AttachmentError).code;
  }
}

/** A random source that hands out the given bytes in order (key first, then the nonce). */
function scriptedRandom(...chunks: Uint8Array[]): (target: Uint8Array) => void {
  const queue = [...chunks];
  return (target) => {
    const next = queue.shift();
    if (next?.length !== target.length) throw new Error("unexpected random request");
    target.set(next);
  };
}

describe("known answers", () => {
  // NIST SP 800-38A, F.5.5 CTR-AES256.Encrypt.
  const key = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
  const counter = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  const plaintext = hex(`6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
    30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710`);
  const ciphertext = hex(`601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
    2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6`);

  it("decrypts the NIST CTR-AES256 vector", async () => {
    expect(await decryptAttachment(ciphertext, fileFor(key, counter, ciphertext))).toEqual(plaintext);
    // The independent reference agrees with the published vector.
    expect(nodeCtr(key, counter, plaintext)).toEqual(ciphertext);
  });

  it("encrypts in the Matrix v2 format: fixed key and nonce give the reference ciphertext and info", async () => {
    const fixedKey = pattern(32, 7);
    const nonce = hex("c3eb04d797f349cd");
    const data = new TextEncoder().encode("Lattice encrypted attachment known-answer test ".repeat(3));
    const { data: out, file } = await encryptAttachment(data, {
      randomBytes: scriptedRandom(fixedKey, nonce),
    });
    const iv = new Uint8Array(16);
    iv.set(nonce);
    expect(out).toEqual(nodeCtr(fixedKey, iv, data));
    expect(file).toEqual({
      v: "v2",
      key: { kty: "oct", key_ops: ["encrypt", "decrypt"], alg: "A256CTR", k: b64url(fixedKey), ext: true },
      iv: b64(iv),
      hashes: { sha256: b64(nodeSha256(out)) },
    });
    // The spec's example IV shape: 22 characters, the counter half all zero.
    expect(file.iv).toMatch(/^[A-Za-z0-9+/]{11}AAAAAAAAAAA$/);
    expect(file.iv).toBe("w+sE15fzSc0AAAAAAAAAAA");
  });
});

describe("interop with matrix-encrypt-attachment", () => {
  it("decrypts what the reference library encrypted", async () => {
    const data = pattern(70_001, 3);
    const theirs = await reference.encryptAttachment(data.slice().buffer);
    const plain = await decryptAttachment(new Uint8Array(theirs.data), theirs.info);
    expect(bytesEqual(plain, data)).toBe(true);
  });

  it("the reference library decrypts what we encrypted", async () => {
    const data = pattern(33_333, 9);
    const ours = await encryptAttachment(data);
    const plain = await reference.decryptAttachment(ours.data.slice().buffer, ours.file);
    expect(bytesEqual(new Uint8Array(plain), data)).toBe(true);
  });
});

describe("round trips", () => {
  it("any size from 0 bytes to 1 MB: decrypts to the input and matches Node's AES-CTR", async () => {
    await fc.assert(
      // The edges (empty, one byte, a block boundary, exactly 1 MB) always run; fast-check adds the rest.
      fc.asyncProperty(fc.integer({ min: 0, max: 1 << 20 }), fc.integer(), async (size, seed) => {
        const data = pattern(size, seed);
        const { data: ciphertext, file } = await encryptAttachment(data);
        expect(ciphertext.length).toBe(size);
        expect(bytesEqual(await decryptAttachment(ciphertext, file), data)).toBe(true);
        const key = Buffer.from(file.key.k, "base64url");
        const iv = Buffer.from(file.iv, "base64");
        expect(bytesEqual(nodeCtr(key, iv, ciphertext), data)).toBe(true);
        expect(b64(nodeSha256(ciphertext))).toBe(file.hashes.sha256);
      }),
      {
        numRuns: 20,
        examples: [
          [0, 1],
          [1, 2],
          [16, 3],
          [17, 4],
          [1 << 20, 5],
        ],
      },
    );
  }, 120_000);

  it("small arbitrary contents round trip, with fresh key and nonce each time", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (data) => {
        const { data: ciphertext, file } = await encryptAttachment(data);
        expect(seen.has(file.key.k + file.iv)).toBe(false);
        seen.add(file.key.k + file.iv);
        expect(await decryptAttachment(ciphertext, file)).toEqual(data);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it("does not read a shared or offset buffer wrongly", async () => {
    const backing = new SharedArrayBuffer(64);
    const view = new Uint8Array(backing, 8, 40);
    view.set(pattern(40, 5));
    const { data: ciphertext, file } = await encryptAttachment(view);
    const offset = new Uint8Array(ciphertext.length + 5);
    offset.set(ciphertext, 5);
    expect(await decryptAttachment(offset.subarray(5), file)).toEqual(pattern(40, 5));
  });
});

describe("tampering", () => {
  it("any flipped ciphertext bit is a hash_mismatch", async () => {
    const data = pattern(1000, 11);
    const { data: ciphertext, file } = await encryptAttachment(data);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 7 }), async (i, bit) => {
        const bad = ciphertext.slice();
        bad[i] = (bad[i] ?? 0) ^ (1 << bit);
        expect(await codeOf(decryptAttachment(bad, file))).toBe("hash_mismatch");
      }),
      { numRuns: 20 },
    );
  }, 60_000);

  it("truncated, extended or empty ciphertext is a hash_mismatch", async () => {
    const { data: ciphertext, file } = await encryptAttachment(pattern(64, 1));
    expect(await codeOf(decryptAttachment(ciphertext.subarray(0, 63), file))).toBe("hash_mismatch");
    const longer = new Uint8Array(65);
    longer.set(ciphertext);
    expect(await codeOf(decryptAttachment(longer, file))).toBe("hash_mismatch");
    expect(await codeOf(decryptAttachment(new Uint8Array(0), file))).toBe("hash_mismatch");
  });

  it("a changed hash is a hash_mismatch, even when the ciphertext is intact", async () => {
    const { data: ciphertext, file } = await encryptAttachment(pattern(64, 2));
    const other = b64(nodeSha256(pattern(64, 3)));
    const tampered = { ...file, hashes: { sha256: other } };
    expect(await codeOf(decryptAttachment(ciphertext, tampered))).toBe("hash_mismatch");
    expect(await codeOf(decryptAttachment(ciphertext, file))).toBe("resolved");
  });

  it("a different key decrypts to garbage, never to the plaintext (CTR has no integrity)", async () => {
    const data = pattern(64, 4);
    const { data: ciphertext, file } = await encryptAttachment(data);
    const wrong = { ...file, key: { ...file.key, k: b64url(pattern(32, 99)) } };
    expect(await decryptAttachment(ciphertext, wrong)).not.toEqual(data);
  });
});

describe("counter policy", () => {
  const key = pattern(32, 21);
  const data = pattern(48, 22); // three blocks

  it("refuses a 64-bit counter that would wrap inside the file", async () => {
    const iv = hex("0102030405060708 fffffffffffffffe"); // two blocks left before the wrap
    const ciphertext = nodeCtr(key, iv, data);
    expect(await codeOf(decryptAttachment(ciphertext, fileFor(key, iv, ciphertext)))).toBe("counter_wrap");
  });

  it("accepts a counter that ends exactly at the top", async () => {
    const iv = hex("0102030405060708 fffffffffffffffd"); // exactly three blocks left
    const ciphertext = nodeCtr(key, iv, data);
    expect(await decryptAttachment(ciphertext, fileFor(key, iv, ciphertext))).toEqual(data);
  });

  it("v1 is refused by default and decrypted with a 64-bit counter when legacy versions are allowed", async () => {
    const iv = hex("a1a2a3a4a5a6a7a8 b1b2b3b4b5b6b7b8");
    const ciphertext = nodeCtr(key, iv, data);
    const file = fileFor(key, iv, ciphertext, "v1");
    expect(await codeOf(decryptAttachment(ciphertext, file))).toBe("unsupported_version");
    expect(await decryptAttachment(ciphertext, file, { allowLegacyVersions: true })).toEqual(data);
  });

  it("v0 (no v) uses the full 128-bit counter: the carry reaches the nonce", async () => {
    const iv = hex("0102030405060708 ffffffffffffffff"); // wraps after the first block
    const ciphertext = nodeCtr(key, iv, data); // Node carries across all 128 bits
    const file = fileFor(key, iv, ciphertext, null);
    expect(await codeOf(decryptAttachment(ciphertext, file))).toBe("unsupported_version");
    expect(await decryptAttachment(ciphertext, file, { allowLegacyVersions: true })).toEqual(data);
  });

  it("unknown versions are refused even with legacy versions allowed", async () => {
    const iv = new Uint8Array(16);
    const ciphertext = nodeCtr(key, iv, data);
    for (const v of ["v3", "V2", "", 2, null]) {
      const file = { ...fileFor(key, iv, ciphertext), v };
      expect(await codeOf(decryptAttachment(ciphertext, file, { allowLegacyVersions: true }))).toBe(
        "unsupported_version",
      );
    }
  });
});
