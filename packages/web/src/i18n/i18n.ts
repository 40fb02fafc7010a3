/**
 * The app's translations: one i18next instance, English bundled (it is the
 * fallback and the only complete language), further languages added to
 * `catalogues` as they come. Every user-visible string goes through `t`
 * (outside React) or `useT` (inside components), keyed by a namespace per
 * feature: each feature owns `locales/<lang>/<namespace>.ts`.
 */
import i18next from "i18next";
import type { i18n as I18n } from "i18next";
import { en } from "./locales/en";

/** The languages the app offers, with their own names for the picker. */
export const LANGUAGES = [{ code: "en", name: "English" }] as const;
type LanguageCode = (typeof LANGUAGES)[number]["code"];

/** Namespaces are the keys of the English catalogue: a new feature adds one there. */
export type Namespace = keyof typeof en;

const catalogues: Record<LanguageCode, Record<string, Record<string, string>>> = { en };

const instance: I18n = i18next.createInstance();
void instance.init({
  lng: "en",
  fallbackLng: "en",
  initAsync: false,
  resources: Object.fromEntries(Object.entries(catalogues).map(([lng, ns]) => [lng, ns])),
  ns: Object.keys(en),
  defaultNS: "common",
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

/** The shared instance (tests and the language setting use it). */
export const i18n: I18n = instance;

/** Translates `key` of `ns`, interpolating `{{name}}` placeholders and plurals (`count`). */
export function t(ns: Namespace, key: string, vars?: Record<string, string | number>): string {
  return instance.t(key, { ns, ...vars });
}

/** Switches the language; unknown codes fall back to English. */
export async function setLanguage(code: string): Promise<void> {
  const known = LANGUAGES.some((l) => l.code === code);
  await instance.changeLanguage(known ? code : "en");
}
