import { describe, expect, it } from "vitest";
import { LANGUAGES, i18n, setLanguage, t } from "./i18n";

describe("i18n", () => {
  it("translates with interpolation from the English catalogue", () => {
    expect(t("common", "error_generic", { message: "<b>" })).toBe("Something went wrong: <b>");
    expect(t("common", "cancel")).toBe("Cancel");
  });
  it("falls back to English for an unknown language", async () => {
    await setLanguage("xx");
    expect(i18n.language).toBe("en");
    expect(LANGUAGES.map((l) => l.code)).toContain("en");
  });
});
