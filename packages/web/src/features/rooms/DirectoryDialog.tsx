/**
 * The public room directory: search (debounced), an optional server,
 * "Load more" paging, and per room Join, Ask to join (knock rooms) or View
 * (rooms already joined).
 */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { DirectoryViewModel } from "../../state/rooms/DirectoryViewModel";
import { describeFailure } from "../../state/rooms/failure";
import { useObservable } from "../../state/useObservable";
import styles from "./Rooms.module.css";

export interface DirectoryDialogProps {
  directory: DirectoryViewModel;
  /** Whether the user is in a room already. */
  isJoined: (roomId: string) => boolean;
  onClose: () => void;
  onJoined: (roomId: string) => void;
}

export function DirectoryDialog({
  directory,
  isJoined,
  onClose,
  onJoined,
}: DirectoryDialogProps): React.JSX.Element {
  const t = useT("rooms");
  const common = useT("common");
  const state = useObservable(directory.state);
  const [term, setTerm] = useState("");
  const [server, setServer] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [knocked, setKnocked] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const timer = setTimeout(() => void directory.search(term, server), 250);
    return () => clearTimeout(timer);
  }, [term, server, directory]);

  const enter = async (roomId: string, knock: boolean): Promise<void> => {
    const room = state.rooms.find((r) => r.room_id === roomId);
    if (room === undefined) return;
    setBusy(roomId);
    setError(null);
    try {
      const id = await directory.enter(room);
      if (knock) setKnocked(new Set([...knocked, roomId]));
      else onJoined(id);
    } catch (e) {
      setError(describeFailure(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog
      open
      wide
      title={t("directory_title")}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {common("close")}
        </Button>
      }
    >
      <div className={styles.row}>
        <TextField label={t("directory_search")} value={term} onChange={setTerm} type="search" autoFocus />
        <TextField
          label={t("directory_server")}
          value={server}
          onChange={setServer}
          placeholder="example.org"
        />
      </div>
      {(error ?? state.error) !== null && (
        <p className={styles.bad} role="alert">
          {error ?? state.error}
        </p>
      )}
      <ul className={styles.results} aria-label={t("directory_title")} aria-busy={state.loading}>
        {state.rooms.map((room) => {
          const name = room.name ?? room.canonical_alias ?? room.room_id;
          const joined = isJoined(room.room_id);
          const knock = room.join_rule === "knock";
          return (
            <li key={room.room_id} className={styles.result}>
              <Avatar id={room.room_id} name={name} size={36} />
              <span className={styles.resultText}>
                <span className={styles.resultName}>{name}</span>
                <span className={styles.resultSub}>
                  {t("join_members", { count: room.num_joined_members })}
                  {room.topic !== undefined ? ` · ${room.topic}` : ""}
                </span>
              </span>
              {joined ? (
                <Button size="sm" variant="secondary" onClick={() => onJoined(room.room_id)}>
                  {t("directory_view")}
                </Button>
              ) : knocked.has(room.room_id) ? (
                <span className={styles.hint}>{t("knock_sent")}</span>
              ) : (
                <Button
                  size="sm"
                  busy={busy === room.room_id}
                  onClick={() => void enter(room.room_id, knock)}
                >
                  {knock ? t("directory_knock") : t("directory_join")}
                </Button>
              )}
            </li>
          );
        })}
        {!state.loading && state.rooms.length === 0 && (
          <li className={styles.empty}>{t("directory_empty")}</li>
        )}
      </ul>
      {state.loading && <Spinner size="sm" label={common("loading")} />}
      {state.hasMore && !state.loading && (
        <Button variant="secondary" onClick={() => void directory.loadMore()}>
          {t("directory_more")}
        </Button>
      )}
    </Dialog>
  );
}
