/**
 * POST /user/{userId}/openid/request_token: a short-lived token a third party
 * (a widget, an SFU) can verify with the homeserver to learn who the user is.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { OpenIdToken } from "./types/server";

/** POST /user/{userId}/openid/request_token */
export function requestOpenIdToken(http: HttpApi, userId: string): Promise<OpenIdToken> {
  return http.request<OpenIdToken>({
    method: "POST",
    path: encodePath`/user/${userId}/openid/request_token`,
    body: {},
  });
}
