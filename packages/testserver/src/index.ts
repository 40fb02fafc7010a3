/**
 * The Lattice test homeserver: an in-memory, single-process Matrix
 * homeserver for tests and the local demo. Not a production homeserver.
 */
export { startTestServer } from "./server";
export type { TestServerHandle, ExchangeValidator } from "./server";
export type { RtcTransportConfig, TestServerOptions } from "./core/config";
export type { ServerProfile } from "./core/legacy";
export { ManualClock, systemClock } from "./core/clock";
export type { Clock } from "./core/clock";
export type { FaultRule } from "./http/faults";
export * from "./identity";
