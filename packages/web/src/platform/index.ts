/**
 * The browser platform the SDK's calls run over (GUIDE §4): the SDK never
 * touches `navigator`; the app hands it this.
 */
export { createBrowserMediaPlatform, captureConstraints } from "./media";
export type {
  BrowserMediaPlatform,
  BrowserMediaPlatformOptions,
  MediaPreferences,
  MediaScope,
} from "./media";
export { domStream, sdkStream } from "./peer";
