/**
 * Registration: check a username and register a user or a guest. A taken
 * username answers as { available: false } rather than an error, because
 * the caller's question was answered. The 401 interactive-auth answer of
 * POST /register reaches the caller as a MatrixError carrying the
 * AuthResponse in its data.
 */
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import type {
  RegisterRequest,
  RegisterResponse,
  RegistrationKind,
  UsernameAvailableResponse,
} from "./types/auth";

/** GET /register/available: whether a localpart is free. M_USER_IN_USE gives { available: false }. */
export async function checkUsernameAvailable(
  http: HttpApi,
  username: string,
): Promise<UsernameAvailableResponse> {
  try {
    return await http.request<UsernameAvailableResponse>({
      method: "GET",
      path: "/register/available",
      query: { username },
      authenticated: false,
    });
  } catch (err) {
    if (err instanceof MatrixError && err.errcode === "M_USER_IN_USE") return { available: false };
    throw err;
  }
}

/** POST /register. `kind` "guest" registers a guest account; omitted means a user. */
export function register(
  http: HttpApi,
  body: RegisterRequest,
  options: { kind?: RegistrationKind } = {},
): Promise<RegisterResponse> {
  return http.request<RegisterResponse>({
    method: "POST",
    path: "/register",
    query: options.kind === undefined ? undefined : { kind: options.kind },
    body,
    authenticated: false,
  });
}
