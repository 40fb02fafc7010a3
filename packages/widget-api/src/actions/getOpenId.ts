/**
 * get_openid: the OpenID flow (SPEC §4). The driver may first report
 * "pending user confirmation" (answered at once), then allowed with a token
 * or blocked (sent later as openid_credentials). A second pending, or any
 * state after the flow ended, is out of phase and blocks the flow.
 */
import { OpenIdRequestState } from "../interfaces/OpenIdAction";
import type {
  OpenIdCredentials,
  OpenIdRequestStateName,
  OpenIdResponseData,
} from "../interfaces/OpenIdAction";
import { ToWidgetAction } from "../interfaces/WidgetApiAction";
import type { ActionHandler } from "../host/ActionContext";
import type { OpenIdUpdate } from "../host/WidgetDriver";
import { WidgetActionError } from "../util/errors";
import { isRecord } from "../util/narrow";

/** Error texts of the OpenID flow (SPEC §8). */
const OPENID_ERRORS = {
  outOfPhase: "client provided out-of-phase response to OIDC flow",
  invalidToken: "client provided invalid OIDC token for an allowed request",
} as const;

function tokenFields(token: unknown): OpenIdCredentials | null {
  if (!isRecord(token) || typeof token.access_token !== "string" || token.access_token.length === 0)
    return null;
  if (typeof token.matrix_server_name !== "string" || typeof token.expires_in !== "number") return null;
  return {
    access_token: token.access_token,
    expires_in: token.expires_in,
    matrix_server_name: token.matrix_server_name,
    token_type: "Bearer",
  };
}

/** Handles fromWidget get_openid. */
export const getOpenId: ActionHandler<OpenIdResponseData> = (ctx, request) =>
  new Promise<OpenIdResponseData>((resolve, reject) => {
    let phase: "initial" | "pending" | "done" = "initial";
    const finish = (state: OpenIdRequestStateName, token?: OpenIdCredentials): void => {
      if (phase === "initial") {
        resolve({ state, ...token });
      } else {
        ctx
          .send(ToWidgetAction.OpenIdCredentials, { state, original_request_id: request.requestId, ...token })
          .catch((e: unknown) => ctx.logger.warn("widget api: openid_credentials not acknowledged", e));
      }
      phase = "done";
    };
    const fail = (message: string): void => {
      ctx.logger.error(`widget api: ${message}`);
      // Once the first reply went out, the only way to end the flow is to block it.
      if (phase === "initial") reject(new WidgetActionError(message));
      else finish(OpenIdRequestState.Blocked);
      phase = "done";
    };
    const update = (u: OpenIdUpdate): void => {
      if (phase === "done") {
        ctx.logger.error(`widget api: ${OPENID_ERRORS.outOfPhase}`);
        return;
      }
      const state: unknown = isRecord(u) ? u.state : undefined;
      if (state === OpenIdRequestState.PendingUserConfirmation) {
        if (phase === "pending") return fail(OPENID_ERRORS.outOfPhase);
        resolve({ state });
        phase = "pending";
        return;
      }
      if (state === OpenIdRequestState.Allowed) {
        const token = tokenFields(u.token);
        if (!token) return fail(OPENID_ERRORS.invalidToken);
        return finish(OpenIdRequestState.Allowed, token);
      }
      if (state === OpenIdRequestState.Blocked) return finish(OpenIdRequestState.Blocked);
      fail(OPENID_ERRORS.outOfPhase);
    };
    try {
      ctx.driver.askOpenId({ update: (u) => update(u) });
    } catch (e) {
      ctx.logger.error("widget api: askOpenId failed", e);
      fail(OPENID_ERRORS.outOfPhase);
    }
  });
