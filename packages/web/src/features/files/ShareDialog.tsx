/**
 * The sharing dialog of a folder: who has access with which role, what
 * each role may do in plain words, and a form to share with someone (and
 * optionally every subfolder). Refusals (only owners share, owners cannot
 * be demoted) come back from the view model as its error line.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import { ROLE_DESCRIPTIONS } from "../../state/files/FilesViewModel";
import type { FilesViewModel, FolderMember, TreeRole } from "../../state/files/FilesViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Files.module.css";

const ROLES: readonly TreeRole[] = ["viewer", "editor", "owner"];

export function ShareDialog({
  files,
  roomId,
  name,
  onClose,
}: {
  files: FilesViewModel;
  roomId: string;
  name: string;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("files");
  const error = useObservable(files.error);
  const [members, setMembers] = useState<readonly FolderMember[]>([]);
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState<TreeRole>("viewer");
  const [subfolders, setSubfolders] = useState(true);
  const reload = (): void => void files.members(roomId).then(setMembers);
  useEffect(reload, [files, roomId]);

  return (
    <Dialog open title={t("share_title", { name })} onClose={onClose}>
      <ul className={styles.roles} aria-label={t("share_role")}>
        {ROLES.map((r) => (
          <li key={r}>
            <strong>{t(`role_${r}`)}</strong>: {ROLE_DESCRIPTIONS[r]}
          </li>
        ))}
      </ul>
      <h3>{t("people")}</h3>
      <ul className={styles.people} data-testid="share-members">
        {members.map((m) => (
          <li key={m.userId} data-user={m.userId}>
            {m.name} <span className={styles.muted}>{m.userId}</span> — {t(`role_${m.role}`)}
          </li>
        ))}
      </ul>
      <form
        className={styles.shareForm}
        onSubmit={(e) => {
          e.preventDefault();
          void files.share(roomId, userId.trim(), role, subfolders).then((ok) => {
            if (ok) {
              setUserId("");
              reload();
            }
          });
        }}
      >
        <label>
          {t("share_user")}
          <input value={userId} onChange={(e) => setUserId(e.target.value)} placeholder="@user:example.org" />
        </label>
        <label>
          {t("share_role")}
          <select value={role} onChange={(e) => setRole(e.target.value as TreeRole)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role_${r}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={subfolders} onChange={(e) => setSubfolders(e.target.checked)} />
          {t("share_subfolders")}
        </label>
        <Button type="submit" disabled={userId.trim() === ""}>
          {t("share_send")}
        </Button>
      </form>
      {error !== null && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </Dialog>
  );
}
