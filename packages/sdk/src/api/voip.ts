/**
 * GET /voip/turnServer: TURN credentials for calls. The caller refreshes them
 * before `ttl` runs out and stops polling on 403.
 */
import type { HttpApi } from "../http/types";
import type { TurnServerResponse } from "./types/server";

/** GET /voip/turnServer */
export function getTurnServer(http: HttpApi): Promise<TurnServerResponse> {
  return http.request<TurnServerResponse>({ method: "GET", path: "/voip/turnServer" });
}
