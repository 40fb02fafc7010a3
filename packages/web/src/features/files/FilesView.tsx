/**
 * The Files view: folder trees and shared-folder invites on the side; the
 * open folder with breadcrumbs, subfolders, and files as a list or grid
 * (size, type, uploader, date), sorted and searched by name; uploads by
 * button or drag and drop with per-file progress and cancel; download,
 * preview and version history of a file; the sharing dialog; leave. All
 * state is the FilesViewModel's (src/state/files); loaded lazily. Uploads
 * are journalled in IndexedDB, so one a reload cut off resumes here.
 */
import { use, useEffect, useMemo, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { FilesViewModel, visibleRows } from "../../state/files/FilesViewModel";
import { uploadJournal } from "../../state/files/resumeUploads";
import type { FileRow, FileSort } from "../../state/files/FilesViewModel";
import { useObservable } from "../../state/useObservable";
import { FileDetailsPanel } from "./FileDetailsPanel";
import styles from "./Files.module.css";
import { ShareDialog } from "./ShareDialog";

function formatSize(size: number | undefined): string {
  if (size === undefined) return "";
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

export function FilesView({ client }: { client: ClientViewModel }): React.JSX.Element {
  // The SDK's file service is its own chunk (ADR 0038): the Suspense around this view waits for it.
  const service = use(client.client.files());
  const files = useMemo(
    () => new FilesViewModel({ files: service }, { journal: uploadJournal(client.client.userId) }),
    [service, client],
  );
  useEffect(() => files.attach(), [files]);
  useEffect(() => () => files.dispose(), [files]);
  const t = useT("files");
  const trees = useObservable(files.trees);
  const invites = useObservable(files.invites);
  const folder = useObservable(files.folder);
  const uploads = useObservable(files.uploads);
  const sort = useObservable(files.sort);
  const query = useObservable(files.query);
  const layout = useObservable(files.layout);
  const error = useObservable(files.error);
  const [dragging, setDragging] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [selected, setSelected] = useState<FileRow | null>(null);

  const ask = (action: (name: string) => Promise<void>): void => {
    const name = window.prompt(t("name_prompt"));
    if (name) void action(name);
  };
  const upload = (list: FileList | null): void => {
    if (!list) return;
    void files.upload([...list].map((f) => ({ name: f.name, type: f.type, bytes: () => f.arrayBuffer() })));
  };
  const ready = folder.kind === "ready" ? folder : null;
  const rows = ready ? visibleRows(ready.rows, sort, query) : [];
  const canEdit = ready !== null && ready.listing.myRole !== "viewer";

  return (
    <div className={styles.files} data-testid="files-view">
      <nav className={styles.sidebar} aria-label={t("trees")}>
        <Button onClick={() => ask((name) => files.createTree(name))}>{t("new_tree")}</Button>
        <h3>{t("trees")}</h3>
        {trees.map((tree) => (
          <Button key={tree.roomId} variant="ghost" onClick={() => void files.open(tree.roomId)}>
            {tree.name}
          </Button>
        ))}
        {invites.length > 0 && <h3>{t("invites")}</h3>}
        {invites.map((invite) => (
          <Button
            key={invite.roomId}
            variant="secondary"
            onClick={() => void files.accept(invite.roomId)}
            title={t("accept")}
          >
            {invite.name}
          </Button>
        ))}
      </nav>
      <section className={styles.main}>
        {error !== null && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        {folder.kind === "none" && <p>{t("empty_none")}</p>}
        {folder.kind === "loading" && <p>{t("loading")}</p>}
        {folder.kind === "error" && <p className={styles.error}>{t("error", { message: folder.message })}</p>}
        {ready && (
          <>
            <div className={styles.crumbs} aria-label="breadcrumbs">
              {ready.listing.path.map((p) => (
                <Button key={p.roomId} variant="ghost" size="sm" onClick={() => void files.open(p.roomId)}>
                  {p.name} /
                </Button>
              ))}
              <strong>{ready.listing.name}</strong>
              <span className={styles.muted}>
                {t("your_role", { role: t(`role_${ready.listing.myRole}`) })}
              </span>
            </div>
            <div className={styles.toolbar}>
              <input
                type="search"
                aria-label={t("search")}
                placeholder={t("search")}
                value={query}
                onChange={(e) => files.query.set(e.target.value)}
              />
              <label>
                {t("sort")}{" "}
                <select value={sort} onChange={(e) => files.sort.set(e.target.value as FileSort)}>
                  {(["name", "date", "size", "type"] as const).map((s) => (
                    <option key={s} value={s}>
                      {t(`sort_${s}`)}
                    </option>
                  ))}
                </select>
              </label>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => files.layout.set(layout === "list" ? "grid" : "list")}
              >
                {layout === "list" ? t("view_grid") : t("view_list")}
              </Button>
              {canEdit && (
                <>
                  <label className={styles.muted}>
                    {t("upload")}{" "}
                    <input
                      type="file"
                      multiple
                      data-testid="files-upload"
                      onChange={(e) => upload(e.target.files)}
                    />
                  </label>
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => ask((name) => files.createFolder(name))}
                  >
                    {t("new_folder")}
                  </Button>
                </>
              )}
              <Button variant="secondary" size="sm" onClick={() => setSharing(true)}>
                {t("share")}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => void files.leave(ready.listing.roomId)}>
                {t("leave")}
              </Button>
            </div>
            <ul className={styles.uploads} data-testid="files-uploads">
              {uploads.map((u) => (
                <li key={u.id}>
                  {u.name}: <progress max={u.total} value={u.sent} />{" "}
                  {u.status === "uploading" ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t("cancel_upload", { name: u.name })}
                      onClick={() => files.cancel(u.id)}
                    >
                      ×
                    </Button>
                  ) : u.status === "done" ? (
                    t("upload_done")
                  ) : u.status === "cancelled" ? (
                    t("upload_cancelled")
                  ) : (
                    t("upload_failed", { error: u.error ?? "" })
                  )}
                </li>
              ))}
            </ul>
            <div
              className={`${styles.drop} ${dragging ? styles.dropActive : ""}`}
              data-testid="files-drop"
              aria-label={t("drop_here")}
              onDragOver={(e) => {
                if (!canEdit) return;
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragging(false);
                if (canEdit) upload(e.dataTransfer.files);
              }}
            >
              {ready.listing.folders.map((f) => (
                <Button
                  key={f.roomId}
                  variant="ghost"
                  disabled={f.broken !== undefined}
                  onClick={() => void files.open(f.roomId)}
                >
                  📁 {f.name}
                  {f.broken !== undefined && ` (${t("broken")})`}
                </Button>
              ))}
              {ready.rows.length === 0 && ready.listing.folders.length === 0 && <p>{t("empty_folder")}</p>}
              {ready.rows.length > 0 && rows.length === 0 && <p>{t("empty_search", { query })}</p>}
              {layout === "list" && rows.length > 0 && (
                <table className={styles.table} data-testid="files-list">
                  <thead>
                    <tr>
                      <th>{t("col_name")}</th>
                      <th>{t("col_size")}</th>
                      <th>{t("col_type")}</th>
                      <th>{t("col_by")}</th>
                      <th>{t("col_date")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={row.entry.eventId} data-file={row.entry.name} onClick={() => setSelected(row)}>
                        <td>
                          {row.entry.name}{" "}
                          <span className={styles.muted}>{t("version", { version: row.entry.version })}</span>
                          {(row.broken !== undefined || row.entry.problem !== undefined) && (
                            <span className={styles.error}> {t("broken")}</span>
                          )}
                        </td>
                        <td>{formatSize(row.details?.size)}</td>
                        <td>{row.details?.mimetype ?? ""}</td>
                        <td>{row.details?.sender ?? row.entry.updatedBy}</td>
                        <td>{new Date(row.details?.ts ?? row.entry.updatedTs).toLocaleString()}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {layout === "grid" && (
                <div className={styles.grid}>
                  {rows.map((row) => (
                    <button
                      key={row.entry.eventId}
                      type="button"
                      className={styles.card}
                      data-file={row.entry.name}
                      onClick={() => setSelected(row)}
                    >
                      <strong>{row.entry.name}</strong>
                      <div className={styles.muted}>
                        {formatSize(row.details?.size)} · {row.details?.mimetype ?? ""}
                      </div>
                    </button>
                  ))}
                </div>
              )}
            </div>
            {selected && (
              <FileDetailsPanel
                files={files}
                roomId={ready.listing.roomId}
                row={selected}
                canEdit={canEdit}
                onClose={() => setSelected(null)}
              />
            )}
            {sharing && (
              <ShareDialog
                files={files}
                roomId={ready.listing.roomId}
                name={ready.listing.name}
                onClose={() => setSharing(false)}
              />
            )}
          </>
        )}
      </section>
    </div>
  );
}
