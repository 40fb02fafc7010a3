/**
 * The Files view's model over `client.files`: the trees and shared-folder
 * invites, the open folder (breadcrumbs, subfolders, files with their
 * details), sort, search by name, list or grid, uploads with per-file
 * progress and cancel, downloads (decrypted here, handed to the view as
 * bytes), version history, the sharing dialog's members and roles, and
 * leave. Uploads are journalled (IndexedDB in the app): those a reload cut
 * off resume on attach and show as rows again. Errors become a message the
 * view shows; nothing throws into React.
 */
import { FileTreeError } from "../../sdk";
import type {
  FileDetails,
  FileEntry,
  FileVersion,
  FilesService,
  FolderListing,
  FolderMember,
  TreeRole,
  UploadHandle,
  UploadJournal,
} from "../../sdk";
import { ObservableValue } from "../observables";

// The SDK types the Files view shows; features read them from here, not from the SDK.
export type { FileVersion, FolderMember, TreeRole } from "../../sdk";

/** The client part the Files view uses. */
export interface FilesClient {
  readonly files: FilesService;
}

/** How the file list is sorted. */
export type FileSort = "name" | "date" | "size" | "type";

/** One upload as the view shows it. */
export interface UploadRow {
  readonly id: number;
  readonly name: string;
  readonly total: number;
  readonly sent: number;
  readonly status: "uploading" | "done" | "cancelled" | "failed";
  readonly error?: string;
}

/** A file row: the listing's entry and, once loaded, its details (or what is wrong with it). */
export interface FileRow {
  readonly entry: FileEntry;
  readonly details?: FileDetails;
  readonly broken?: string;
}

/** The open folder's state. */
export type FolderView =
  | { readonly kind: "none" }
  | { readonly kind: "loading"; readonly roomId: string }
  | { readonly kind: "error"; readonly roomId: string; readonly message: string }
  | { readonly kind: "ready"; readonly listing: FolderListing; readonly rows: readonly FileRow[] };

/** What each role may do, in plain words (the sharing dialog shows them). */
export const ROLE_DESCRIPTIONS: Readonly<Record<TreeRole, string>> = {
  viewer: "Can see and download files",
  editor: "Can also upload, add versions, rename, move and delete files and folders",
  owner: "Can also share, change roles and delete the folder",
};

function messageOf(error: unknown): string {
  if (error instanceof FileTreeError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Sorts and filters rows as the view asks. */
export function visibleRows(rows: readonly FileRow[], sort: FileSort, query: string): FileRow[] {
  const q = query.trim().toLowerCase();
  const shown = q === "" ? [...rows] : rows.filter((r) => r.entry.name.toLowerCase().includes(q));
  const key = (r: FileRow): string | number => {
    switch (sort) {
      case "name":
        return r.entry.name.toLowerCase();
      case "date":
        return -(r.details?.ts ?? r.entry.updatedTs);
      case "size":
        return -(r.details?.size ?? -1);
      case "type":
        return r.details?.mimetype ?? "";
    }
  };
  return shown.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : a.entry.name.localeCompare(b.entry.name);
  });
}

export class FilesViewModel {
  readonly trees = new ObservableValue<readonly { roomId: string; name: string }[]>([]);
  readonly invites = new ObservableValue<readonly { roomId: string; name: string }[]>([]);
  readonly folder = new ObservableValue<FolderView>({ kind: "none" });
  readonly uploads = new ObservableValue<readonly UploadRow[]>([]);
  readonly sort = new ObservableValue<FileSort>("name");
  readonly query = new ObservableValue("");
  readonly layout = new ObservableValue<"list" | "grid">("list");
  readonly error = new ObservableValue<string | null>(null);
  private readonly aborts = new Map<number, AbortController>();
  private nextUpload = 1;
  private openSeq = 0;

  constructor(
    private readonly client: FilesClient,
    options: { journal?: UploadJournal } = {},
  ) {
    if (options.journal) client.files.fileOps.uploads.useJournal(options.journal);
    this.refreshTrees();
  }

