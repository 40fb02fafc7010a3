/**
 * The observable value view models publish their state with (the SDK's, so
 * React reads both alike through useObservable), and its read-only type:
 * what components and features use, since they never import the SDK.
 */
export { ObservableValue } from "../sdk";
export type { ReadonlyObservable } from "../sdk";
