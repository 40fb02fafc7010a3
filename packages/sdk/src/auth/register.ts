/**
 * Registration: is a username free ('username unavailable' on
 * M_USER_IN_USE), registering a user through interactive auth (dummy,
 * password, email, terms, registration token), and guest registration
 * (kind=guest). Every registration asks for a refresh token and answers
 * SessionData for the Session.
 */
import { requestRegisterEmailToken, requestRegisterMsisdnToken } from "../api/account";
import * as api from "../api/register";
import type { RegisterRequest, RegisterResponse } from "../api/types/auth";
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import { AuthError, USERNAME_UNAVAILABLE_MESSAGE } from "./errors";
import { runInteractiveAuth } from "./InteractiveAuth";
import type { UiaCallbacks } from "./InteractiveAuth";
import { homeserverUrlOf, sessionDataFrom } from "./login";
import type { RandomFn } from "./secret";
import type { SessionData } from "./storage";

function unavailable(cause?: unknown): AuthError {
  return new AuthError("USERNAME_UNAVAILABLE", USERNAME_UNAVAILABLE_MESSAGE, { cause });
}

/** GET /register/available; throws AuthError 'username unavailable' when taken. */
export async function checkUsername(http: HttpApi, username: string): Promise<void> {
  const res = await api.checkUsernameAvailable(http, username);
  if (!res.available) throw unavailable();
}

/**
 * GET /_matrix/client/v1/register/m.login.registration_token/validity: whether
 * a registration token is valid (api/register.ts has no function for it yet).
 */
export async function isRegistrationTokenValid(http: HttpApi, token: string): Promise<boolean> {
  const res = await http.request<{ valid?: unknown }>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path: "/register/m.login.registration_token/validity",
    query: { token },
    authenticated: false,
  });
  return res.valid === true;
}

/**
 * POSTs an SMS code to the homeserver's submit_url. Only a URL on the
 * homeserver's own origin is followed: the code is not sent anywhere else.
 */
export async function submitMsisdnToken(
  http: HttpApi,
  submitUrl: string | undefined,
  body: { sid: string; client_secret: string; token: string },
): Promise<boolean> {
  const home = new URL(homeserverUrlOf(http));
  let target: URL;
  try {
    target = new URL(submitUrl ?? "");
  } catch {
    throw new AuthError("UNSUPPORTED_STAGE", "The homeserver gave no usable submit_url");
  }
  if (target.origin !== home.origin) {
    throw new AuthError("UNSUPPORTED_STAGE", "The submit_url is not on the homeserver");
  }
  const res = await http.request<{ success?: unknown }>({
    method: "POST",
    baseUrl: target.origin,
    prefix: "",
    path: target.pathname,
    body,
    authenticated: false,
  });
  return res.success === true;
}

export interface RegisterOptions {
  username: string;
  password: string;
  /** An email address to validate (needed by flows with m.login.email.identity). */
  emailAddress?: string;
  /** A phone number to validate (needed by flows with m.login.msisdn). */
  phone?: { country: string; phoneNumber: string };
  /** Where the validation mail's link leads afterwards. */
  nextLink?: string;
  /** A registration token known up front; otherwise callbacks.askRegistrationToken. */
  registrationToken?: string;
  deviceId?: string;
  initialDeviceDisplayName?: string;
  callbacks?: UiaCallbacks;
  random?: RandomFn;
  now?: () => number;
}

/** Registers a user through interactive auth and answers the new session. */
export async function registerAccount(http: HttpApi, options: RegisterOptions): Promise<SessionData> {
  const base: RegisterRequest = {
    username: options.username,
    password: options.password,
    refresh_token: true,
  };
  if (options.deviceId !== undefined) base.device_id = options.deviceId;
  if (options.initialDeviceDisplayName !== undefined) {
    base.initial_device_display_name = options.initialDeviceDisplayName;
  }
  let res: RegisterResponse;
  try {
    res = await runInteractiveAuth({
      request: (auth) => api.register(http, auth === undefined ? base : { ...base, auth }),
      callbacks: options.callbacks,
      password: options.password,
      emailAddress: options.emailAddress,
      phone: options.phone,
      requestMsisdnToken: (body) => requestRegisterMsisdnToken(http, body),
      submitMsisdnToken: (submitUrl, body) => submitMsisdnToken(http, submitUrl, body),
      nextLink: options.nextLink,
      registrationToken: options.registrationToken,
      requestEmailToken: (body) => requestRegisterEmailToken(http, body),
      checkRegistrationToken: (token) => isRegistrationTokenValid(http, token),
      random: options.random,
    });
  } catch (err) {
    if (err instanceof MatrixError && err.errcode === "M_USER_IN_USE") throw unavailable(err);
    throw err;
  }
  return sessionDataFrom(res as Parameters<typeof sessionDataFrom>[0], homeserverUrlOf(http), options.now);
}

/** Registers a guest (POST /register?kind=guest) and answers its session. */
export async function registerGuest(
  http: HttpApi,
  options: { initialDeviceDisplayName?: string; now?: () => number } = {},
): Promise<SessionData> {
  const body: RegisterRequest = { refresh_token: true };
  if (options.initialDeviceDisplayName !== undefined) {
    body.initial_device_display_name = options.initialDeviceDisplayName;
  }
  const res = await api.register(http, body, { kind: "guest" });
  return sessionDataFrom(res as Parameters<typeof sessionDataFrom>[0], homeserverUrlOf(http), options.now, {
    isGuest: true,
  });
}
