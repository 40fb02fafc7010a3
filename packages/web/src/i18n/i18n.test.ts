import { describe, expect, it } from "vitest";
import { LANGUAGES, i18n, setLanguage, t } from "./i18n";

describe("i18n", () => {
  it("translates with interpolation from the English catalogue", () => {
    expect(t("common", "error_generic", { message: "<b>" })).toBe("Something went wrong: <b>");
    expect(t("common", "cancel")).toBe("Cancel");
  });
  it("has the shell's strings (account bar, spaces bar, room list, connection banner)", () => {
    expect(t("shell", "theme_change", { theme: t("shell", "theme_dark") })).toBe("Theme: dark. Change theme");
    expect(t("shell", "offline_since", { when: "14:05" })).toBe(
      "Not syncing: offline since 14:05. Messages may be out of date.",
    );
    for (const id of ["all", "people", "rooms", "favourites", "low", "invites"])
      expect(t("shell", `section_${id}`)).not.toBe(`section_${id}`);
  });
  it("falls back to English for an unknown language", async () => {
    await setLanguage("xx");
    expect(i18n.language).toBe("en");
    expect(LANGUAGES.map((l) => l.code)).toContain("en");
  });
});
