/**
 * The SDK's one logger shape. Every layer reports what it retries, drops or
 * swallows through it; `console` is one, and so is any app logger with
 * these four methods. A module that only warns asks for
 * `Pick<Logger, "warn">`, so a caller (or a test) can hand it just that.
 */

/** Where the SDK reports what it retries, drops or swallows. */
export interface Logger {
  /** Detail most sinks drop (retries, fallbacks); optional. */
  debug?(message: string, ...data: unknown[]): void;
  info(message: string, ...data: unknown[]): void;
  warn(message: string, ...data: unknown[]): void;
  error(message: string, ...data: unknown[]): void;
}

/** A logger that drops everything: the default where none is given. */
export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
