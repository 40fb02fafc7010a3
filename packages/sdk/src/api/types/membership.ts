/**
 * Wire types of membership calls (joining.yaml, knocking.yaml, inviting.yaml,
 * third_party_membership.yaml, leaving.yaml, kicking.yaml, banning.yaml).
 */

/** A signed third-party invite, proving the user owns the invited 3pid (definitions/third_party_signed.yaml). */
export interface ThirdPartySigned {
  sender: string;
  mxid: string;
  token: string;
  signatures: Record<string, Record<string, string>>;
}

/** Options of POST /join/{roomIdOrAlias}. */
export interface JoinOptions {
  /** Servers to join through; sent as `via` and, for servers before Matrix 1.12, as `server_name`. */
  via?: readonly string[];
  reason?: string;
  third_party_signed?: ThirdPartySigned;
}

/** Options of POST /knock/{roomIdOrAlias}. */
export interface KnockOptions {
  via?: readonly string[];
  reason?: string;
}

/** The response of join and knock. */
export interface RoomIdResponse {
  room_id: string;
}

/** The body of a 3pid invite (POST /rooms/{roomId}/invite with an identity server). */
export interface ThirdPartyInvite {
  id_server: string;
  id_access_token: string;
  medium: string;
  address: string;
}
