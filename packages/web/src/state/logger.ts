/**
 * The SDK's log sink in the browser: warnings and errors go to the console
 * (a failed key share, a sync retry, a dropped event are otherwise
 * invisible to whoever debugs the app), info too since the SDK logs little
 * at that level (which sync it chose, a discarded cache); debug detail only
 * when `localStorage["lattice.debug"]` is "1".
 */
import type { Logger } from "../sdk";

function debugOn(): boolean {
  try {
    return globalThis.localStorage?.getItem("lattice.debug") === "1";
  } catch {
    // Storage can be blocked (sandboxed frames, privacy settings): no debug then.
    return false;
  }
}

/** A Logger that writes to the console, each line marked as Lattice's. */
export function consoleLogger(): Logger {
  const debug = debugOn();
  return {
    ...(debug
      ? { debug: (message: string, ...data: unknown[]) => console.debug(`[lattice] ${message}`, ...data) }
      : {}),
    info: (message, ...data) => console.info(`[lattice] ${message}`, ...data),
    warn: (message, ...data) => console.warn(`[lattice] ${message}`, ...data),
    error: (message, ...data) => console.error(`[lattice] ${message}`, ...data),
  };
}
