/**
 * Explore a space: its rooms and sub-spaces with name, topic and member
 * count, a Join button (through the child's via servers) or Open for the
 * joined ones, "Show more" while the hierarchy has pages, and a note when
 * the server has no hierarchy and the list is the device's own knowledge.
 */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { ExploreEntry, ExploreSpaceViewModel } from "../../state/spaces/ExploreSpaceViewModel";
import type { SpacesViewModel } from "../../state/spaces/SpacesViewModel";
import { Scope } from "../../state/Scope";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./Spaces.module.css";

export function ExploreSpaceDialog({
  spaces,
  spaceId,
  name,
  onClose,
  onOpenRoom,
}: {
  spaces: SpacesViewModel;
  spaceId: string;
  name: string;
  onClose: () => void;
  onOpenRoom: (roomId: string) => void;
}): React.JSX.Element {
  const t = useT("spaces");
  const common = useT("common");
  const [vm, setVm] = useState<ExploreSpaceViewModel | null>(null);
  useEffect(() => {
    const scope = new Scope();
    let ended = false;
    void spaces.explore(spaceId, scope).then((explore) => {
      if (ended) return;
      setVm(explore);
      void explore.load();
    });
    return () => {
      ended = true;
      scope.end();
    };
  }, [spaces, spaceId]);
  return (
    <Dialog
      open
      wide
      title={t("explore_title", { name })}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {common("close")}
        </Button>
      }
    >
      {vm !== null && <ExploreList vm={vm} onOpenRoom={onOpenRoom} />}
    </Dialog>
  );
}

function ExploreList({
  vm,
  onOpenRoom,
}: {
  vm: ExploreSpaceViewModel;
  onOpenRoom: (roomId: string) => void;
}): React.JSX.Element {
  const t = useT("spaces");
  const state = useObservable(vm.state);
  return (
    <div className={styles.explore}>
      {state.source === "local" && (
        <p className={styles.note} role="note">
          {t("explore_local")}
        </p>
      )}
      {state.loading && state.entries.length === 0 && <p role="status">{t("explore_loading")}</p>}
      {!state.loading && state.source !== null && state.entries.length === 0 && <p>{t("explore_empty")}</p>}
      <ul className={styles.rooms} aria-label={t("menu_explore")}>
        {state.entries.map((entry) => (
          <ExploreRow
            key={entry.roomId}
            entry={entry}
            joining={state.joining === entry.roomId}
            onJoin={() => void vm.join(entry.roomId)}
            onOpen={() => onOpenRoom(entry.roomId)}
          />
        ))}
      </ul>
      {state.more && (
        <Button variant="secondary" busy={state.loading} onClick={() => void vm.loadMore()}>
          {t("explore_more")}
        </Button>
      )}
      {state.error !== null && (
        <p className={styles.error} role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}

function ExploreRow({
  entry,
  joining,
  onJoin,
  onOpen,
}: {
  entry: ExploreEntry;
  joining: boolean;
  onJoin: () => void;
  onOpen: () => void;
}): React.JSX.Element {
  const t = useT("spaces");
  const url = useAvatarUrl(entry.avatarUrl);
  return (
    <li className={styles.row} data-testid="explore-room">
      <Avatar id={entry.roomId} name={entry.name} url={url} size={36} square={entry.isSpace} />
      <div className={styles.rowText}>
        <span className={styles.rowName}>
          {entry.name}
          {entry.isSpace && <span className={styles.tag}>{t("explore_space")}</span>}
        </span>
        {entry.topic !== undefined && <span className={styles.rowTopic}>{entry.topic}</span>}
        {entry.members !== undefined && (
          <span className={styles.rowTopic}>{t("explore_members", { count: entry.members })}</span>
        )}
      </div>
      {entry.joined ? (
        entry.isSpace ? (
          <span className={styles.rowTopic}>{t("explore_joined")}</span>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            onClick={onOpen}
            aria-label={`${t("explore_open")} ${entry.name}`}
          >
            {t("explore_open")}
          </Button>
        )
      ) : (
        <Button size="sm" busy={joining} onClick={onJoin} aria-label={`${t("explore_join")} ${entry.name}`}>
          {t("explore_join")}
        </Button>
      )}
    </li>
  );
}
