/**
 * What the crypto submodules built beside the adapter (cross-signing,
 * verification, identity warnings) need from a CryptoMachine: the engine,
 * its OlmMachine, the outgoing request processor and the HTTP client. Apps
 * never use this; they go through those submodules.
 */
import type { Logger } from "../../util/logger";
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { HttpApi } from "../../http/types";
import type { Engine } from "../load";
import type { OutgoingRequests } from "../OutgoingRequests";

/** The adapter's engine handles, as `CryptoMachine.internals` hands them out. */
export interface CryptoInternals {
  readonly userId: string;
  readonly deviceId: string;
  readonly engine: Engine;
  readonly machine: OlmMachine;
  readonly outgoing: OutgoingRequests;
  readonly http: HttpApi;
  readonly logger: Pick<Logger, "warn">;
}
