/**
 * The engine's own IndexedDB store in browsers. OlmMachine.initialize with
 * a store name opens two databases, `<name>::matrix-sdk-crypto` and
 * `<name>::matrix-sdk-crypto-meta`; a logout closes the machine and deletes
 * both, so no key outlives the session on that browser.
 */

import { CryptoError } from "./errors";

/** The database name suffixes the engine uses for a store name. */
export const CRYPTO_STORE_SUFFIXES = ["::matrix-sdk-crypto", "::matrix-sdk-crypto-meta"] as const;

/** What deleting needs from an IndexedDB factory (window.indexedDB or fake-indexeddb). */
export interface DatabaseDeleter {
  deleteDatabase(name: string): {
    onsuccess: ((event: unknown) => void) | null;
    onerror: ((event: unknown) => void) | null;
    onblocked: ((event: unknown) => void) | null;
    error?: unknown;
  };
}

function deleteOne(factory: DatabaseDeleter, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    // Blocked means another tab still has it open: it is deleted once that tab closes it.
    request.onblocked = () => resolve();
    request.onerror = () =>
      reject(
        new CryptoError("engine_failure", `Deleting the crypto database ${name} failed`, {
          cause: request.error,
        }),
      );
  });
}

/** Deletes the engine's databases for `storeName`. Close the CryptoMachine first. */
export async function deleteCryptoStore(factory: DatabaseDeleter, storeName: string): Promise<void> {
  for (const suffix of CRYPTO_STORE_SUFFIXES) await deleteOne(factory, storeName + suffix);
}
