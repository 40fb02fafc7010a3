/**
 * What the user reads when something fails: one clear sentence per known
 * failure (wrong password, deactivated account, rate limit, unreachable
 * server, ...) and the error's own message otherwise. AuthError messages
 * are SPEC.md's and are shown as they are.
 */
import { AuthError, ConnectionError, MatrixError } from "../sdk";

export const MESSAGES = {
  wrongPassword: "Incorrect username or password.",
  deactivated: "This account has been deactivated.",
  unreachable: "Cannot reach the homeserver. Check the address and your connection.",
  usernameInvalid: "That username is not allowed on this server.",
  weakPassword: "That password is too weak: choose a longer one.",
  guestForbidden: "This homeserver does not allow guest access.",
  registrationDisabled: "This homeserver does not allow registration.",
  passwordsDiffer: "The passwords do not match.",
  missingFields: "Fill in the username and password.",
  cancelled: "Registration was cancelled.",
} as const;

/** A user-facing sentence for a failure of `action` ("sign-in", "registration", ...). */
export function describeError(error: unknown, action = "sign-in"): string {
  if (error instanceof MatrixError) {
    switch (error.errcode) {
      case "M_FORBIDDEN":
        return action === "sign-in" ? MESSAGES.wrongPassword : error.error || MESSAGES.registrationDisabled;
      case "M_USER_DEACTIVATED":
        return MESSAGES.deactivated;
      case "M_LIMIT_EXCEEDED": {
        const s = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
        return `Too many attempts. Try again in ${s} second${s === 1 ? "" : "s"}.`;
      }
      case "M_INVALID_USERNAME":
        return MESSAGES.usernameInvalid;
      case "M_WEAK_PASSWORD":
        return MESSAGES.weakPassword;
      case "M_GUEST_ACCESS_FORBIDDEN":
        return MESSAGES.guestForbidden;
      default:
        return error.error || `The homeserver refused the ${action} (${error.errcode}).`;
    }
  }
  if (error instanceof ConnectionError) return MESSAGES.unreachable;
  if (error instanceof AuthError) return error.message;
  if (error instanceof Error && error.message !== "") return error.message;
  return `Something went wrong during ${action}.`;
}

/** A failure whose message is already a sentence for the person using the app: shown as it is. */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UserFacingError";
  }
}

/** A call the app's current state does not allow (no session yet, a disposed loader, a hook outside its provider). */
export class AppStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppStateError";
  }
}

/** Media that could not be loaded: not an mxc URI, not decryptable, or refused by the server. */
export class MediaLoadError extends Error {
  constructor(
    message: string,
    /** The server's HTTP status when it refused, else undefined. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "MediaLoadError";
  }
}
