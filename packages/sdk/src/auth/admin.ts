/**
 * Server administration as the client offers it: is the user a server admin
 * (Synapse admin API; a 403 or an unrecognised endpoint means no), who is
 * a user (whois), and deactivating a user.
 */
import * as api from "../api/admin";
import type { SynapseDeactivateResponse, WhoisResponse } from "../api/types/admin";
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";

/** Whether `userId` is a server admin; false when the server refuses or lacks the admin API. */
export async function isServerAdmin(http: HttpApi, userId: string): Promise<boolean> {
  try {
    const res = await api.isSynapseAdmin(http, userId);
    return res.admin === true;
  } catch (err) {
    if (err instanceof MatrixError && [400, 403, 404, 405].includes(err.httpStatus)) return false;
    throw err;
  }
}

/** GET /admin/whois/{userId} */
export function whois(http: HttpApi, userId: string): Promise<WhoisResponse> {
  return api.whois(http, userId);
}

/** Deactivates another user (server admins only). */
export function deactivateUser(
  http: HttpApi,
  userId: string,
  erase = false,
): Promise<SynapseDeactivateResponse> {
  return api.deactivateUser(http, userId, erase);
}
