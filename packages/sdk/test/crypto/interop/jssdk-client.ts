/**
 * A matrix-js-sdk 43 client for interop tests: its own Rust crypto with a
 * memory store (initRustCrypto({ useIndexedDB: false })), a quiet logger,
 * started against a homeserver and resolved once its first sync is
 * prepared. Node 20 lacks Promise.withResolvers, which the js-sdk calls:
 * polyfilled here as bench/sync/preload.ts does for the benchmark.
 */
import "fake-indexeddb/auto";
import type { MatrixClient } from "matrix-js-sdk";
import type { Logger } from "matrix-js-sdk/lib/logger.js";
import type { Account, TestServerHandle } from "../helpers";

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}
const promiseStatics = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
if (typeof promiseStatics.withResolvers !== "function") {
  promiseStatics.withResolvers = <T>(): Resolvers<T> => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const noop = (): void => undefined;
/** The js-sdk's logs would drown the test output. */
const quietLogger: Logger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  getChild: () => quietLogger,
};

export interface JsClientOptions {
  /** Answers the js-sdk's request for a secret storage key: [key id, key bytes]. */
  secretStorageKey?: (request: {
    keys: Record<string, unknown>;
  }) => Promise<[string, Uint8Array<ArrayBuffer>] | null>;
}

/**
 * Creates, starts and waits for the first prepared sync of a js-sdk client,
 * on any homeserver (the test homeserver, or an interop server's URL).
 */
export async function startJsClient(
  server: Pick<TestServerHandle, "url">,
  account: Pick<Account, "userId" | "deviceId" | "accessToken">,
  options: JsClientOptions = {},
): Promise<MatrixClient> {
  const sdk = await import("matrix-js-sdk");
  const { logger } = await import("matrix-js-sdk/lib/logger.js");
  (logger as unknown as { setLevel(level: string): void }).setLevel("silent");
  const client = sdk.createClient({
    baseUrl: server.url,
    userId: account.userId,
    deviceId: account.deviceId,
    accessToken: account.accessToken,
    store: new sdk.MemoryStore(),
    logger: quietLogger,
    ...(options.secretStorageKey
      ? { cryptoCallbacks: { getSecretStorageKey: options.secretStorageKey } }
      : {}),
  });
  await client.initRustCrypto({ useIndexedDB: false });
  const prepared = new Promise<void>((resolve) => {
    client.on(sdk.ClientEvent.Sync, (state: string) => {
      if (state === "PREPARED") resolve();
    });
  });
  await client.startClient({ initialSyncLimit: 20, pollTimeout: 2_000 });
  await prepared;
  return client;
}
