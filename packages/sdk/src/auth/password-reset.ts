/**
 * Resetting a forgotten password without an access token: validate an email
 * address or phone number known to the account (the account/password
 * requestToken calls, client_secret and send_attempt owned by a
 * ThreepidValidation), then POST /account/password with that validated
 * session as the interactive-auth stage.
 */
import { changePassword, requestPasswordEmailToken, requestPasswordMsisdnToken } from "../api/account";
import type { EmailTokenRequest, MsisdnTokenRequest } from "../api/types/account";
import type { HttpApi } from "../http/types";
import { runInteractiveAuth } from "./InteractiveAuth";
import type { RandomFn } from "./secret";
import { ThreepidValidation } from "./threepid";

/** Starts a password reset by email: call `send()` on the result (again to resend). */
export function passwordResetEmailValidation(
  http: HttpApi,
  email: string,
  options: { nextLink?: string; random?: RandomFn } = {},
): ThreepidValidation<EmailTokenRequest> {
  return new ThreepidValidation<EmailTokenRequest>(
    (body) => requestPasswordEmailToken(http, body),
    { email },
    options,
  );
}

/** Starts a password reset by phone. */
export function passwordResetMsisdnValidation(
  http: HttpApi,
  country: string,
  phoneNumber: string,
  options: { nextLink?: string; random?: RandomFn } = {},
): ThreepidValidation<MsisdnTokenRequest> {
  return new ThreepidValidation<MsisdnTokenRequest>(
    (body) => requestPasswordMsisdnToken(http, body),
    { country, phone_number: phoneNumber },
    options,
  );
}

/**
 * Sets a new password once the email validation is done (the user followed
 * the link). `logoutDevices` (the server's default: true) signs out every device.
 */
export function resetPassword(
  http: HttpApi,
  validation: ThreepidValidation<EmailTokenRequest>,
  newPassword: string,
  options: { logoutDevices?: boolean } = {},
): Promise<void> {
  const creds = validation.credentials();
  return runInteractiveAuth({
    request: (auth) =>
      changePassword(
        http,
        {
          new_password: newPassword,
          ...(options.logoutDevices !== undefined ? { logout_devices: options.logoutDevices } : {}),
          ...(auth !== undefined ? { auth } : {}),
        },
        { authenticated: false },
      ),
    // The session was validated before the run: the email stage reuses it instead of sending mail.
    emailAddress: "validated",
    clientSecret: creds.client_secret,
    requestEmailToken: () => Promise.resolve({ sid: creds.sid }),
    callbacks: { checkEmail: () => Promise.resolve() },
  });
}
