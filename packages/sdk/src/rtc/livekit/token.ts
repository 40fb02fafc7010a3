/**
 * The SFU token: the focus's token service (lk-jwt-service) trades our
 * OpenID token for a LiveKit JWT and the SFU's URL. `POST /get_token`
 * ({room_id, slot_id, openid_token, member}) is asked first; a service that
 * does not know it (404, 405: an older one) is asked `POST /sfu/get`
 * ({room, openid_token, device_id}). The two name us differently on the
 * SFU (hashed identity for /get_token, `userId:deviceId` for /sfu/get), so
 * the answer says which was used and the identity the JWT carries; keys
 * must be bound to that identity. The JWT lasts an hour: `expiresAt` tells
 * the connection when a re-join needs a new one.
 */
import type { OpenIdToken } from "../../api/types/server";
import type { CallMembership } from "../membership/types";

/** The token service's two endpoints. */
export type SfuTokenEndpoint = "get_token" | "sfu/get";

/** Why a token could not be had. */
export type SfuTokenErrorCode = "unreachable" | "rejected" | "failed" | "malformed";

/** What the user is told, per cause (the service URL is appended). */
export const SFU_TOKEN_MESSAGES: Record<SfuTokenErrorCode, string> = {
  unreachable: "The call service cannot be reached",
  rejected: "The call service refused to let you join",
  failed: "The call service failed to give a call token",
  malformed: "The call service gave an answer that is not a call token",
};

/** A token service failure, in words (`message`) and as a code. */
export class SfuTokenError extends Error {
  constructor(
    readonly code: SfuTokenErrorCode,
    readonly serviceUrl: string,
    /** The HTTP status, when the service answered. */
    readonly status?: number,
    /** The Matrix error code the service gave, if any. */
    readonly errcode?: string,
  ) {
    super(`${SFU_TOKEN_MESSAGES[code]} (${serviceUrl}${status !== undefined ? `: HTTP ${status}` : ""})`);
    this.name = "SfuTokenError";
  }
}

/** Who we are in the call, as the membership names us. */
export interface SfuMember {
  /** The membership's member id (state form: membershipID; sticky form: member.id). */
  id: string;
  userId: string;
  deviceId: string;
}

export interface SfuTokenRequest {
  /** The focus's `livekit_service_url`. */
  serviceUrl: string;
  roomId: string;
  /** The sticky slot; "m.call#ROOM" for the room's call. */
  slotId?: string;
  openIdToken: OpenIdToken;
  member: SfuMember;
  /** Skip /get_token (a service known to be old). */
  legacyOnly?: boolean;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/** A LiveKit join token and where to use it. */
export interface SfuToken {
  /** The SFU's signalling URL (ws:// or wss://). */
  readonly url: string;
  readonly jwt: string;
  readonly endpoint: SfuTokenEndpoint;
  /** Our identity on the SFU, from the JWT's `sub`. */
  readonly identity: string;
  /** The SFU room name, from the JWT's video grant. */
  readonly room: string | undefined;
  /** When the JWT stops being accepted for a join (ms since the epoch), from its `exp`. */
  readonly expiresAt: number | undefined;
}

export const DEFAULT_SLOT_ID = "m.call#ROOM";

/**
 * How to ask for our token so the SFU names us as our membership tells the
 * others to expect. Peers derive our SFU identity from the membership's
 * form: a state-form member is `userId:deviceId` (what `/sfu/get` gives),
 * a sticky-form member the hashed identity (what `/get_token` gives).
 * Element Call in its default (compatibility) mode reads state memberships
 * so and looks for exactly that identity on the SFU: a state-form member
 * that joined through `/get_token` is never matched and never decrypted.
 */
export function sfuTokenPlan(
  own: Pick<CallMembership, "form" | "sender" | "deviceId" | "memberId"> | undefined,
  userId: string,
  deviceId: string,
): { member: SfuMember; legacyOnly: boolean } {
  if (own === undefined || own.form === "state")
    return { member: { id: `${userId}:${deviceId}`, userId, deviceId }, legacyOnly: true };
  return { member: { id: own.memberId, userId: own.sender, deviceId: own.deviceId }, legacyOnly: false };
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
}

/** The claims a LiveKit JWT carries that the client needs; undefined when it is not a JWT. */
export function readJwtClaims(jwt: string): { sub?: string; exp?: number; room?: string } | undefined {
  const parts = jwt.split(".");
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const claims = JSON.parse(decodeBase64Url(parts[1])) as Record<string, unknown>;
    const video = claims["video"] as Record<string, unknown> | undefined;
    return {
      ...(typeof claims["sub"] === "string" ? { sub: claims["sub"] } : {}),
      ...(typeof claims["exp"] === "number" ? { exp: claims["exp"] } : {}),
      ...(typeof video?.["room"] === "string" ? { room: video["room"] } : {}),
    };
  } catch {
    return undefined;
  }
}

async function post(
  request: SfuTokenRequest,
  path: SfuTokenEndpoint,
  body: Record<string, unknown>,
): Promise<Response> {
  const doFetch = request.fetch ?? globalThis.fetch;
  const url = `${request.serviceUrl.replace(/\/+$/, "")}/${path}`;
  try {
    return await doFetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new SfuTokenError("unreachable", request.serviceUrl);
  }
}

async function readAnswer(
  request: SfuTokenRequest,
  res: Response,
  endpoint: SfuTokenEndpoint,
): Promise<SfuToken> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (!res.ok) {
    const errcode = typeof fields["errcode"] === "string" ? fields["errcode"] : undefined;
    const code = res.status === 401 || res.status === 403 ? "rejected" : "failed";
    throw new SfuTokenError(code, request.serviceUrl, res.status, errcode);
  }
  const url = fields["url"];
  const jwt = fields["jwt"];
  const claims = typeof jwt === "string" ? readJwtClaims(jwt) : undefined;
  if (typeof url !== "string" || typeof jwt !== "string" || claims?.sub === undefined)
    throw new SfuTokenError("malformed", request.serviceUrl, res.status);
  return {
    url,
    jwt,
    endpoint,
    identity: claims.sub,
    room: claims.room,
    expiresAt: claims.exp !== undefined ? claims.exp * 1000 : undefined,
  };
}

/** Asks the token service for a join token: /get_token, then the legacy /sfu/get when the service lacks it. */
export async function requestSfuToken(request: SfuTokenRequest): Promise<SfuToken> {
  const { openIdToken, member } = request;
  if (request.legacyOnly !== true) {
    const res = await post(request, "get_token", {
      room_id: request.roomId,
      slot_id: request.slotId ?? DEFAULT_SLOT_ID,
      openid_token: openIdToken,
      member: { id: member.id, claimed_user_id: member.userId, claimed_device_id: member.deviceId },
    });
    // 404/405: a service from before /get_token; anything else is its answer.
    if (res.status !== 404 && res.status !== 405) return readAnswer(request, res, "get_token");
  }
  const res = await post(request, "sfu/get", {
    room: request.roomId,
    openid_token: openIdToken,
    device_id: member.deviceId,
  });
  return readAnswer(request, res, "sfu/get");
}

/** True when `token` can still be used to join at `now`, keeping `marginMs` in hand. */
export function tokenUsable(token: SfuToken, now: number, marginMs = 60_000): boolean {
  return token.expiresAt === undefined || token.expiresAt - marginMs > now;
}
