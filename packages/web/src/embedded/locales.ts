/**
 * The embedded page's English catalogue before its view: the namespaces
 * the page itself shows (its states, and the default namespace). Each
 * view adds its own as it loads (roomLocales.ts, callLocales.ts), so the
 * room view carries no call strings and the call view no timeline or
 * composer strings. vite.embedded.config.ts resolves i18n.ts's
 * `./locales/en` here; a namespace missing would show its keys, so the
 * page's browser tests read its strings in English.
 */
import { common } from "../i18n/locales/en/common";
import { embedded } from "../i18n/locales/en/embedded";

export const en = { common, embedded };
