/**
 * Logout clears the engine's store: deleteCryptoStore removes both IndexedDB
 * databases of a store name (fake-indexeddb here; the engine's own browser
 * store is exercised only in Chromium) and leaves other databases alone.
 */
import { IDBFactory } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { CRYPTO_STORE_SUFFIXES, deleteCryptoStore } from "../../src/crypto/store";

function create(factory: InstanceType<typeof IDBFactory>, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore("s");
    };
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
    req.onerror = () => reject(new Error("open failed", { cause: req.error }));
  });
}

describe("deleteCryptoStore", () => {
  it("deletes the engine's two databases of the store name only", async () => {
    const factory = new IDBFactory();
    for (const suffix of CRYPTO_STORE_SUFFIXES) await create(factory, `lattice-@a:x-DEV${suffix}`);
    await create(factory, `lattice-@b:x-DEV${CRYPTO_STORE_SUFFIXES[0]}`);
    await create(factory, "lattice-sync");
    await deleteCryptoStore(factory, "lattice-@a:x-DEV");
    const databases: Array<{ name?: string }> = await factory.databases();
    const names = databases.map((d) => d.name).sort();
    expect(names).toEqual(["lattice-@b:x-DEV::matrix-sdk-crypto", "lattice-sync"]);
  });
});
