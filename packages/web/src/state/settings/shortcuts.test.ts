/**
 * Settings › Keyboard shortcuts and Help & About: the sections exist, every
 * listed shortcut has its words, Ctrl+K (the search) is listed and shown as
 * key caps, and the version shown is the package's.
 */
import { readFile } from "node:fs/promises";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HelpSection, ShortcutsSection } from "../../features/settings/ShortcutsSection";
import { settings as en } from "../../i18n/locales/en/settings";
import { SETTINGS_SECTIONS } from "./SettingsViewModel";
import { ABOUT, SHORTCUTS, shortcutKeysOf } from "./shortcuts";

describe("keyboard shortcuts and about", () => {
  it("are sections of Settings with their titles", () => {
    expect(SETTINGS_SECTIONS).toContain("shortcuts");
    expect(SETTINGS_SECTIONS).toContain("help");
    expect(en.section_shortcuts).toBe("Keyboard shortcuts");
    expect(en.section_help).toBe("Help & About");
  });

  it("lists the app's shortcuts, each with its words", () => {
    const strings = en as Record<string, string>;
    for (const group of SHORTCUTS) {
      expect(strings[group.title]).toBeTruthy();
      for (const s of group.shortcuts) expect(strings[s.action]).toBeTruthy();
    }
    const search = SHORTCUTS.flatMap((g) => g.shortcuts).find((s) => s.action === "shortcut_search");
    expect(search?.keys).toEqual(["Ctrl", "K"]);
    expect(shortcutKeysOf(["Ctrl", "K"], true)).toEqual(["⌘", "K"]);
    const html = renderToStaticMarkup(createElement(ShortcutsSection));
    expect(html).toContain("Search rooms and people");
    expect(html).toContain("<kbd");
    expect(html).toContain(">Ctrl</kbd>");
  });

  it("shows the package's version", async () => {
    const pkg = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(ABOUT.version).toBe(pkg.version);
    expect(renderToStaticMarkup(createElement(HelpSection))).toContain(`Version ${pkg.version}`);
  });
});
