/**
 * OpenAPI and event-schema validation against the official Matrix
 * definitions, as the committed spec bundle (spec-bundle.json, generated
 * from ../shared/matrix-spec by `npm run spec:bundle`) holds them: used by
 * the SDK's contract tests and by the test homeserver to check every
 * response it gives in test mode.
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
export { SPEC_BUNDLE_PATH, SpecBundleError, loadSpecBundle } from "./bundle";
export type { SpecBundle } from "./bundle";
export { SpecNotFoundError, findRepoRoot, findSpecDataDir } from "./locate";
