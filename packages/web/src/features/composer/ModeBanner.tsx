/**
 * The banner above the composer in reply or edit mode: who is replied to
 * and a quote of the message, or "Editing message", with a cancel button
 * (Escape does the same).
 */
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ComposerMode } from "../../state/ComposerViewModel";
import styles from "./Composer.module.css";

export function ModeBanner({
  mode,
  onCancel,
}: {
  mode: ComposerMode;
  onCancel: () => void;
}): React.JSX.Element | null {
  const t = useT("composer");
  if (mode.kind === "normal") return null;
  const reply = mode.kind === "reply";
  return (
    <div className={styles.banner} data-mode={mode.kind} role="status">
      <span className={styles.bannerIcon} aria-hidden="true">
        {reply ? "↩" : "✎"}
      </span>
      <div className={styles.bannerText}>
        <strong>{reply ? t("replyingTo", { name: mode.target.senderName }) : t("editing")}</strong>
        {mode.target.preview !== "" && <q className={styles.quote}>{mode.target.preview}</q>}
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onCancel}
        aria-label={t(reply ? "cancelReply" : "cancelEdit")}
      >
        ✕
      </Button>
    </div>
  );
}
