/**
 * RS256 JSON Web Tokens for the misbehaving provider: it must sign real ID
 * tokens (with wrong claims, or with a key it does not publish) so the
 * client's checks are exercised by genuine responses.
 */
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import type { KeyObject } from "node:crypto";

/** An RSA signing key and its public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

/** A fresh 2048-bit RSA key for RS256. */
export function generateSigningKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = publicKey.export({ format: "jwk" });
  return {
    kid,
    privateKey: createPrivateKey(privateKey.export({ format: "pem", type: "pkcs8" })),
    publicJwk: { ...jwk, kid, use: "sig", alg: "RS256" },
  };
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** Signs `claims` as a compact RS256 JWT with `key`. */
export function signJwt(claims: Record<string, unknown>, key: SigningKey): string {
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: key.kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), key.privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}
