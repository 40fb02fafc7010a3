/**
 * The HTTP layer's public surface: the request contract (types), the client,
 * typed errors, retry policy, query encoding, transaction ids and uploads.
 */
export * from "./types";
export * from "./errors";
export { createHttpClient, defaultSleep } from "./client";
export type { FetchFn, HttpClient, HttpClientOptions, SleepFn } from "./client";
export { DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelay } from "./retry";
export type { RetryPolicy } from "./retry";
export { encodeQuery } from "./query";
export { createTxnIdGenerator } from "./txn";
export type { TxnIdGenerator } from "./txn";
export { toMatrixError } from "./response";
