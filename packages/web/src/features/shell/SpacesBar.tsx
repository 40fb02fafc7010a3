/**
 * The spaces bar: "Home" (every room) and each joined space, as a
 * vertical toolbar on wide screens and a horizontal strip on phones.
 */
import { Avatar } from "../../components/Avatar";
import { Tooltip } from "../../components/Tooltip";
import { useT } from "../../i18n/useT";
import type { RoomListViewModel } from "../../state/RoomListViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./SpacesBar.module.css";

export function SpacesBar({ list }: { list: RoomListViewModel }): React.JSX.Element {
  const t = useT("shell");
  const spaces = useObservable(list.spaces);
  const current = useObservable(list.space);
  return (
    <nav className={styles.bar} aria-label={t("spaces")}>
      <Tooltip label={t("home")} side="right">
        <button
          type="button"
          className={`${styles.space} ${current === null ? styles.active : ""}`}
          aria-pressed={current === null}
          aria-label={t("home_label")}
          onClick={() => list.setSpace(null)}
        >
          <span className={styles.home} aria-hidden="true">
            ⌂
          </span>
        </button>
      </Tooltip>
      {spaces.map((space) => (
        <Tooltip key={space.roomId} label={space.name} side="right">
          <button
            type="button"
            className={`${styles.space} ${current === space.roomId ? styles.active : ""}`}
            aria-pressed={current === space.roomId}
            aria-label={space.name}
            onClick={() => list.setSpace(space.roomId)}
          >
            <Avatar id={space.roomId} name={space.name} size={36} square />
          </button>
        </Tooltip>
      ))}
    </nav>
  );
}
