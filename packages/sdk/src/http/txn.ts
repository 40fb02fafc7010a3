/**
 * Transaction ids for idempotent PUTs (send, redact, sendToDevice): 'm' plus
 * a timestamp and a counter (SPEC §9), so ids stay unique within a session
 * even when two are made in the same millisecond, and across restarts because
 * of the timestamp.
 */

/** Makes a new transaction id on each call. */
export type TxnIdGenerator = () => string;

/** Creates a generator of ids shaped `m<timestamp>.<counter>`; `now` is injectable for tests. */
export function createTxnIdGenerator(now: () => number = Date.now): TxnIdGenerator {
  let counter = 0;
  return () => `m${now()}.${counter++}`;
}
