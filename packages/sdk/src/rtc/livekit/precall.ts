/**
 * The pre-call check's LiveKit part: can we get a call token from the
 * focus's token service (our OpenID token checked by it, the whole flow a
 * join takes), and does the SFU it names answer? Each failure is told in
 * the same words a join would fail with (SfuTokenError,
 * LiveKitConnectionError), naming the service or the SFU, so the check and
 * the error a user saw agree.
 */
import { LiveKitConnectionError } from "./connection";
import { SfuTokenError } from "./token";
import type { SfuToken } from "./token";

export type LiveKitReachability = "reachable" | "unreachable" | "refused" | "failed" | "not_checked";

export interface LiveKitCheckResult {
  /** The token service (lk-jwt-service) checked. */
  readonly serviceUrl: string;
  readonly tokenService: LiveKitReachability;
  /** The SFU the token named; undefined when no token came. */
  readonly sfuUrl: string | undefined;
  readonly sfu: LiveKitReachability;
  /** What went wrong, in words; undefined when both answered. */
  readonly error: string | undefined;
}

export interface LiveKitCheckOptions {
  serviceUrl: string;
  /** Asks the service for a token (requestSfuToken with a fresh OpenID token). */
  token: () => Promise<SfuToken>;
  fetch?: typeof globalThis.fetch;
  /** How long the SFU gets to answer. */
  timeoutMs?: number;
}

/** The SFU's signalling URL as the HTTP(S) URL it also answers on. */
function httpUrlOf(sfuUrl: string): string {
  return sfuUrl.replace(/^ws(s?):\/\//, "http$1://");
}

/** Runs the check: a token from the service, then one request to the SFU. */
export async function checkLiveKitFocus(options: LiveKitCheckOptions): Promise<LiveKitCheckResult> {
  const { serviceUrl } = options;
  let token: SfuToken;
  try {
    token = await options.token();
  } catch (error) {
    const code = error instanceof SfuTokenError ? error.code : "failed";
    return {
      serviceUrl,
      tokenService: code === "unreachable" ? "unreachable" : code === "rejected" ? "refused" : "failed",
      sfuUrl: undefined,
      sfu: "not_checked",
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  try {
    // Any answer will do (an opaque one included): the SFU is there.
    await doFetch(httpUrlOf(token.url), {
      mode: "no-cors",
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    return { serviceUrl, tokenService: "reachable", sfuUrl: token.url, sfu: "reachable", error: undefined };
  } catch (cause) {
    return {
      serviceUrl,
      tokenService: "reachable",
      sfuUrl: token.url,
      sfu: "unreachable",
      error: new LiveKitConnectionError("unreachable", token.url, cause).message,
    };
  }
}
