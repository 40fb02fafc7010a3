/**
 * Runs the Store conformance suite against every backend: memory,
 * IndexedDB (fake-indexeddb in Node) and IndexedDB behind the degrading
 * wrapper.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { FallbackStore, IndexedDbStore, MemoryStore } from "../../src/store";
import { runStoreConformance } from "./conformance";

let counter = 0;

runStoreConformance("MemoryStore", async () => {
  const store = new MemoryStore();
  await store.open();
  return { store };
});

runStoreConformance("IndexedDbStore", async () => {
  const factory = new IDBFactory();
  const dbName = `lattice-test-${++counter}`;
  let store = new IndexedDbStore({ indexedDB: factory, dbName });
  await store.open();
  return {
    store,
    reopen: async () => {
      await store.close();
      store = new IndexedDbStore({ indexedDB: factory, dbName });
      await store.open();
      return store;
    },
  };
});

runStoreConformance("FallbackStore(IndexedDbStore)", async () => {
  const factory = new IDBFactory();
  const dbName = `lattice-fallback-${++counter}`;
  const make = () => new FallbackStore(new IndexedDbStore({ indexedDB: factory, dbName }));
  let store = make();
  await store.open();
  return {
    store,
    reopen: async () => {
      await store.close();
      store = make();
      await store.open();
      return store;
    },
  };
});
