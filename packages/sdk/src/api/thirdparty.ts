/**
 * Third-party network lookups through the homeserver's bridges
 * (api/client-server/third_party_lookup.yaml): the protocols it bridges,
 * and locations or users on a protocol matched by that protocol's fields,
 * which travel as query parameters.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { Protocol, ProtocolsResponse, ThirdPartyLocation, ThirdPartyUser } from "./types/thirdparty";

/** GET /thirdparty/protocols: every bridged protocol. */
export function getProtocols(http: HttpApi): Promise<ProtocolsResponse> {
  return http.request<ProtocolsResponse>({ method: "GET", path: "/thirdparty/protocols" });
}

/** GET /thirdparty/protocol/{protocol}: one bridged protocol. */
export function getProtocol(http: HttpApi, protocol: string): Promise<Protocol> {
  return http.request<Protocol>({ method: "GET", path: encodePath`/thirdparty/protocol/${protocol}` });
}

/** GET /thirdparty/location/{protocol}: portal rooms matching the protocol's location fields. */
export function queryLocations(
  http: HttpApi,
  protocol: string,
  fields: Readonly<Record<string, string>> = {},
): Promise<ThirdPartyLocation[]> {
  return http.request<ThirdPartyLocation[]>({
    method: "GET",
    path: encodePath`/thirdparty/location/${protocol}`,
    query: fields,
  });
}

/** GET /thirdparty/user/{protocol}: Matrix users representing users matching the protocol's user fields. */
export function queryUsers(
  http: HttpApi,
  protocol: string,
  fields: Readonly<Record<string, string>> = {},
): Promise<ThirdPartyUser[]> {
  return http.request<ThirdPartyUser[]>({
    method: "GET",
    path: encodePath`/thirdparty/user/${protocol}`,
    query: fields,
  });
}

/** GET /thirdparty/location?alias=: the third-party locations behind a Matrix room alias. */
export function queryLocationsByAlias(http: HttpApi, alias: string): Promise<ThirdPartyLocation[]> {
  return http.request<ThirdPartyLocation[]>({
    method: "GET",
    path: "/thirdparty/location",
    query: { alias },
  });
}

/** GET /thirdparty/user?userid=: the third-party users behind a Matrix user id. */
export function queryUsersByUserId(http: HttpApi, userId: string): Promise<ThirdPartyUser[]> {
  return http.request<ThirdPartyUser[]>({
    method: "GET",
    path: "/thirdparty/user",
    query: { userid: userId },
  });
}
