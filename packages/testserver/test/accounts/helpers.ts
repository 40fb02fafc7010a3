/**
 * Small HTTP helpers for the accounts tests: JSON requests against a running
 * test server and a one-call user registration.
 */
import type { TestServerHandle } from "../../src";
import { getSpecValidator } from "../../src/spec";

export interface JsonResponse {
  status: number;
  body: Record<string, unknown>;
}

/** Sends a JSON request (body as object, or a raw string for hostile input). */
export async function call(
  server: TestServerHandle,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  let payload: string | undefined;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(server.url + path, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed as Record<string, unknown> };
}

export interface Session {
  userId: string;
  accessToken: string;
  deviceId: string;
}

/** Registers a user with the dummy flow and returns its session. */
export async function register(
  server: TestServerHandle,
  username: string,
  password = "secret-password",
  extra: Record<string, unknown> = {},
): Promise<Session> {
  const res = await call(server, "POST", "/_matrix/client/v3/register", {
    username,
    password,
    auth: { type: "m.login.dummy" },
    ...extra,
  });
  if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    userId: res.body["user_id"] as string,
    accessToken: res.body["access_token"] as string,
    deviceId: res.body["device_id"] as string,
  };
}

/** Logs in with a password. */
export async function login(server: TestServerHandle, user: string, password: string): Promise<JsonResponse> {
  return call(server, "POST", "/_matrix/client/v3/login", {
    type: "m.login.password",
    identifier: { type: "m.id.user", user },
    password,
  });
}

/**
 * Validates every JSON response of the server against the Matrix spec
 * (paths the spec does not define, such as the test server's own pages and
 * unstable endpoints, are skipped). Returns the mismatches seen so far.
 */
export function validateAgainstSpec(server: TestServerHandle): () => string[] {
  const spec = getSpecValidator();
  server.setValidator((req, status, body) => {
    const result = spec.validateResponse(
      { method: req.method, path: req.path },
      { status, body, contentType: "application/json" },
      { standardErrors: true },
    );
    if (!result.operation) return [];
    // Every endpoint may answer a standard error (M_MISSING_TOKEN, M_BAD_JSON...) the spec does not list for it.
    if (status >= 400) {
      return result.errors.filter((e) => !/is not documented for|documents no JSON here/.test(e));
    }
    return result.errors;
  });
  return () => server.validationErrors;
}
