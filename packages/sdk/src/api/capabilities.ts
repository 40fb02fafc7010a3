/**
 * GET /capabilities: what the server lets this user do (change password,
 * room versions, profile fields, ...). Callers refresh it periodically.
 */
import type { HttpApi } from "../http/types";
import type { CapabilitiesResponse } from "./types/server";

/** GET /capabilities */
export function getCapabilities(http: HttpApi, signal?: AbortSignal): Promise<CapabilitiesResponse> {
  return http.request<CapabilitiesResponse>({ method: "GET", path: "/capabilities", signal });
}
