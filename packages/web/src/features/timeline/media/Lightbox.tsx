/**
 * The full-size image over the page (a modal <dialog>: focus kept inside,
 * Escape closes), with the name, a download link and a close button. The
 * full file is fetched only when the lightbox opens.
 */
import { useEffect, useRef } from "react";
import { Button } from "../../../components/Button";
import { useT } from "../../../i18n/useT";
import styles from "./Media.module.css";
import { useMedia } from "./useMedia";
import type { MediaRef } from "./useMedia";

export function Lightbox({
  media,
  name,
  onClose,
}: {
  media: MediaRef;
  name: string;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("timeline");
  const common = useT("common");
  const ref = useRef<HTMLDialogElement>(null);
  const state = useMedia(media.kind === "mxc" ? { kind: "mxc", mxc: media.mxc } : media);
  useEffect(() => {
    const el = ref.current;
    if (el !== null && !el.open) el.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className={styles.lightbox}
      aria-label={t("lightbox")}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className={styles.lightboxBar}>
        <span className={styles.lightboxName}>{name}</span>
        {state.status === "ready" && (
          <a className={styles.lightboxLink} href={state.url} download={name}>
            {t("download", { name: "" }).trim()}
          </a>
        )}
        <Button variant="ghost" size="sm" onClick={onClose} autoFocus>
          {common("close")}
        </Button>
      </div>
      {state.status === "ready" ? (
        <img className={styles.lightboxImage} src={state.url} alt={name} />
      ) : state.status === "failed" ? (
        <p className={styles.failed}>{t("media_failed")}</p>
      ) : (
        <div className={styles.lightboxLoading} />
      )}
    </dialog>
  );
}
