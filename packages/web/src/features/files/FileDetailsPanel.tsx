/**
 * A file's panel: download (decrypted in the browser, saved from a blob
 * URL), a preview for images, PDF, text and video, the version history
 * with a download of any version, and for editors a new version, rename
 * and delete.
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { FileRow, FilesViewModel, FileVersion } from "../../state/files/FilesViewModel";
import styles from "./Files.module.css";

function save(data: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function FileDetailsPanel({
  files,
  roomId,
  row,
  canEdit,
  onClose,
}: {
  files: FilesViewModel;
  roomId: string;
  row: FileRow;
  canEdit: boolean;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("files");
  const [versions, setVersions] = useState<readonly FileVersion[]>([]);
  const [preview, setPreview] = useState<{ url: string; type: string; text?: string } | null>(null);
  const type = row.details?.mimetype ?? "application/octet-stream";
  const { eventId, name } = row.entry;

  useEffect(() => {
    void files.history(roomId, eventId).then(setVersions);
  }, [files, roomId, eventId]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);

  const download = async (id: string, fileName: string): Promise<void> => {
    const data = await files.download(roomId, id);
    if (data) save(data, fileName, type);
  };
  const showPreview = async (): Promise<void> => {
    const data = await files.download(roomId, eventId);
    if (!data) return;
    const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
    setPreview({ url, type, ...(type.startsWith("text/") ? { text: new TextDecoder().decode(data) } : {}) });
  };

  return (
    <Dialog open title={t("history_title", { name })} onClose={onClose} wide>
      <div className={styles.toolbar}>
        <Button onClick={() => void download(eventId, name)}>{t("download")}</Button>
        <Button variant="secondary" onClick={() => void showPreview()}>
          {t("preview")}
        </Button>
        {canEdit && (
          <>
            <label className={styles.muted}>
              {t("new_version")}{" "}
              <input
                type="file"
                data-testid="files-new-version"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f)
                    void files
                      .newVersion(roomId, eventId, { type: f.type, bytes: () => f.arrayBuffer() })
                      .then(onClose);
                }}
              />
            </label>
            <Button
              variant="ghost"
              onClick={() => {
                const next = window.prompt(t("rename"), name);
                if (next) void files.rename(roomId, eventId, next).then(onClose);
              }}
            >
              {t("rename")}
            </Button>
            <Button variant="danger" onClick={() => void files.remove(roomId, eventId).then(onClose)}>
              {t("delete")}
            </Button>
          </>
        )}
      </div>
      {preview &&
        (preview.type.startsWith("image/") ? (
          <img className={styles.preview} src={preview.url} alt={name} />
        ) : preview.type === "application/pdf" ? (
          <iframe className={styles.preview} src={preview.url} title={name} />
        ) : preview.type.startsWith("video/") ? (
          <video className={styles.preview} src={preview.url} controls />
        ) : preview.text !== undefined ? (
          <pre className={styles.preview}>{preview.text}</pre>
        ) : (
          <p>{t("no_preview")}</p>
        ))}
      <h3>{t("history")}</h3>
      <ol data-testid="files-history">
        {versions.map((v) => (
          <li key={v.eventId} data-version={v.version}>
            {t("version", { version: v.version })} — {v.name}
            {v.details && (
              <span className={styles.muted}>
                {" "}
                {new Date(v.details.ts).toLocaleString()} · {v.details.sender}
              </span>
            )}
            {v.problem !== undefined ? (
              <span className={styles.error}> {t("broken")}</span>
            ) : (
              <Button variant="ghost" size="sm" onClick={() => void download(v.eventId, v.name)}>
                {t("download")}
              </Button>
            )}
          </li>
        ))}
      </ol>
    </Dialog>
  );
}