  /**
   * Follows sync (new trees, invites) until the returned function is
   * called; the view calls it from an effect, so React's double-run of
   * effects in development re-attaches instead of leaving it detached.
   */
  attach(): () => void {
    this.refreshTrees();
    void this.resumeUploads();
    return this.client.files.onChange((changed) => {
      this.refreshTrees();
      // Someone else's upload, rename or role change in the open folder shows without a click.
      const id = this.openId;
      if (id !== undefined && changed.has(id) && this.folder.getSnapshot().kind === "ready")
        void this.open(id);
    });
  }

  /** Re-reads the trees and invites (sync changed rooms). */
  refreshTrees(): void {
    this.trees.set(this.client.files.trees());
    this.invites.set(this.client.files.invites());
  }

  /** Opens a folder; file details load after the listing. */
  async open(roomId: string): Promise<void> {
    // Opens overlap (a sync batch and our own reopen): only the latest one's answer is shown.
    const seq = ++this.openSeq;
    // Reading the shown folder again (a sync change, our own action) keeps it on screen until
    // the new listing comes: a loading state between would unmount what is open over it (the
    // share dialog, a typed user id) on every sync change.
    const shown = this.folder.getSnapshot();
    if (!(shown.kind === "ready" && shown.listing.roomId === roomId))
      this.folder.set({ kind: "loading", roomId });
    try {
      const listing = await this.client.files.open(roomId);
      if (seq !== this.openSeq) return;
      const rows: FileRow[] = listing.files.map((entry) => ({ entry }));
      this.folder.set({ kind: "ready", listing, rows });
      await this.loadDetails(roomId, rows, seq);
    } catch (error) {
      if (seq === this.openSeq) this.folder.set({ kind: "error", roomId, message: messageOf(error) });
    }
  }

  private async loadDetails(roomId: string, rows: readonly FileRow[], seq: number): Promise<void> {
    const loaded = await Promise.all(
      rows.map(async (row): Promise<FileRow> => {
        const details = await this.client.files.fileOps.details(roomId, row.entry.eventId);
        return "problem" in details ? { ...row, broken: details.reason } : { ...row, details };
      }),
    );
    const current = this.folder.getSnapshot();
    // A later open's listing is not overwritten with this one's rows.
    if (seq === this.openSeq && current.kind === "ready" && current.listing.roomId === roomId)
      this.folder.set({ ...current, rows: loaded });
  }

  private async act(work: () => Promise<unknown>): Promise<boolean> {
    this.error.set(null);
    try {
      await work();
      return true;
    } catch (error) {
      this.error.set(messageOf(error));
      return false;
    }
  }

  private get openId(): string | undefined {
    const f = this.folder.getSnapshot();
    return f.kind === "none" ? undefined : f.kind === "ready" ? f.listing.roomId : f.roomId;
  }

  private reopen(): Promise<void> {
    const id = this.openId;
    return id === undefined ? Promise.resolve() : this.open(id);
  }

  async createTree(name: string): Promise<void> {
    await this.act(async () => {
      const roomId = await this.client.files.createTree(name);
      this.refreshTrees();
      await this.open(roomId);
    });
  }

  async createFolder(name: string): Promise<void> {
    const id = this.openId;
    if (id !== undefined && (await this.act(() => this.client.files.createFolder(id, name))))
      await this.reopen();
  }

  async accept(roomId: string): Promise<void> {
    if (await this.act(() => this.client.files.accept(roomId))) {
      this.refreshTrees();
      await this.open(roomId);
    }
  }

  /** Uploads each file with its own progress row; cancel(id) aborts one. */
  async upload(
    files: readonly { name: string; type: string; bytes: () => Promise<ArrayBuffer> }[],
  ): Promise<void> {
    const id = this.openId;
    if (id === undefined) return;
    await Promise.all(
      files.map(async (file) => {
        const data = new Uint8Array(await file.bytes());
        const row = this.nextUpload++;
        const abort = new AbortController();
        this.aborts.set(row, abort);
        this.setUpload({ id: row, name: file.name, total: data.byteLength, sent: 0, status: "uploading" });
        const started = this.client.files.fileOps.startUpload(id, file.name, data, {
          ...(file.type ? { mimetype: file.type } : {}),
          signal: abort.signal,
          onProgress: (p) => this.patchUpload(row, { sent: p.loaded }),
        });
        await this.track(
          row,
          started.then((h) => h.done),
          abort,
        );
      }),
    );
    await this.reopen();
  }

