/**
 * A popup menu's behaviour (WAI-ARIA menu pattern), one implementation for
 * every menu of the app: placed at the pointer but kept inside the
 * viewport, focus on its first item, closed by a click outside; ArrowDown /
 * ArrowUp move between items and wrap, Home and End jump to the first and
 * last, Escape and Tab close it.
 */
import { useEffect, useRef, useState } from "react";
import type { KeyboardEvent, RefObject } from "react";

/** A keydown handler for the menu element in `menu`; items are its [role^="menuitem"] descendants. */
function menuKeyHandler(
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

/**
 * The menu opened at `at` (a new object per opening: the placement and
 * focus run again only then, not on every re-render, which a room list
 * does with each sync). Returns the ref for the menu element, its position
 * and its keydown handler.
 */
export function usePopupMenu(
  at: { x: number; y: number },
  onClose: () => void,
): {
  ref: RefObject<HTMLDivElement | null>;
  pos: { left: number; top: number };
  onKey: (e: KeyboardEvent) => void;
} {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: at.x, top: at.y });
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const r = el.getBoundingClientRect();
    // Kept inside the viewport (a phone's strip puts spaces near the right edge).
    setPos({
      left: Math.max(8, Math.min(at.x, window.innerWidth - r.width - 8)),
      top: Math.max(8, Math.min(at.y, window.innerHeight - r.height - 8)),
    });
    el.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    const outside = (e: MouseEvent): void => {
      if (!el.contains(e.target as Node)) closeRef.current();
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [at]);
  return { ref, pos, onKey: menuKeyHandler(ref, () => closeRef.current()) };
}
