/**
 * Helpers of the LiveKit interop scenarios: the identity and room names the
 * token service derives (unpadded base64 of SHA-256), an OpenID token from
 * any homeserver, and the SFU's own list of rooms, asked through its server
 * API with a token signed by the SFU's secret.
 */
import { createHash, createHmac } from "node:crypto";
import { expect } from "vitest";
import type { LiveKitHandle } from "@lattice/testserver/livekit";
import type { OpenIdToken } from "../../src/api/types/server";

/** Unpadded base64 of SHA-256: how the token service names hashed identities and rooms. */
export function unpaddedBase64Sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64").replace(/=+$/, "");
}

/** The SFU room of a Matrix room's call (slot "m.call#ROOM"). */
export function sfuRoomOf(roomId: string): string {
  return unpaddedBase64Sha256(JSON.stringify([roomId, "m.call#ROOM"]));
}

/** A server-API token signed with the SFU's secret (HS256), to ask the SFU which rooms exist. */
function adminJwt(lk: LiveKitHandle): string {
  const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const claims = Buffer.from(
    JSON.stringify({ iss: lk.apiKey, nbf: now - 10, exp: now + 600, video: { roomList: true } }),
  ).toString("base64url");
  const signature = createHmac("sha256", lk.apiSecret).update(`${header}.${claims}`).digest("base64url");
  return `${header}.${claims}.${signature}`;
}

/** The names of the rooms the SFU holds now. */
export async function listSfuRooms(lk: LiveKitHandle): Promise<string[]> {
  const res = await fetch(`${lk.httpUrl}/twirp/livekit.RoomService/ListRooms`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminJwt(lk)}`, "Content-Type": "application/json" },
    body: "{}",
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { rooms?: Array<{ name: string }> };
  return (body.rooms ?? []).map((r) => r.name);
}

/** An OpenID token of `user` from the homeserver at `baseUrl` (what a client hands the token service). */
export async function openIdTokenOf(
  baseUrl: string,
  user: { userId: string; accessToken: string },
): Promise<OpenIdToken> {
  const res = await fetch(
    `${baseUrl}/_matrix/client/v3/user/${encodeURIComponent(user.userId)}/openid/request_token`,
    { method: "POST", headers: { Authorization: `Bearer ${user.accessToken}` }, body: "{}" },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as OpenIdToken;
}
