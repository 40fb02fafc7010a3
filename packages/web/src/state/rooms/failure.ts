/**
 * One clear sentence for a failed room, people or settings action: the
 * server's refusal (its message and code), a refusal the power levels made
 * before any request, or an unreachable server.
 */
import { ClientServiceError, ConnectionError, MatrixError, ModelError, StateSendError } from "../../sdk";
import { t } from "../../i18n/i18n";

/** A user-facing sentence for a failure. */
export function describeFailure(error: unknown): string {
  if (error instanceof StateSendError && error.cause !== undefined) return describeFailure(error.cause);
  if (error instanceof MatrixError) {
    if (error.errcode === "M_LIMIT_EXCEEDED") return t("rooms", "error_rate_limited");
    const message = error.error !== "" ? error.error : error.errcode;
    return t("rooms", "error_server", { message, code: error.errcode });
  }
  if (error instanceof ConnectionError) return t("rooms", "error_unreachable");
  if (error instanceof ClientServiceError || error instanceof ModelError) return error.message;
  if (error instanceof Error && error.message !== "") return error.message;
  return t("rooms", "error_unknown");
}
