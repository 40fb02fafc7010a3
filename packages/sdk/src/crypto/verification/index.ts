/**
 * Interactive verification (SAS emoji, m.sas.v1): the manager that sends and
 * receives requests, the observable flow, and the specification's emoji table.
 */
export { Verifications, UnknownDeviceError } from "./Verifications";
export type { VerificationHost, VerificationsOptions, VerificationRequestListener } from "./Verifications";
export { VerificationFlow, VERIFICATION_TIMEOUT_MS } from "./VerificationFlow";
export type {
  VerificationCancel,
  VerificationListener,
  VerificationPhase,
  VerificationState,
} from "./VerificationFlow";
export { SAS_EMOJI, sasEmoji } from "./emoji";
export type { SasEmoji } from "./emoji";
export type { CryptoInternals } from "./internals";
