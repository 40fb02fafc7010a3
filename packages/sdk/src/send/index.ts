/**
 * The send queues: room events (local echo, txn ids, statuses, retries,
 * persistence, remote echo) and the persistent to-device queue.
 */
export { SendQueue } from "./SendQueue";
export type { EncryptFn, PendingEvent, RemoteEcho, SendOptions, SendQueueOptions } from "./types";
export { ToDeviceQueue, toWireMessages } from "./ToDeviceQueue";
export type { ToDeviceQueueOptions } from "./ToDeviceQueue";
export { isConnectionDown } from "./connection";
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
