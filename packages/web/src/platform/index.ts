/**
 * The browser platform the SDK's calls run over (GUIDE §4): the SDK never
 * touches `navigator`; the app hands it this.
 */
export { createBrowserMediaPlatform } from "./media";
export type { BrowserMediaPlatform } from "./media";
export { domStream } from "./peer";
