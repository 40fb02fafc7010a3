/**
 * Membership calls: join (via and third_party_signed), knock, invite a user
 * or a 3pid, leave, kick, ban, unban and forget. Each changes one user's
 * m.room.member state through the server; no local state here.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { JoinOptions, KnockOptions, RoomIdResponse, ThirdPartyInvite } from "./types/membership";

type Empty = Record<string, never>;

function viaQuery(via: readonly string[] | undefined): Record<string, readonly string[]> | undefined {
  if (!via || via.length === 0) return undefined;
  // server_name is what servers before Matrix 1.12 read; newer ones read via.
  return { via, server_name: via };
}

/** POST /join/{roomIdOrAlias}. */
export function joinRoom(
  http: HttpApi,
  roomIdOrAlias: string,
  options: JoinOptions = {},
): Promise<RoomIdResponse> {
  const query = viaQuery(options.via);
  const body: Record<string, unknown> = {};
  if (options.reason !== undefined) body.reason = options.reason;
  if (options.third_party_signed !== undefined) body.third_party_signed = options.third_party_signed;
  return http.request<RoomIdResponse>({
    method: "POST",
    path: encodePath`/join/${roomIdOrAlias}`,
    ...(query ? { query } : {}),
    body,
  });
}

/** POST /knock/{roomIdOrAlias}: ask to be let in, with an optional reason. */
export function knockRoom(
  http: HttpApi,
  roomIdOrAlias: string,
  options: KnockOptions = {},
): Promise<RoomIdResponse> {
  const query = viaQuery(options.via);
  return http.request<RoomIdResponse>({
    method: "POST",
    path: encodePath`/knock/${roomIdOrAlias}`,
    ...(query ? { query } : {}),
    body: options.reason !== undefined ? { reason: options.reason } : {},
  });
}

/** POST /rooms/{roomId}/invite: invite a Matrix user. */
export function inviteUser(http: HttpApi, roomId: string, userId: string, reason?: string): Promise<Empty> {
  return http.request<Empty>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/invite`,
    body: { user_id: userId, ...(reason !== undefined ? { reason } : {}) },
  });
}

/** POST /rooms/{roomId}/invite: invite by third-party identifier through an identity server. */
export function inviteThirdParty(http: HttpApi, roomId: string, invite: ThirdPartyInvite): Promise<Empty> {
  return http.request<Empty>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/invite`,
    body: {
      id_server: invite.id_server,
      id_access_token: invite.id_access_token,
      medium: invite.medium,
      address: invite.address,
    },
  });
}

/** POST /rooms/{roomId}/leave (also rejects an invite or withdraws a knock). */
export function leaveRoom(http: HttpApi, roomId: string, reason?: string): Promise<Empty> {
  return http.request<Empty>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/leave`,
    body: reason !== undefined ? { reason } : {},
  });
}

function targetMembership(
  http: HttpApi,
  action: "kick" | "ban" | "unban",
  roomId: string,
  userId: string,
  reason: string | undefined,
): Promise<Empty> {
  return http.request<Empty>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/${action}`,
    body: { user_id: userId, ...(reason !== undefined ? { reason } : {}) },
  });
}

/** POST /rooms/{roomId}/kick. */
export function kickUser(http: HttpApi, roomId: string, userId: string, reason?: string): Promise<Empty> {
  return targetMembership(http, "kick", roomId, userId, reason);
}

/** POST /rooms/{roomId}/ban. */
export function banUser(http: HttpApi, roomId: string, userId: string, reason?: string): Promise<Empty> {
  return targetMembership(http, "ban", roomId, userId, reason);
}

/** POST /rooms/{roomId}/unban. */
export function unbanUser(http: HttpApi, roomId: string, userId: string, reason?: string): Promise<Empty> {
  return targetMembership(http, "unban", roomId, userId, reason);
}

/** POST /rooms/{roomId}/forget: drop a left room from the user's history. */
export function forgetRoom(http: HttpApi, roomId: string): Promise<Empty> {
  return http.request<Empty>({ method: "POST", path: encodePath`/rooms/${roomId}/forget`, body: {} });
}
