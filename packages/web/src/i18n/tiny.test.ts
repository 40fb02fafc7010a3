/**
 * The embedded page's translator (tiny.ts) against i18next, with the
 * app's whole English catalogue: every key, with its placeholders filled,
 * with counts 0, 1 and 5, with a placeholder missing, and an unknown key,
 * translates to the same text; a language change reaches the listeners.
 */
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { en } from "./locales/en";
import tiny from "./tiny";

const options = {
  lng: "en",
  fallbackLng: "en",
  initAsync: false,
  resources: { en },
  ns: Object.keys(en),
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;

describe("tiny translator", () => {
  it("translates every key of the catalogue as i18next does", async () => {
    const real = i18next.createInstance();
    await real.init(options);
    const small = tiny.createInstance();
    await small.init(options);
    let checked = 0;
    for (const [ns, table] of Object.entries(en) as Array<[string, Record<string, string>]>) {
      for (const [fullKey, text] of Object.entries(table)) {
        const key = fullKey.replace(/_(one|other)$/, "");
        const vars: Record<string, string> = {};
        for (const m of text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) vars[m[1] ?? ""] = `<${m[1] ?? ""}>`;
        for (const extra of [{}, { count: 0 }, { count: 1 }, { count: 5 }]) {
          const o = { ns, ...vars, ...extra };
          expect(small.t(key, o), `${ns}:${key}`).toBe(real.t(key, o));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(small.t("no_such_key", { ns: "common" })).toBe(real.t("no_such_key", { ns: "common" }));
    expect(small.t("error_generic", { ns: "common" })).toBe(real.t("error_generic", { ns: "common" }));
  });

  it("adds a namespace later, as i18next's addResourceBundle does", async () => {
    const real = i18next.createInstance();
    const small = tiny.createInstance();
    const some = { ...options, resources: { en: { common: en.common } } };
    await real.init(some);
    await small.init(some);
    expect(small.t("jump_latest", { ns: "timeline" })).toBe(real.t("jump_latest", { ns: "timeline" }));
    real.addResourceBundle("en", "timeline", { jump_latest: "old" }, true, true);
    real.addResourceBundle("en", "timeline", en.timeline, true, true);
    small.addResourceBundle("en", "timeline", { jump_latest: "old" });
    small.addResourceBundle("en", "timeline", en.timeline);
    expect(small.t("jump_latest", { ns: "timeline" })).toBe(real.t("jump_latest", { ns: "timeline" }));
    expect(small.t("jump_latest", { ns: "timeline" })).toBe(en.timeline.jump_latest);
  });

  it("tells listeners of a language change and falls back to English", async () => {
    const small = tiny.createInstance();
    await small.init(options);
    const seen: string[] = [];
    const listener = (lng: string): void => void seen.push(lng);
    small.on("languageChanged", listener);
    await small.changeLanguage("fr");
    small.off("languageChanged", listener);
    await small.changeLanguage("en");
    expect(seen).toEqual(["fr"]);
    await small.changeLanguage("fr");
    expect(small.language).toBe("fr");
    expect(small.t("cancel", { ns: "common" })).toBe("Cancel");
  });
});
