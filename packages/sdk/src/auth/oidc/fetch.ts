/**
 * How OIDC requests reach the provider: the injectable fetch, time-outs,
 * and the options oauth4webapi takes. Plain http is allowed only to a
 * loopback host (tests, the local demo; RFC 8252 §7.3 allows loopback for
 * native apps): anything else must be https, as oauth4webapi enforces.
 */
import { allowInsecureRequests, customFetch } from "oauth4webapi";

/** The fetch used for provider requests (globalThis.fetch by default). */
export type OidcFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Options shared by every provider call. */
export interface OidcRequestOptions {
  fetch?: OidcFetch;
  signal?: AbortSignal;
}

/** True for http(s) URLs on 127.0.0.0/8, [::1] or localhost. */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The oauth4webapi request options for a call to `url`. */
export function oauthHttpOptions(
  url: string,
  options: OidcRequestOptions,
  signal: AbortSignal | undefined,
): {
  signal?: AbortSignal;
  [customFetch]?: (url: string, init: RequestInit) => Promise<Response>;
  [allowInsecureRequests]?: boolean;
} {
  const fetchImpl = options.fetch;
  return {
    ...(signal ? { signal } : {}),
    ...(fetchImpl ? { [customFetch]: (u: string, init: RequestInit) => fetchImpl(u, init) } : {}),
    ...(isLoopbackUrl(url) ? { [allowInsecureRequests]: true } : {}),
  };
}

/**
 * A signal that aborts after `ms` (or when `outer` does). setTimeout, not
 * AbortSignal.timeout, so fake timers drive it in tests; unref'd so a
 * pending time-out never keeps a process alive. Call `done` once the
 * request settles.
 */
export function timeoutSignal(ms: number, outer?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onOuter = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onOuter, { once: true });
  const timer = setTimeout(() => controller.abort(new Error(`Timed out after ${ms} ms`)), ms);
  (timer as { unref?: () => void }).unref?.();
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

/** Runs `fn` with a time-out signal, clearing the timer however it ends. */
export async function withTimeout<T>(
  ms: number,
  outer: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal, done } = timeoutSignal(ms, outer);
  try {
    return await fn(signal);
  } finally {
    done();
  }
}

/** Reads a response body as JSON, or undefined when it is not JSON. Never throws on bad bodies. */
export async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
