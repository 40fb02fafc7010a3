/**
 * The create room dialog: name, topic, private or public, encryption (on by
 * default for private rooms, locked on once chosen), and an address whose
 * availability is checked while typing.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { AliasCheck, RoomActionsViewModel } from "../../state/rooms/RoomActionsViewModel";
import { describeFailure } from "../../state/rooms/failure";
import styles from "./Rooms.module.css";

export interface CreateRoomDialogProps {
  actions: RoomActionsViewModel;
  onClose: () => void;
  onCreated: (roomId: string) => void;
}

export function CreateRoomDialog({ actions, onClose, onCreated }: CreateRoomDialogProps): React.JSX.Element {
  const t = useT("rooms");
  const common = useT("common");
  const [name, setName] = useState("");
  const [topic, setTopic] = useState("");
  const [isPublic, setPublic] = useState(false);
  const [encrypted, setEncrypted] = useState(true);
  const [alias, setAlias] = useState("");
  const [check, setCheck] = useState<AliasCheck | "checking">("empty");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (alias.trim() === "") return setCheck("empty");
    setCheck("checking");
    let live = true;
    const timer = setTimeout(() => {
      void actions.checkAlias(alias).then((result) => live && setCheck(result));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [alias, actions]);

  const full = actions.aliasOf(alias === "" ? "name" : alias);
  const aliasNote =
    check === "available"
      ? { cls: styles.ok, text: t("create_alias_available", { alias: full }) }
      : check === "taken"
        ? { cls: styles.bad, text: t("create_alias_taken", { alias: full }) }
        : check === "invalid"
          ? { cls: styles.bad, text: t("create_alias_invalid") }
          : check === "checking"
            ? { cls: styles.hint, text: t("create_alias_checking") }
            : null;

  const submit = async (): Promise<void> => {
    if (name.trim() === "") return setError(t("create_name_missing"));
    setBusy(true);
    setError(null);
    try {
      const roomId = await actions.createRoom({
        name,
        topic,
        isPublic,
        encrypted: isPublic ? false : encrypted,
        ...(alias.trim() !== "" ? { aliasLocalpart: alias } : {}),
      });
      onCreated(roomId);
    } catch (e) {
      setError(describeFailure(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      title={t("create_title")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("cancel")}
          </Button>
          <Button
            busy={busy}
            disabled={check === "taken" || check === "invalid"}
            onClick={() => void submit()}
          >
            {t("create_submit")}
          </Button>
        </>
      }
    >
      <form
        className={styles.fieldset}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField label={t("create_name")} value={name} onChange={setName} autoFocus error={error} />
        <TextField label={t("create_topic")} value={topic} onChange={setTopic} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t("create_visibility")}</legend>
          <label className={styles.choice}>
            <input type="radio" name="visibility" checked={!isPublic} onChange={() => setPublic(false)} />
            {t("create_private")}
          </label>
          <label className={styles.choice}>
            <input type="radio" name="visibility" checked={isPublic} onChange={() => setPublic(true)} />
            {t("create_public")}
          </label>
        </fieldset>
        {!isPublic && (
          <label className={styles.choice}>
            <input type="checkbox" checked={encrypted} onChange={(e) => setEncrypted(e.target.checked)} />
            {t("create_encryption")} <span className={styles.hint}>{t("create_encryption_hint")}</span>
          </label>
        )}
        <TextField
          label={t("create_alias")}
          value={alias}
          onChange={setAlias}
          placeholder="my-room"
          hint={t("create_alias_hint", { alias: full })}
        />
        {aliasNote !== null && (
          <span className={aliasNote.cls} role="status">
            {aliasNote.text}
          </span>
        )}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
