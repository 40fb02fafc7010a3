/**
 * Lazy loading of the crypto engine (@matrix-org/matrix-sdk-crypto-wasm).
 * The WebAssembly module is a few megabytes, so nothing in the SDK imports
 * it statically: the first caller that needs encryption goes through
 * `loadCryptoEngine`, which imports the package dynamically and runs its
 * `initAsync` once (in Node it reads the .wasm from the package's own files;
 * in browsers the bundler serves it). Every other crypto file imports the
 * package with `import type` only.
 */
import type * as CryptoEngine from "@matrix-org/matrix-sdk-crypto-wasm";

/** The loaded engine module: OlmMachine, UserId, RoomId and friends. */
export type Engine = typeof CryptoEngine;

let loading: Promise<Engine> | undefined;
let loads = 0;

/**
 * Imports and initialises the engine once; later calls share the same
 * promise. A failed load is forgotten, so a later call can try again.
 */
export function loadCryptoEngine(): Promise<Engine> {
  if (loading) return loading;
  loads += 1;
  const attempt = (async (): Promise<Engine> => {
    const engine = await import("@matrix-org/matrix-sdk-crypto-wasm");
    await engine.initAsync();
    return engine;
  })();
  loading = attempt;
  attempt.catch(() => {
    if (loading === attempt) loading = undefined;
  });
  return attempt;
}

/** Whether `loadCryptoEngine` has been called (the engine is loaded or loading). */
export function isCryptoEngineRequested(): boolean {
  return loading !== undefined;
}

/** How many times a load was started: 1 after any number of successful calls. */
export function cryptoEngineLoadCount(): number {
  return loads;
}
