/**
 * Server administration: the spec's whois lookup (api/client-server/admin.yaml)
 * and the Synapse admin API calls the client makes (admin check, user
 * deactivation), which are Synapse's own and absent from the Matrix spec.
 */
import type { HttpApi } from "../http/types";
import { Prefix, encodePath } from "../http/types";
import type { SynapseAdminStatus, SynapseDeactivateResponse, WhoisResponse } from "./types/admin";

/** GET /_synapse/admin/v1/users/{userId}/admin: whether the user is a server admin. */
export function isSynapseAdmin(http: HttpApi, userId: string): Promise<SynapseAdminStatus> {
  return http.request<SynapseAdminStatus>({
    method: "GET",
    prefix: Prefix.SynapseAdminV1,
    path: encodePath`/users/${userId}/admin`,
  });
}

/** GET /_matrix/client/v3/admin/whois/{userId}: a user's devices, sessions and connections. */
export function whois(http: HttpApi, userId: string): Promise<WhoisResponse> {
  return http.request<WhoisResponse>({ method: "GET", path: encodePath`/admin/whois/${userId}` });
}

/** POST /_synapse/admin/v1/deactivate/{userId}: deactivates a user, erasing their data when `erase`. */
export function deactivateUser(
  http: HttpApi,
  userId: string,
  erase = false,
): Promise<SynapseDeactivateResponse> {
  return http.request<SynapseDeactivateResponse>({
    method: "POST",
    prefix: Prefix.SynapseAdminV1,
    path: encodePath`/deactivate/${userId}`,
    body: { erase },
  });
}
