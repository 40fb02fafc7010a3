/**
 * Validation of untrusted EncryptedFile JSON and the strict base64 under it:
 * every malformed JWK, IV and hash is an AttachmentError with a code,
 * accepted encodings (padded, unpadded, URL-safe k) decode, and arbitrary
 * JSON never escapes as anything but an AttachmentError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64 } from "../../../src/crypto/attachments/base64";
import { decryptAttachment, encryptAttachment } from "../../../src/crypto/attachments/cipher";
import { AttachmentError } from "../../../src/crypto/attachments/errors";
import { decodeFileInfo, validateEncryptedFile } from "../../../src/crypto/attachments/validate";
import { b64, b64url, fileFor, nodeCtr, pattern } from "./helpers";

const key = pattern(32, 1);
const iv = new Uint8Array(16);
iv.set(pattern(8, 2));
const data = pattern(40, 3);
const ciphertext = nodeCtr(key, iv, data);
const good = (): Record<string, unknown> => ({
  url: "mxc://example.org/abcDEF_123-x",
  ...fileFor(key, iv, ciphertext),
});
const goodKey = (): Record<string, unknown> => ({ ...(good()["key"] as Record<string, unknown>) });

function codeOf(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    return (error as AttachmentError).code;
  }
}

describe("base64", () => {
  it("round trips any bytes in both alphabets, matching Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const standard = encodeBase64(bytes);
        const urlsafe = encodeBase64(bytes, "urlsafe");
        expect(standard).toBe(b64(bytes));
        expect(urlsafe).toBe(b64url(bytes));
        expect(decodeBase64(standard, "standard")).toEqual(bytes);
        expect(decodeBase64(urlsafe, "urlsafe")).toEqual(bytes);
        expect(decodeBase64(Buffer.from(bytes).toString("base64"), "standard")).toEqual(bytes);
      }),
    );
  });

  it("refuses non-canonical and foreign input", () => {
    for (const bad of ["A", "AB=", "AB===", "A=BC", "AB C", "AB\n", "ABC?", "QR==", "QUI=x", "é", "+-AA"]) {
      expect(decodeBase64(bad, "either"), bad).toBeNull();
    }
    expect(decodeBase64("+/+/", "urlsafe")).toBeNull();
    expect(decodeBase64("-_-_", "standard")).toBeNull();
    expect(decodeBase64("", "standard")).toEqual(new Uint8Array(0));
  });
});

describe("accepted forms", () => {
  it("a well-formed v2 file validates and decrypts", async () => {
    expect(validateEncryptedFile(good())).toEqual(good());
    expect(await decryptAttachment(ciphertext, good())).toEqual(data);
  });

  it("padded iv and hash, padded or standard-alphabet k, extra key_ops and hashes are accepted", async () => {
    const file = good();
    const padded = {
      ...file,
      iv: Buffer.from(iv).toString("base64"),
      hashes: { sha256: `${(file["hashes"] as { sha256: string }).sha256}=`, sha512: "ignored" },
      key: { ...goodKey(), k: `${b64url(key)}=`, key_ops: ["decrypt", "wrapKey", "encrypt"] },
    };
    expect(await decryptAttachment(ciphertext, padded)).toEqual(data);
    const standardK = { ...file, key: { ...goodKey(), k: Buffer.from(key).toString("base64") } };
    expect(await decryptAttachment(ciphertext, standardK)).toEqual(data);
  });

  it("what encryptAttachment produces always validates with a url added", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        const { file } = await encryptAttachment(bytes);
        expect(() => validateEncryptedFile({ url: "mxc://a.b/c", ...file })).not.toThrow();
      }),
      { numRuns: 30 },
    );
  });
});

describe("malformed files", () => {
  const keyCases: Array<[string, unknown]> = [
    ["kty missing", { ...goodKey(), kty: undefined }],
    ["kty RSA", { ...goodKey(), kty: "RSA" }],
    ["alg A128CTR", { ...goodKey(), alg: "A128CTR" }],
    ["alg lower case", { ...goodKey(), alg: "a256ctr" }],
    ["ext false", { ...goodKey(), ext: false }],
    ["ext string", { ...goodKey(), ext: "true" }],
    ["key_ops missing", { ...goodKey(), key_ops: undefined }],
    ["key_ops string", { ...goodKey(), key_ops: "encrypt,decrypt" }],
    ["key_ops without decrypt", { ...goodKey(), key_ops: ["encrypt"] }],
    ["key_ops without encrypt", { ...goodKey(), key_ops: ["decrypt"] }],
    ["key_ops non-string", { ...goodKey(), key_ops: ["encrypt", "decrypt", 3] }],
    ["k missing", { ...goodKey(), k: undefined }],
    ["k number", { ...goodKey(), k: 42 }],
    ["k 16 bytes", { ...goodKey(), k: b64url(pattern(16, 1)) }],
    ["k 33 bytes", { ...goodKey(), k: b64url(pattern(33, 1)) }],
    ["k mixed alphabets", { ...goodKey(), k: `-+${b64url(key).slice(2)}` }],
    ["k with whitespace", { ...goodKey(), k: ` ${b64url(key)}` }],
    ["k huge", { ...goodKey(), k: "A".repeat(1_000_000) }],
    ["key array", [goodKey()]],
    ["key null", null],
    ["key string", "secret"],
  ];
  for (const [name, badKey] of keyCases) {
    it(`refuses a JWK with ${name}`, () => {
      expect(codeOf(() => decodeFileInfo({ ...good(), key: badKey }))).toBe("malformed_file");
    });
  }

  const fileCases: Array<[string, unknown]> = [
    ["null", null],
    ["an array", [good()]],
    ["a string", "file"],
    ["no iv", { ...good(), iv: undefined }],
    ["an iv of 15 bytes", { ...good(), iv: b64(pattern(15, 1)) }],
    ["an iv of 17 bytes", { ...good(), iv: b64(pattern(17, 1)) }],
    ["a URL-safe iv", { ...good(), iv: b64url(hex16WithUrlChars()) }],
    ["an iv number", { ...good(), iv: 7 }],
    ["no hashes", { ...good(), hashes: undefined }],
    ["hashes an array", { ...good(), hashes: ["x"] }],
    ["no sha256", { ...good(), hashes: { sha512: "x" } }],
    ["sha256 of 31 bytes", { ...good(), hashes: { sha256: b64(pattern(31, 1)) } }],
    ["sha256 a number", { ...good(), hashes: { sha256: 1 } }],
    [
      "sha256 only on the prototype",
      { ...good(), hashes: JSON.parse(`{"__proto__":{"sha256":"x"}}`) as unknown },
    ],
  ];
  for (const [name, bad] of fileCases) {
    it(`refuses a file with ${name}`, () => {
      expect(codeOf(() => decodeFileInfo(bad))).toBe("malformed_file");
    });
  }

  it("a full file needs an mxc url", () => {
    expect(codeOf(() => validateEncryptedFile({ ...good(), url: undefined }))).toBe("malformed_file");
    expect(codeOf(() => validateEncryptedFile({ ...good(), url: "https://example.org/x" }))).toBe(
      "malformed_file",
    );
    expect(codeOf(() => validateEncryptedFile({ ...good(), url: "mxc://example.org/../../x" }))).toBe(
      "malformed_file",
    );
    // decryptAttachment itself does not need the url.
    expect(codeOf(() => decodeFileInfo({ ...good(), url: undefined }))).toBe("ok");
  });

  it("arbitrary JSON and arbitrary field replacements only ever give an AttachmentError", async () => {
    const fields = ["url", "key", "iv", "hashes", "v", "__proto__"];
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom(...fields),
        fc.jsonValue(),
        async (any, field, value) => {
          expect(["ok", "malformed_file", "unsupported_version"]).toContain(
            codeOf(() => validateEncryptedFile(any)),
          );
          const mutated = JSON.parse(JSON.stringify({ ...good(), [field]: value })) as unknown;
          try {
            await decryptAttachment(ciphertext, mutated);
          } catch (error) {
            expect(error).toBeInstanceOf(AttachmentError);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** 16 bytes whose base64 contains "-" or "_" in the URL-safe alphabet. */
function hex16WithUrlChars(): Uint8Array {
  return new Uint8Array(Buffer.from("fbfffbfffbfffbfffbfffbfffbfffbff", "hex"));
}
