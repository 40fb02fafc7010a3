/**
 * The keyboard of a popup menu (WAI-ARIA menu pattern): ArrowDown / ArrowUp
 * move between items and wrap, Home and End jump to the first and last,
 * Escape and Tab close it. One implementation for every menu of the app.
 */
import type { KeyboardEvent, RefObject } from "react";

/** A keydown handler for the menu element in `menu`; items are its [role^="menuitem"] descendants. */
export function menuKeyHandler(
  menu: RefObject<HTMLElement | null>,
  onClose: () => void,
): (e: KeyboardEvent) => void {
  return (e) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      e.key === "ArrowDown"
        ? at + 1
        : e.key === "ArrowUp"
          ? at - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? -1
              : null;
    if (next !== null) {
      e.preventDefault();
      items.at(next % items.length)?.focus();
    } else if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      onClose();
    }
  };
}
