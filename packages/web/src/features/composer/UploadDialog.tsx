/**
 * The upload dialog: files chosen, dropped or pasted wait here before
 * anything is sent. Each shows a preview (a thumbnail for images, the file
 * name and size for everything) and one caption goes with the first file:
 * it becomes the event's body and the name stays in `filename` (the spec's
 * media captions). Upload sends, Cancel or Escape drops them.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { ComposerViewModel } from "../../state/ComposerViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Composer.module.css";

/** "1.2 MB", "340 KB", "70 B". */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "notes.txt" → "TXT" (what stands in for a preview; no emoji font needed). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : "FILE";
}

function Preview({ file }: { file: { name: string; type: string; data: Blob } }): React.JSX.Element {
  const [url, setUrl] = useState<string | null>(null);
  const image = /^image\/(png|jpeg|gif|webp|avif)$/.test(file.type);
  useEffect(() => {
    if (!image) return;
    const made = URL.createObjectURL(file.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file, image]);
  return (
    <li className={styles.stagedFile} data-testid="upload-preview">
      {url !== null ? (
        <img className={styles.stagedThumb} src={url} alt="" />
      ) : (
        <span className={styles.stagedIcon} aria-hidden="true">
          {extensionOf(file.name)}
        </span>
      )}
      <span className={styles.stagedName}>{file.name}</span>
      <span className={styles.stagedSize}>{formatSize(file.data.size)}</span>
    </li>
  );
}

export function UploadDialog({ vm }: { vm: ComposerViewModel }): React.JSX.Element | null {
  const t = useT("composer");
  const common = useT("common");
  const staged = useObservable(vm.uploads.staged);
  const [caption, setCaption] = useState("");
  if (staged.length === 0) return null;
  const send = (): void => {
    vm.uploads.sendStaged(caption);
    setCaption("");
  };
  const cancel = (): void => {
    vm.uploads.cancelStaged();
    setCaption("");
  };
  return (
    <Dialog
      open
      title={t("uploadTitle", { count: staged.length })}
      onClose={cancel}
      actions={
        <>
          <Button variant="secondary" onClick={cancel}>
            {common("cancel")}
          </Button>
          <Button onClick={send}>{t("uploadSend")}</Button>
        </>
      }
    >
      <ul className={styles.stagedList}>
        {staged.map((file, i) => (
          <Preview key={`${i}-${file.name}`} file={file} />
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <TextField label={t("uploadCaption")} value={caption} onChange={setCaption} autoFocus />
      </form>
    </Dialog>
  );
}
