/**
 * A service a client was built without (client/core.ts): it has the
 * service's type, so the Client surface stays the same, and any call on it,
 * or on anything reached through it (`crypto.verification.requestUser()`),
 * answers a promise rejected with a ClientServiceError "NOT_AVAILABLE" that
 * names the service, e.g. 'The moderation service is not available in an
 * embedded client'. A rejection, not a throw: the services' calls are
 * async, so a caller's `.catch` or try/await handles it as it handles a
 * server's refusal (a synchronous member, such as a subscription, gets the
 * same rejected promise: a client without the service has nothing to
 * subscribe to). Reading it never throws: spreading a client, or passing it
 * around, is safe.
 */
import { ClientServiceError } from "./errors";

/** The error a call on a left-out service throws. */
export function notAvailable(service: string, where: string): ClientServiceError {
  return new ClientServiceError("NOT_AVAILABLE", `The ${service} service is not available in ${where}`);
}

function absent(service: string, where: string): unknown {
  const handler: ProxyHandler<() => void> = {
    apply: () => Promise.reject(notAvailable(service, where)),
    // Not a thenable (awaiting it gives it back), no conversions: only calls fail, with the clear error.
    get: (_target, key) => (typeof key === "symbol" || key === "then" ? undefined : proxy),
  };
  const proxy: unknown = new Proxy(() => undefined, handler);
  return proxy;
}

/**
 * A stand-in for `service` in a client built without it (`where`: "an
 * embedded client"). The members of `kept` answer as given (a crypto
 * service's `enabled: false`); every other call rejects with `notAvailable`.
 */
export function unavailableService<T extends object>(
  service: string,
  where: string,
  kept: Partial<T> = {},
): T {
  const rest = absent(service, where);
  return new Proxy(kept, {
    get: (target, key) =>
      key in target ? Reflect.get(target, key) : typeof key === "symbol" || key === "then" ? undefined : rest,
  }) as T;
}
