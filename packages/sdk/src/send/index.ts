/**
 * The send queue: local echo, txn ids, statuses, retries, persistence and
 * remote echo for everything this client sends into rooms.
 */
export { SendQueue } from "./SendQueue";
export type { EncryptFn, PendingEvent, RemoteEcho, SendQueueOptions } from "./types";
export { SendQueueError } from "./errors";
export type { SendQueueErrorCode } from "./errors";
export {
  BLOCKED_MESSAGE,
  DEFAULT_SEND_RETRY_POLICY,
  ENCRYPTION_UNSUPPORTED_MESSAGE,
  classifyFailure,
  isTransient,
  sendRetryDelay,
} from "./failure";
export type { SendFailure, SendFailureKind } from "./failure";