  /** Takes up the uploads a reload cut off (from the journal), each with its row again. */
  async resumeUploads(): Promise<void> {
    const rows = new Map<string, number>();
    let handles: UploadHandle[];
    try {
      handles = await this.client.files.fileOps.uploads.resume((uploadId, p) => {
        const row = rows.get(uploadId);
        if (row !== undefined) this.patchUpload(row, { sent: p.loaded });
      });
    } catch (error) {
      this.error.set(messageOf(error));
      return;
    }
    if (handles.length === 0) return;
    await Promise.all(
      handles.map((handle) => {
        const row = this.nextUpload++;
        rows.set(handle.id, row);
        this.setUpload({ id: row, name: handle.name, total: handle.size, sent: 0, status: "uploading" });
        return this.track(row, handle.done);
      }),
    );
    await this.reopen();
  }

  private async track(row: number, done: Promise<string>, abort?: AbortController): Promise<void> {
    try {
      await done;
      const total = this.uploads.getSnapshot().find((u) => u.id === row)?.total ?? 0;
      this.patchUpload(row, { sent: total, status: "done" });
    } catch (error) {
      this.patchUpload(
        row,
        abort?.signal.aborted ? { status: "cancelled" } : { status: "failed", error: messageOf(error) },
      );
    } finally {
      this.aborts.delete(row);
    }
  }

  cancel(uploadId: number): void {
    this.aborts.get(uploadId)?.abort();
  }

  /** The decrypted bytes of a version, or null (the error is shown). */
  async download(roomId: string, eventId: string): Promise<Uint8Array | null> {
    let data: Uint8Array | null = null;
    await this.act(async () => {
      data = await this.client.files.fileOps.download(roomId, eventId);
    });
    return data;
  }

  async history(roomId: string, eventId: string): Promise<readonly FileVersion[]> {
    let versions: readonly FileVersion[] = [];
    await this.act(async () => {
      versions = await this.client.files.fileOps.history(roomId, eventId);
    });
    return versions;
  }

  async newVersion(
    roomId: string,
    eventId: string,
    file: { type: string; bytes: () => Promise<ArrayBuffer> },
  ): Promise<void> {
    const data = new Uint8Array(await file.bytes());
    if (
      await this.act(() =>
        this.client.files.fileOps.newVersion(roomId, eventId, data, file.type ? { mimetype: file.type } : {}),
      )
    )
      await this.reopen();
  }

  async rename(roomId: string, eventId: string, name: string): Promise<void> {
    if (await this.act(() => this.client.files.fileOps.rename(roomId, eventId, name))) await this.reopen();
  }

  async remove(roomId: string, eventId: string): Promise<void> {
    if (await this.act(() => this.client.files.fileOps.delete(roomId, eventId))) await this.reopen();
  }

  async members(roomId: string): Promise<readonly FolderMember[]> {
    let members: readonly FolderMember[] = [];
    await this.act(async () => {
      members = await this.client.files.members(roomId);
    });
    return members;
  }

  /** Shares (or changes a member's role); false with the reason in `error` when refused. */
  share(roomId: string, userId: string, role: TreeRole, subfolders: boolean): Promise<boolean> {
    return this.act(() => this.client.files.share(roomId, userId, role, { subfolders }));
  }

  async leave(roomId: string): Promise<void> {
    if (await this.act(() => this.client.files.leave(roomId, { subfolders: true }))) {
      this.folder.set({ kind: "none" });
      this.refreshTrees();
    }
  }

  /** Cancels the uploads still running. */
  dispose(): void {
    for (const abort of this.aborts.values()) abort.abort();
  }

  private setUpload(row: UploadRow): void {
    this.uploads.set([...this.uploads.getSnapshot().filter((u) => u.id !== row.id), row]);
  }

  private patchUpload(id: number, patch: Partial<UploadRow>): void {
    this.uploads.set(this.uploads.getSnapshot().map((u) => (u.id === id ? { ...u, ...patch } : u)));
  }
}
