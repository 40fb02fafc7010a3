/**
 * Join by address or link: a room alias, id or matrix.to / matrix: link
 * (its via servers used), a preview of the room (name, topic, members,
 * join rule) and, when the room takes knocks, a request with a reason.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { RoomActionsViewModel } from "../../state/rooms/RoomActionsViewModel";
import { describeFailure } from "../../state/rooms/failure";
import styles from "./Rooms.module.css";

export interface JoinRoomDialogProps {
  actions: RoomActionsViewModel;
  onClose: () => void;
  onJoined: (roomId: string) => void;
  /** A knock was sent (the room shows up as "waiting"). */
  onKnocked: (roomId: string) => void;
}

interface Preview {
  name?: string;
  topic?: string;
  members: number;
  joinRule?: string;
}

export function JoinRoomDialog({
  actions,
  onClose,
  onJoined,
  onKnocked,
}: JoinRoomDialogProps): React.JSX.Element {
  const t = useT("rooms");
  const common = useT("common");
  const [input, setInput] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [knock, setKnock] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState<"join" | "preview" | "knock" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const target = actions.parse(input);

  const loadPreview = async (): Promise<Preview | null> => {
    if (target === null) return null;
    const s = await actions.preview(target);
    const p: Preview = {
      members: s.num_joined_members,
      ...(s.name !== undefined ? { name: s.name } : {}),
      ...(s.topic !== undefined ? { topic: s.topic } : {}),
      ...(s.join_rule !== undefined ? { joinRule: s.join_rule } : {}),
    };
    setPreview(p);
    return p;
  };

  const run = async (kind: "join" | "preview" | "knock"): Promise<void> => {
    if (target === null) return setError(t("join_invalid"));
    setBusy(kind);
    setError(null);
    try {
      if (kind === "preview") await loadPreview();
      else if (kind === "knock") {
        onKnocked(await actions.knock(target, reason));
        setNotice(t("knock_sent"));
      } else onJoined(await actions.join(target));
    } catch (e) {
      // A refused join of a knock room offers the knock instead.
      const p = kind === "join" ? await loadPreview().catch(() => null) : null;
      if (p?.joinRule === "knock" || p?.joinRule === "knock_restricted") setKnock(true);
      else setError(describeFailure(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog
      open
      title={t("join_title")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("cancel")}
          </Button>
          <Button
            variant="secondary"
            busy={busy === "preview"}
            disabled={target === null}
            onClick={() => void run("preview")}
          >
            {t("join_preview")}
          </Button>
          {knock ? (
            <Button busy={busy === "knock"} onClick={() => void run("knock")}>
              {t("knock_submit")}
            </Button>
          ) : (
            <Button busy={busy === "join"} disabled={target === null} onClick={() => void run("join")}>
              {t("join_submit")}
            </Button>
          )}
        </>
      }
    >
      <form
        className={styles.fieldset}
        onSubmit={(e) => {
          e.preventDefault();
          void run(knock ? "knock" : "join");
        }}
      >
        <TextField
          label={t("join_field")}
          value={input}
          onChange={(v) => {
            setInput(v);
            setPreview(null);
            setKnock(false);
            setNotice(null);
          }}
          hint={t("join_hint")}
          error={error ?? (input.trim() !== "" && target === null ? t("join_invalid") : null)}
          autoFocus
        />
        {preview !== null && (
          <div className={styles.result} aria-label={t("join_preview")}>
            <span className={styles.resultText}>
              <span className={styles.resultName}>{preview.name ?? target?.roomIdOrAlias}</span>
              {preview.topic !== undefined && <span className={styles.resultSub}>{preview.topic}</span>}
              <span className={styles.resultSub}>{t("join_members", { count: preview.members })}</span>
            </span>
          </div>
        )}
        {knock && (
          <>
            <p className={styles.hint}>{t("knock_needed")}</p>
            <label className={styles.fieldset}>
              <span className={styles.legend}>{t("knock_reason")}</span>
              <textarea
                className={styles.textarea}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
          </>
        )}
        {notice !== null && (
          <p className={styles.ok} role="status">
            {notice}
          </p>
        )}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
