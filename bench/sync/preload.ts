/**
 * Preloaded into every bench child (node --import):
 * - caps fetch at 6 connections per host, as a browser does. Node's fetch
 *   (undici) has no such cap, so a client that starts thousands of requests
 *   at once (matrix-js-sdk fetching every thread root at 3,000 rooms) opened
 *   a socket each and they all failed with "fetch failed". Both children get
 *   the same dispatcher, so the comparison stays fair. The undici package is
 *   the major version Node 20 bundles, so its global dispatcher is the one
 *   Node's own fetch reads.
 * - polyfills Promise.withResolvers, which newer matrix-js-sdk releases call
 *   and Node 20 lacks. Installed only when missing, so it changes nothing on
 *   newer Nodes.
 */
import { Agent, setGlobalDispatcher } from "undici";

/** A browser's connections per host (HTTP/1.1). */
export const CONNECTIONS_PER_HOST = 6;

setGlobalDispatcher(new Agent({ connections: CONNECTIONS_PER_HOST }));

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const PromiseWithResolvers = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };

if (typeof PromiseWithResolvers.withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(): Resolvers<T> {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
