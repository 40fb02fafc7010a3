/**
 * Tabs: a tablist and its one panel, as the ARIA tabs pattern wants them
 * (roving tabindex, arrow keys move and select, Home/End jump). Horizontal
 * tabs are underlined; vertical ones are a side navigation that becomes a
 * row on phones. The caller places the fragment (a grid wraps the vertical
 * kind).
 */
import type { ReactNode } from "react";
import styles from "./Tabs.module.css";

/** Props of Tabs. */
export interface TabsProps<T extends string> {
  /** The tabs, in order. */
  ids: readonly T[];
  selected: T;
  onSelect: (id: T) => void;
  /** The visible name of a tab. */
  labelOf: (id: T) => string;
  /** The tablist's accessible name. */
  label: string;
  /** Prefix of the DOM ids (`<prefix>-tab-<id>`, `<prefix>-panel`); unique on the page. */
  idPrefix: string;
  /** Horizontal (underlined, the default) or vertical (side navigation). */
  orientation?: "horizontal" | "vertical";
  /** Extra class of the panel (its own scrolling, gaps). */
  panelClassName?: string;
  /** The selected tab's content. */
  children: ReactNode;
}

const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** A tablist with its panel; see the file overview. */
export function Tabs<T extends string>({
  ids,
  selected,
  onSelect,
  labelOf,
  label,
  idPrefix,
  orientation = "horizontal",
  panelClassName,
  children,
}: TabsProps<T>): React.JSX.Element {
  const vertical = orientation === "vertical";
  return (
    <>
      <div
        className={vertical ? styles.side : styles.tabs}
        role="tablist"
        aria-label={label}
        aria-orientation={orientation}
        onKeyDown={(e) => {
          const at = ids.indexOf(selected);
          let next: T | undefined;
          if (e.key === "Home") next = ids[0];
          else if (e.key === "End") next = ids[ids.length - 1];
          else if (STEPS[e.key] !== undefined)
            next = ids[(at + (STEPS[e.key] ?? 0) + ids.length) % ids.length];
          if (next === undefined) return;
          e.preventDefault();
          onSelect(next);
          e.currentTarget.querySelector<HTMLElement>(`[data-tab="${next}"]`)?.focus();
        }}
      >
        {ids.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            data-tab={id}
            id={`${idPrefix}-tab-${id}`}
            aria-selected={selected === id}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={selected === id ? 0 : -1}
            className={vertical ? styles.sideItem : styles.tab}
            onClick={() => onSelect(id)}
          >
            {labelOf(id)}
          </button>
        ))}
      </div>
      <div
        className={panelClassName}
        role="tabpanel"
        id={`${idPrefix}-panel`}
        aria-labelledby={`${idPrefix}-tab-${selected}`}
      >
        {children}
      </div>
    </>
  );
}
