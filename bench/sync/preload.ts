/**
 * Preloaded into every bench child (node --import): polyfills
 * Promise.withResolvers, which newer matrix-js-sdk releases call and Node 20
 * lacks. Installed only when missing, so it changes nothing on newer Nodes.
 */

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

export {};
