/**
 * The test homeservers started in this process and not yet stopped, and how
 * many of each one's spec mismatches were already reported. A module of its
 * own, so the Vitest setup file that reads it after every test does not load
 * the whole server (routes, the spec's definitions) into the many test files
 * that never start one.
 */

/** What the registry reads of a running server. */
interface Watched {
  readonly validationErrors: readonly string[];
}

const live = new Set<Watched>();
const reported = new WeakMap<Watched, number>();

/** Adds a started server; `stop` removes it with forgetServer. */
export function watchServer(server: Watched): void {
  live.add(server);
}

/** Removes a stopped server. */
export function forgetServer(server: Watched): void {
  live.delete(server);
}

/**
 * Spec mismatches recorded by any live server since the last call. The
 * Vitest setup file calls it after each test and fails the test on any.
 */
export function takeNewValidationErrors(): string[] {
  const out: string[] = [];
  for (const server of live) {
    const seen = reported.get(server) ?? 0;
    out.push(...server.validationErrors.slice(seen));
    reported.set(server, server.validationErrors.length);
  }
  return out;
}
