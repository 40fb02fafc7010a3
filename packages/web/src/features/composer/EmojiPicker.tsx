/**
 * The emoji picker, a chunk of its own (React.lazy) that loads emojibase's
 * data on open: a search field, category tabs with the recently used first,
 * and a grid moved through with the arrow keys (one tab stop). Escape
 * closes it; picking inserts at the composer's caret and keeps it open.
 * The message's react button opens the same picker floating
 * (timeline/ReactionPicker.tsx), with the reactions already given marked.
 * Eight columns of shrinkable cells and tabs that share the row, so it fits
 * a phone's width (390 px) without clipping.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import { browserStorage } from "../../state/ComposerForRoom";
import { EMOJI_GROUPS, loadEmojiIndex, recentEmoji } from "../../state/composer/emoji";
import type { Emoji, EmojiIndex } from "../../state/composer/emoji";
import styles from "./EmojiPicker.module.css";

const COLUMNS = 8;
const RECENT = -1;

export default function EmojiPicker({
  onPick,
  onClose,
  label,
  floating = false,
  isSelected,
}: {
  onPick: (unicode: string) => void;
  onClose: () => void;
  /** The dialog's name ("Emoji" unless told). */
  label?: string;
  /** Placed by its parent (the reaction picker's layer) instead of above the composer. */
  floating?: boolean;
  /** Emoji shown pressed (the reactions the user already gave). */
  isSelected?: (unicode: string) => boolean;
}): React.JSX.Element {
  const t = useT("composer");
  const [index, setIndex] = useState<EmojiIndex | null>(null);
  const [query, setQuery] = useState("");
  const [recent, setRecent] = useState(() => recentEmoji(browserStorage()));
  const [group, setGroup] = useState(recent.length > 0 ? RECENT : 0);
  const [focus, setFocus] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    void loadEmojiIndex().then((loaded) => live && setIndex(loaded));
    search.current?.focus();
    return () => {
      live = false;
    };
  }, []);

  const shown: Emoji[] = useMemo(() => {
    if (index === null) return [];
    if (query.trim() !== "") return index.search(query, 160);
    if (group === RECENT) return recent.flatMap((u) => index.byUnicode.get(u) ?? []);
    return index.all.filter((e) => e.group === group);
  }, [index, query, group, recent]);

  const pick = (e: Emoji): void => {
    onPick(e.unicode);
    setRecent(recentEmoji(browserStorage()));
  };

  const onGridKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const moves: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: COLUMNS,
      ArrowUp: -COLUMNS,
    };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(shown.length - 1, focus + move));
    setFocus(next);
    grid.current?.querySelectorAll<HTMLButtonElement>("button")[next]?.focus();
  };

  const tabs = [
    ...(recent.length > 0 ? [{ group: RECENT, key: "emojiRecent", icon: "🕘" }] : []),
    ...EMOJI_GROUPS,
  ];
  return (
    <div
      className={`${styles.picker} ${floating ? styles.floating : ""}`}
      role="dialog"
      aria-label={label ?? t("emoji")}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <input
        ref={search}
        className={styles.search}
        type="search"
        placeholder={t("emojiSearch")}
        aria-label={t("emojiSearch")}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setFocus(0);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && shown[0] !== undefined) {
            e.preventDefault();
            pick(shown[0]);
          }
        }}
      />
      {query.trim() === "" && (
        <div className={styles.tabs} role="tablist" aria-label={t("emoji")}>
          {tabs.map((g) => (
            <button
              key={g.group}
              type="button"
              role="tab"
              aria-selected={g.group === group}
              aria-label={t(g.key)}
              title={t(g.key)}
              className={styles.tab}
              onClick={() => {
                setGroup(g.group);
                setFocus(0);
              }}
            >
              {g.icon}
            </button>
          ))}
        </div>
      )}
      {index === null ? (
        <div className={styles.loading}>
          <Spinner size="sm" label={t("emojiLoading")} />
        </div>
      ) : shown.length === 0 ? (
        <p className={styles.empty}>{t("emojiNone", { query })}</p>
      ) : (
        <div
          ref={grid}
          className={styles.grid}
          role="group"
          aria-label={t(tabs.find((g) => g.group === group)?.key ?? "emoji")}
          onKeyDown={onGridKey}
        >
          {shown.map((e, i) => (
            <button
              key={e.unicode}
              type="button"
              className={`${styles.emoji} ${isSelected?.(e.unicode) === true ? styles.selected : ""}`}
              tabIndex={i === focus ? 0 : -1}
              {...(isSelected !== undefined ? { "aria-pressed": isSelected(e.unicode) } : {})}
              title={`:${e.shortcodes[0] ?? e.label}:`}
              aria-label={e.label}
              onClick={() => pick(e)}
            >
              {e.unicode}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
