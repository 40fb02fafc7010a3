/**
 * Shared helpers for the test homeserver's tests: registering users over
 * HTTP and small JSON request wrappers.
 */
import type { TestServerHandle } from "../src";
import type { Requester } from "../src/http/types";
import { createResponseValidator } from "../src/spec/exchange";

export interface TestUser {
  userId: string;
  accessToken: string;
  deviceId: string;
}

export interface JsonReply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Registers `name` with m.login.dummy (after the 401 that hands out the UIA
 * session). When the server has no registration endpoint (the accounts
 * domain is not there yet), falls back to a token table so room tests can
 * run on their own.
 */
export async function registerUser(
  server: TestServerHandle,
  name: string,
  password = "password-" + name,
): Promise<TestUser> {
  const url = `${server.url}/_matrix/client/v3/register`;
  const first = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: name, password }),
  });
  const firstBody = (await first.json()) as Record<string, unknown>;
  if (first.status === 200 && typeof firstBody["access_token"] === "string") return asUser(firstBody);
  if (first.status === 401 && typeof firstBody["session"] === "string") {
    const second = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        username: name,
        password,
        auth: { type: "m.login.dummy", session: firstBody["session"] },
      }),
    });
    const body = (await second.json()) as Record<string, unknown>;
    if (second.status === 200) return asUser(body);
    throw new Error(`registration of ${name} failed: ${second.status} ${JSON.stringify(body)}`);
  }
  if (first.status === 404) return fakeUser(server, name);
  throw new Error(`registration of ${name} failed: ${first.status} ${JSON.stringify(firstBody)}`);
}

function asUser(body: Record<string, unknown>): TestUser {
  return {
    userId: String(body["user_id"]),
    accessToken: String(body["access_token"]),
    deviceId: String(body["device_id"]),
  };
}

const fakeTables = new WeakMap<TestServerHandle, Map<string, Requester>>();

/** A user known only to an authenticate() wrapper (no accounts domain). */
function fakeUser(server: TestServerHandle, name: string): TestUser {
  let table = fakeTables.get(server);
  if (!table) {
    const known = new Map<string, Requester>();
    table = known;
    fakeTables.set(server, known);
    const accounts = server.ctx.accounts;
    const original = accounts.authenticate.bind(accounts);
    accounts.authenticate = (token: string) => known.get(token) ?? original(token);
    const exists = accounts.userExists.bind(accounts);
    accounts.userExists = (userId: string) =>
      [...known.values()].some((r) => r.userId === userId) || exists(userId);
  }
  const user: TestUser = {
    userId: `@${name}:${server.serverName}`,
    accessToken: `fake_${name}_${table.size}`,
    deviceId: `DEV${name.toUpperCase()}`,
  };
  table.set(user.accessToken, { ...user, isGuest: false });
  return user;
}

/** A JSON request as a user (or anonymous when user is undefined). */
export async function api(
  server: TestServerHandle,
  user: TestUser | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonReply> {
  const headers: Record<string, string> = {};
  if (user) headers["Authorization"] = `Bearer ${user.accessToken}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  const out =
    parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { list: parsed };
  return { status: res.status, body: out };
}

/** The client-server v3 prefix. */
export const V3 = "/_matrix/client/v3";

/**
 * Installs the server's own test-mode validator (every response against the
 * OpenAPI definitions, every event against its schema) with one more
 * leniency: a standard error body on an error status the spec lists without
 * a body (400 on /search, 403 on /messages, 400 on /events), which is what
 * Synapse answers. Mismatches collect in server.validationErrors.
 */
export function installSpecValidator(server: TestServerHandle): void {
  const validate = createResponseValidator();
  server.setValidator((req, status, body) => {
    const problems = validate(req, status, body);
    const standardError =
      status >= 400 && typeof (body as Record<string, unknown> | null)?.["errcode"] === "string";
    return standardError ? problems.filter((p) => !p.includes("documents no JSON")) : problems;
  });
}

/** Registers a guest (POST /register?kind=guest). */
export async function registerGuest(server: TestServerHandle): Promise<TestUser> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register?kind=guest`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`guest registration failed: ${res.status} ${JSON.stringify(body)}`);
  return asUser(body);
}
