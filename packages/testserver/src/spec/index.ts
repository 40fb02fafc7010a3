/**
 * OpenAPI and event-schema validation against the official Matrix
 * definitions (../shared/matrix-spec): used by the SDK's contract tests and
 * by the test homeserver to check every response it gives in test mode.
 */
export { SpecValidator, getSpecValidator } from "./validator";
export type {
  QueryInput,
  SpecRequest,
  SpecResponse,
  SpecValidatorOptions,
  ValidationResult,
} from "./validator";
export { EventValidator } from "./events";
export { OperationIndex, matchTemplate } from "./operations";
export type { Operation, OperationMatch } from "./operations";
export { SpecNotFoundError, findRepoRoot, findSpecDataDir } from "./locate";
