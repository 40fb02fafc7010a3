/**
 * Invite to a room by user id, or by email address through the identity
 * server (a 3pid invite); the server's refusal is shown as it came.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { MemberListViewModel } from "../../state/people/MemberListViewModel";
import { describeFailure } from "../../state/rooms/failure";
import styles from "./People.module.css";

export function InviteDialog({
  list,
  roomName,
  onClose,
}: {
  list: MemberListViewModel;
  roomName: string;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("people");
  const common = useT("common");
  const [who, setWho] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const invited = await list.invite(who);
      setSent(t("invite_sent", { who: invited }));
      setWho("");
    } catch (e) {
      setError(describeFailure(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      title={t("invite_title", { room: roomName })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("close")}
          </Button>
          <Button busy={busy} disabled={who.trim() === ""} onClick={() => void submit()}>
            {t("invite_submit")}
          </Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label={t("invite_field")}
          value={who}
          onChange={setWho}
          hint={t("invite_hint")}
          error={error}
          autoFocus
        />
      </form>
      {sent !== null && (
        <p className={styles.notice} role="status">
          {sent}
        </p>
      )}
    </Dialog>
  );
}
