/**
 * Start a chat: a user directory search (debounced), each result with a
 * button that opens the existing DM with them or creates an encrypted one.
 */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { RoomActionsViewModel, UserResult } from "../../state/rooms/RoomActionsViewModel";
import { describeFailure } from "../../state/rooms/failure";
import styles from "./Rooms.module.css";

export interface StartDmDialogProps {
  actions: RoomActionsViewModel;
  onClose: () => void;
  onOpened: (roomId: string) => void;
}

export function StartDmDialog({ actions, onClose, onOpened }: StartDmDialogProps): React.JSX.Element {
  const t = useT("rooms");
  const common = useT("common");
  const [term, setTerm] = useState("");
  const [results, setResults] = useState<UserResult[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (term.trim() === "") {
      setResults(null);
      return;
    }
    let live = true;
    setSearching(true);
    const timer = setTimeout(() => {
      actions.searchUsers(term).then(
        (found) => live && setResults(found),
        (e: unknown) => live && setError(describeFailure(e)),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
      setSearching(false);
    };
  }, [term, actions]);

  const open = async (userId: string): Promise<void> => {
    setBusy(userId);
    setError(null);
    try {
      onOpened((await actions.startDm(userId)).roomId);
    } catch (e) {
      setError(describeFailure(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog
      open
      title={t("dm_title")}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {common("close")}
        </Button>
      }
    >
      <TextField
        label={t("dm_search")}
        value={term}
        onChange={setTerm}
        hint={t("dm_hint")}
        error={error}
        autoFocus
        type="search"
      />
      {searching && results === null && <Spinner size="sm" label={common("loading")} />}
      {results !== null && results.length === 0 && <p className={styles.empty}>{t("dm_none")}</p>}
      {results !== null && results.length > 0 && (
        <ul className={styles.results} aria-label={t("dm_title")}>
          {results.map((u) => {
            const existing = actions.existingDm(u.userId) !== undefined;
            return (
              <li key={u.userId} className={styles.result}>
                <Avatar id={u.userId} name={u.displayName ?? u.userId} size={32} />
                <span className={styles.resultText}>
                  <span className={styles.resultName}>{u.displayName ?? u.userId}</span>
                  <span className={styles.resultSub}>{u.userId}</span>
                </span>
                <Button size="sm" busy={busy === u.userId} onClick={() => void open(u.userId)}>
                  {existing ? t("dm_existing") : t("dm_start")}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
