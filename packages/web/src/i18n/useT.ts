/**
 * The components' translator: `const t = useT("timeline")` then
 * `t("key", { name })`. Re-renders when the language changes.
 */
import { useCallback, useSyncExternalStore } from "react";
import { i18n, t as translate } from "./i18n";
import type { Namespace } from "./i18n";

function subscribe(listener: () => void): () => void {
  i18n.on("languageChanged", listener);
  return () => i18n.off("languageChanged", listener);
}
const language = (): string => i18n.language;

/** A translator bound to one namespace. */
export function useT(ns: Namespace): (key: string, vars?: Record<string, string | number>) => string {
  const lng = useSyncExternalStore(subscribe, language, language);
  // lng re-binds the translator on a language change, so memoised children re-render.
  return useCallback((key, vars) => (lng === "" ? key : translate(ns, key, vars)), [ns, lng]);
}
