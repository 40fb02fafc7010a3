/**
 * Errors of the auth layer: what sign-in, registration, interactive auth and
 * the identity service raise themselves (the server's own answers stay
 * MatrixError from the HTTP layer and travel as `cause`). Messages that
 * SPEC.md names are used exactly.
 */

/** Machine-readable reason of an AuthError. */
export type AuthErrorCode =
  /** No offered interactive-auth flow fits the inputs (SPEC: 'No appropriate authentication flow found'). */
  | "NO_FLOW"
  /** The chosen flow has a stage this client cannot complete (e.g. m.login.recaptcha). */
  | "UNSUPPORTED_STAGE"
  /** A stage failed and cannot be retried (or was retried too often). */
  | "STAGE_FAILED"
  /** The user (through the app's callbacks) declined, e.g. refused the terms. */
  | "CANCELLED"
  /** M_USER_IN_USE on registration (SPEC: 'username unavailable'). */
  | "USERNAME_UNAVAILABLE"
  /** The SSO return URL carried no loginToken. */
  | "MISSING_LOGIN_TOKEN"
  /** The refresh token was refused: the session is over. */
  | "REFRESH_FAILED"
  /** An operation needs a signed-in session and there is none. */
  | "NOT_SIGNED_IN"
  /** The server answered 2xx with a body we cannot use. */
  | "BAD_RESPONSE";

/** An error raised by the auth layer; `cause` keeps the underlying error. */
export class AuthError extends Error {
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuthError";
    this.code = code;
  }
}

/** SPEC §5: the message when no flow fits the email or phone given. */
export const NO_FLOW_MESSAGE = "No appropriate authentication flow found";
/** SPEC §7: what the product says when a username is taken. */
export const USERNAME_UNAVAILABLE_MESSAGE = "username unavailable";
/** The soft-logout state's message: local data is kept, the user signs in again. */
export const SOFT_LOGOUT_MESSAGE = "soft logged out: sign in again";
