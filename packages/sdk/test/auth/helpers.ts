/**
 * Shared helpers of the auth tests: an HTTP client against the test
 * homeserver whose fetch records every request (so a test can count POST
 * /refresh), and a signed-in Session with its TokenRefresher.
 */
import type { TestServerHandle } from "@lattice/testserver";
import { createHttpClient } from "../../src/http/client";
import type { FetchFn, HttpClient } from "../../src/http/client";
import { registerAccount } from "../../src/auth/register";
import { TokenRefresher } from "../../src/auth/refresh";
import { Session } from "../../src/auth/session";
import { MemorySessionStorage } from "../../src/auth/storage";

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  errcode?: string;
}

/** A fetch that records method, path, status and errcode of each request. */
export function recordingFetch(): {
  fetch: FetchFn;
  requests: RecordedRequest[];
  count(method: string, pathEnd: string): number;
} {
  const requests: RecordedRequest[] = [];
  const fetchFn: FetchFn = async (input, init) => {
    const res = await fetch(input, init);
    const entry: RecordedRequest = {
      method: init.method ?? "GET",
      path: new URL(input).pathname,
      status: res.status,
    };
    if (res.status >= 400) {
      const body = (await res
        .clone()
        .json()
        .catch(() => null)) as { errcode?: unknown } | null;
      if (typeof body?.errcode === "string") entry.errcode = body.errcode;
    }
    requests.push(entry);
    return res;
  };
  return {
    fetch: fetchFn,
    requests,
    count: (method, pathEnd) =>
      requests.filter((r) => r.method === method && r.path.endsWith(pathEnd)).length,
  };
}

/** An HTTP client on the test homeserver without retries (tests want to see each answer). */
export function httpFor(server: TestServerHandle, fetchFn?: FetchFn): HttpClient {
  return createHttpClient({ baseUrl: server.url, retry: false, ...(fetchFn ? { fetch: fetchFn } : {}) });
}

export interface SignedIn {
  session: Session;
  storage: MemorySessionStorage;
  /** The raw client (the session's token getter). */
  http: HttpClient;
  /** The authenticated HttpApi with refresh. */
  api: TokenRefresher;
}

/** Registers `name` (dummy flow) and returns a signed-in session. */
export async function signUp(
  server: TestServerHandle,
  name: string,
  options: { fetch?: FetchFn; now?: () => number; password?: string } = {},
): Promise<SignedIn> {
  const data = await registerAccount(httpFor(server), {
    username: name,
    password: options.password ?? `pw-${name}`,
    now: options.now,
  });
  return sessionFor(data, options);
}

/** A Session (memory storage) and its refresher for session data. */
export async function sessionFor(
  data: Parameters<Session["signIn"]>[0],
  options: { fetch?: FetchFn; now?: () => number } = {},
): Promise<SignedIn> {
  const storage = new MemorySessionStorage();
  const session = new Session(storage, null, options.now ? { now: options.now } : {});
  await session.signIn(data);
  const http = session.createHttpClient({ retry: false, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const api = new TokenRefresher({ http, session, ...(options.now ? { now: options.now } : {}) });
  return { session, storage, http, api };
}
