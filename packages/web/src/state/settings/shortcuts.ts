/**
 * The keyboard shortcuts Settings › Keyboard shortcuts lists: the app's real
 * bindings (ClientShell's Ctrl+K, the room list's listbox keys, the
 * composer's keys, the call stage's and the image viewer's), grouped as the
 * section shows them. Keys are names; the labels are i18n keys of "settings".
 */

/** One shortcut: the keys pressed together, and what it does (an i18n key). */
export interface Shortcut {
  readonly keys: readonly string[];
  readonly action: string;
}

/** A titled group of shortcuts (the title is an i18n key). */
export interface ShortcutGroup {
  readonly title: string;
  readonly shortcuts: readonly Shortcut[];
}

/** The app's shortcuts; "Ctrl" reads as ⌘ on a Mac (shortcutKeysOf). */
export const SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: "shortcuts_navigation",
    shortcuts: [
      { keys: ["Ctrl", "K"], action: "shortcut_search" },
      { keys: ["↑"], action: "shortcut_list_up" },
      { keys: ["↓"], action: "shortcut_list_down" },
      { keys: ["Enter"], action: "shortcut_list_open" },
      { keys: ["Esc"], action: "shortcut_close" },
    ],
  },
  {
    title: "shortcuts_composer",
    shortcuts: [
      { keys: ["Enter"], action: "shortcut_send" },
      { keys: ["Shift", "Enter"], action: "shortcut_newline" },
      { keys: ["↑"], action: "shortcut_edit_last" },
      { keys: ["Esc"], action: "shortcut_cancel_reply" },
    ],
  },
  {
    title: "shortcuts_calls",
    shortcuts: [
      { keys: ["Ctrl", "D"], action: "shortcut_mute" },
      { keys: ["Ctrl", "E"], action: "shortcut_camera" },
    ],
  },
  {
    title: "shortcuts_viewer",
    shortcuts: [
      { keys: ["+"], action: "shortcut_zoom_in" },
      { keys: ["-"], action: "shortcut_zoom_out" },
      { keys: ["0"], action: "shortcut_zoom_reset" },
    ],
  },
];

/** The keys as shown on this platform: Ctrl is ⌘ on Apple systems. */
export function shortcutKeysOf(keys: readonly string[], apple: boolean): string[] {
  return keys.map((k) => (k === "Ctrl" && apple ? "⌘" : k));
}

/** The app's version (packages/web/package.json's, checked by a test) and where to learn more. */
export const ABOUT = {
  version: "0.1.0",
  links: [
    { label: "about_link_spec", href: "https://spec.matrix.org/" },
    { label: "about_link_matrix", href: "https://matrix.org/" },
  ],
} as const;
