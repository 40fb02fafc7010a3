/**
 * The composer's suggestion list (users, rooms, emoji, commands): an ARIA
 * listbox the textarea (a combobox) drives with aria-activedescendant;
 * the mouse can pick too. Focus never leaves the textarea.
 */
import { Avatar } from "../../components/Avatar";
import { useT } from "../../i18n/useT";
import type { Completion } from "../../state/ComposerViewModel";
import styles from "./Composer.module.css";

/** The id of a suggestion's element (for aria-activedescendant). */
export function optionId(listId: string, index: number): string {
  return `${listId}-opt-${index}`;
}

export function Autocomplete({
  id,
  completion,
  onPick,
}: {
  id: string;
  completion: Completion;
  onPick: (index: number) => void;
}): React.JSX.Element {
  const t = useT("composer");
  return (
    <ul id={id} role="listbox" aria-label={t("suggestions")} className={styles.suggestions}>
      {completion.items.map((item, i) => (
        <li
          key={item.key}
          id={optionId(id, i)}
          role="option"
          aria-selected={i === completion.active}
          className={`${styles.suggestion} ${i === completion.active ? styles.active : ""}`}
          // mousedown, not click: the textarea must keep focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(i);
          }}
        >
          {item.avatar !== undefined && <Avatar id={item.avatar.id} name={item.avatar.name} size={24} />}
          <span className={styles.suggestionLabel}>{item.label}</span>
          {item.detail !== undefined && <span className={styles.suggestionDetail}>{item.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
