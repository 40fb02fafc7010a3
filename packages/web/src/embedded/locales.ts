/**
 * The embedded page's English catalogue: only the namespaces its room view
 * and call view show (the page has no sign-in, settings, room list or
 * spaces). vite.embedded.config.ts resolves i18n.ts's `./locales/en` here;
 * a namespace missing from this list would show its keys, so the page's
 * browser test reads its strings in English, and locales.test.ts checks
 * that every namespace the embedded modules name is here.
 */
import { calls } from "../i18n/locales/en/calls";
import { common } from "../i18n/locales/en/common";
import { composer } from "../i18n/locales/en/composer";
import { embedded } from "../i18n/locales/en/embedded";
import { rooms } from "../i18n/locales/en/rooms";
import { threads } from "../i18n/locales/en/threads";
import { timeline } from "../i18n/locales/en/timeline";
import { widgets } from "../i18n/locales/en/widgets";

export const en = { calls, common, composer, embedded, rooms, threads, timeline, widgets };
