/**
 * For contract cases of calls that carry their own base URL (identity
 * server, well-known, discovery checks): the runner's loopback base URL,
 * read from the HttpClient it hands to each case, so those requests reach
 * the validating server too.
 */
import type { HttpApi } from "../../../src/http/types";

/** The base URL of the HttpClient the contract runner passes in. */
export function runnerBaseUrl(http: HttpApi): string {
  const baseUrl: unknown = (http as { baseUrl?: unknown }).baseUrl;
  if (typeof baseUrl !== "string") throw new Error("The contract runner's HttpApi has no baseUrl");
  return baseUrl;
}

/** Throws when `ok` is false: the assertion of `check` callbacks. */
export function expectThat(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}
