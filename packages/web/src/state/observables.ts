/**
 * The observable value view models publish their state with (the SDK's, so
 * React reads both alike through useObservable).
 */
export { ObservableValue } from "../sdk";
