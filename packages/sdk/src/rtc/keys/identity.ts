/**
 * The identity a member has on the SFU, which media keys are bound to:
 * legacy `userId:deviceId`, or in the newer mode the unpadded base64 of
 * SHA-256 over the JSON array [userId, deviceId, memberId] (what the
 * token service computes too).
 */
import { encodeBase64 } from "../../crypto/attachments/base64";

export type IdentityMode = "legacy" | "hashed";

export function legacyIdentity(userId: string, deviceId: string): string {
  return `${userId}:${deviceId}`;
}

export async function hashedIdentity(userId: string, deviceId: string, memberId: string): Promise<string> {
  const data = new TextEncoder().encode(JSON.stringify([userId, deviceId, memberId]));
  const digest = await globalThis.crypto.subtle.digest("SHA-256", data);
  return encodeBase64(new Uint8Array(digest));
}

export async function identityOf(
  mode: IdentityMode,
  userId: string,
  deviceId: string,
  memberId: string,
): Promise<string> {
  return mode === "legacy" ? legacyIdentity(userId, deviceId) : hashedIdentity(userId, deviceId, memberId);
}
