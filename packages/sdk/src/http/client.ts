/**
 * The HTTP client: turns one RequestOptions into a fetch call and its answer
 * into a value or a typed error. It owns URL building (base URL + prefix +
 * path + query), the bearer token, JSON and raw bodies, the per-attempt
 * time-out and the caller's AbortSignal, bounded retries, and the
 * stable-to-unstable fallback on an unrecognised-endpoint answer.
 *
 * Aborts: a caller abort is never retried and surfaces as a ConnectionError
 * of kind "aborted" whose `cause` is the signal's reason (see isAbortError).
 * Time-outs apply per attempt and are not retried (the caller chose the
 * deadline); they surface as a ConnectionError of kind "timeout".
 */
import type { Logger } from "../util/logger";
import { ConnectionError, isUnrecognisedError } from "./errors";
import { DEFAULT_RETRY_POLICY, retryDelay } from "./retry";
import type { RetryPolicy } from "./retry";
import { readAnswer } from "./response";
import { encodeQuery } from "./query";
import { Prefix } from "./types";
import type { HttpApi, RequestOptions } from "./types";
import { canStreamUploads, prepareUpload } from "./upload";
import type { FetchBody, PreparedUpload } from "./upload";

/** The fetch signature the client needs (the global fetch fits). */
export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** Waits `ms`, rejecting early if `signal` aborts. */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HttpClientOptions {
  /** Homeserver base URL, e.g. https://matrix.example.org (a trailing slash is fine). */
  baseUrl: string;
  /** The access token, or a getter read on every request (so auth can swap it). */
  accessToken?: string | (() => string | undefined);
  /** Injectable fetch; defaults to the global one. */
  fetch?: FetchFn;
  /** Default per-attempt time-out in ms; defaults to 60 000. 0 or Infinity means none. */
  timeoutMs?: number;
  /** Retry policy (partial values merge with the defaults); false disables retries. */
  retry?: Partial<RetryPolicy> | false;
  /** Random source in [0, 1) for backoff jitter; defaults to Math.random. */
  random?: () => number;
  /** Waits between attempts; defaults to an abortable setTimeout. Tests inject a fake. */
  sleep?: SleepFn;
  /** Clock for Retry-After HTTP dates; defaults to Date.now. */
  now?: () => number;
  logger?: Logger;
  /**
   * Stream upload bodies to report progress chunk by chunk. Defaults to true
   * in Node; browsers get 0 before and total after (see upload.ts).
   */
  streamUploads?: boolean;
}

/** An HttpApi that also lets the auth layer read and swap the token. */
export interface HttpClient extends HttpApi {
  readonly baseUrl: string;
  getAccessToken(): string | undefined;
  /** Replaces the token (or the getter) for every later request. */
  setAccessToken(token: string | undefined): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

function abortedError(signal: AbortSignal): ConnectionError {
  return new ConnectionError("aborted", "Request aborted", { cause: signal.reason });
}

/** The default sleep: a setTimeout that an AbortSignal can cut short. */
export const defaultSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      if (signal) reject(abortedError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Creates an HTTP client over fetch. See the file overview for its rules. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  let token = options.accessToken;
  const fetchImpl: FetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const policy: RetryPolicy =
    options.retry === false
      ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 }
      : { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const log: Partial<Logger> = options.logger ?? {};
  const streamUploads = options.streamUploads ?? canStreamUploads();

  const getAccessToken = (): string | undefined => (typeof token === "function" ? token() : token);

  /** One attempt against one concrete prefix and path. */
  async function attempt(opts: RequestOptions, prefix: string, path: string): Promise<unknown> {
    const signal = opts.signal;
    if (signal?.aborted) throw abortedError(signal);
    const query = encodeQuery(opts.query);
    const url = `${(opts.baseUrl ?? baseUrl).replace(/\/+$/, "")}${prefix}${path}${query ? `?${query}` : ""}`;

    const headers: Record<string, string> = {};
    if (opts.authenticated !== false) {
      const bearer = opts.accessToken ?? getAccessToken();
      if (bearer) headers["Authorization"] = `Bearer ${bearer}`;
    }
    let upload: PreparedUpload | undefined;
    let body: FetchBody | undefined;
    if (opts.rawBody !== undefined) {
      upload = await prepareUpload(opts.rawBody, opts.onUploadProgress, streamUploads);
      body = upload.body;
      headers["Content-Type"] = opts.contentType ?? "application/octet-stream";
      if (upload.length !== undefined) headers["Content-Length"] = String(upload.length);
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["Content-Type"] = "application/json";
    }

    const controller = new AbortController();
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timedOut = false;
    // setTimeout fires at once for Infinity or anything past 2^31-1 ms, so
    // a non-finite or non-positive time-out means none, and huge ones are capped.
    const timer =
      Number.isFinite(timeoutMs) && timeoutMs > 0
        ? setTimeout(
            () => {
              timedOut = true;
              controller.abort();
            },
            Math.min(timeoutMs, MAX_TIMER_MS),
          )
        : undefined;
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });

    /** Classifies a fetch or body-read failure. */
    const failure = (err: unknown): ConnectionError => {
      if (signal?.aborted) return abortedError(signal);
      if (timedOut)
        return new ConnectionError("timeout", `Request timed out after ${timeoutMs} ms`, { cause: err });
      return new ConnectionError("network", `Network error on ${opts.method} ${prefix}${path}`, {
        cause: err,
      });
    };

    try {
      const init: RequestInit & { duplex?: "half" } = {
        method: opts.method,
        headers,
        signal: controller.signal,
      };
      if (body !== undefined) init.body = body;
      if (upload?.streaming) init.duplex = "half";
      let res: Response;
      try {
        res = await fetchImpl(url, init);
      } catch (err) {
        throw failure(err);
      }
      upload?.done();
      return await readAnswer(res, opts.responseType ?? "json", now, failure, opts.readBody);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Attempts with bounded retries against one prefix and path. */
  async function withRetries(opts: RequestOptions, prefix: string, path: string): Promise<unknown> {
    for (let n = 1; ; n++) {
      try {
        return await attempt(opts, prefix, path);
      } catch (err) {
        const delay = opts.retry === false ? null : retryDelay(err, n, policy, random);
        if (delay === null) throw err;
        log.warn?.(`Retrying ${opts.method} ${prefix}${path} in ${delay} ms (attempt ${n + 1})`, err);
        try {
          await sleep(delay, opts.signal);
        } catch (sleepErr) {
          if (opts.signal?.aborted) throw abortedError(opts.signal);
          throw sleepErr;
        }
      }
    }
  }

  async function request<T>(opts: RequestOptions): Promise<T> {
    const candidates = [
      { prefix: opts.prefix ?? Prefix.ClientV3, path: opts.path },
      ...(opts.fallback ?? []).map((f) => ({ prefix: f.prefix, path: f.path ?? opts.path })),
    ];
    for (const [i, candidate] of candidates.entries()) {
      try {
        return (await withRetries(opts, candidate.prefix, candidate.path)) as T;
      } catch (err) {
        if (i + 1 < candidates.length && isUnrecognisedError(err)) {
          log.debug?.(
            `${opts.method} ${candidate.prefix}${candidate.path} unrecognised; trying the next prefix`,
          );
          continue;
        }
        throw err;
      }
    }
    // The loop returns or throws on its last candidate; there is always at least one.
    throw new ConnectionError("network", `${opts.method} ${opts.path}: no request candidate`);
  }

  return {
    baseUrl,
    request,
    getAccessToken,
    setAccessToken: (next) => {
      token = next;
    },
  };
}
