/**
 * The composer's uploads in flight: each file is probed, uploaded with
 * progress (encrypted in encrypted rooms) and then sent as a media message
 * through the send queue; a failed upload stays listed with its error until
 * retried or dismissed, and one in flight can be cancelled. Files chosen,
 * dropped or pasted wait in `staged` for the upload dialog (preview and
 * caption) before they start.
 */
import { ObservableValue } from "../sdk";
import type { HttpApi } from "../sdk";
import { uploadAttachment } from "./composer/attachments";
import type { MediaProbe, OutgoingFile } from "./composer/attachments";
import type { Content } from "./composer/content";

/** One upload as the composer shows it. */
export interface UploadState {
  readonly id: number;
  readonly name: string;
  readonly loaded: number;
  readonly total: number;
  readonly status: "uploading" | "failed";
  readonly error?: string;
}

export interface ComposerUploadsOptions {
  http: HttpApi;
  isEncrypted: () => boolean;
  /** Sends the finished media content (the composer adds thread relations). */
  send: (content: Content) => void;
  probe?: MediaProbe;
  /** False where files cannot be uploaded (a host without media): nothing is staged, no attach button. */
  enabled?: boolean;
}

interface Job {
  file: OutgoingFile;
  caption?: string;
  controller: AbortController;
}

export class ComposerUploads {
  /** The uploads not sent yet, oldest first. */
  readonly list = new ObservableValue<readonly UploadState[]>([]);
  /** Files waiting in the upload dialog. */
  readonly staged = new ObservableValue<readonly OutgoingFile[]>([]);
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  /** Whether files can be sent (the attach button shows). */
  readonly enabled: boolean;

  constructor(private readonly options: ComposerUploadsOptions) {
    this.enabled = options.enabled !== false;
  }

  /**
   * Starts uploading a file; resolves once it was sent or failed. A caption
   * becomes the event's body, the file name staying in `filename` (the
   * spec's media captions, v1.10).
   */
  add(file: OutgoingFile, caption?: string): Promise<void> {
    const id = this.nextId++;
    return this.start(id, file, caption);
  }

  /** Files chosen, dropped or pasted: held for the upload dialog (preview and caption). */
  stage(files: readonly OutgoingFile[]): void {
    if (files.length > 0 && this.enabled) this.staged.set([...this.staged.getSnapshot(), ...files]);
  }

  /** The dialog's Upload: every staged file goes out, the caption on the first (its body). */
  sendStaged(caption: string): void {
    const files = this.staged.getSnapshot();
    this.staged.set([]);
    files.forEach((file, i) => void this.add(file, i === 0 ? caption : undefined));
  }

  /** The dialog's Cancel: nothing is sent. */
  cancelStaged(): void {
    this.staged.set([]);
  }

  /** Retries a failed upload. */
  retry(id: number): Promise<void> {
    const job = this.jobs.get(id);
    if (job === undefined) return Promise.resolve();
    return this.start(id, job.file, job.caption);
  }

  /** Cancels an upload in flight or forgets a failed one. */
  cancel(id: number): void {
    this.jobs.get(id)?.controller.abort();
    this.jobs.delete(id);
    this.remove(id);
  }

  private async start(id: number, file: OutgoingFile, caption?: string): Promise<void> {
    const controller = new AbortController();
    this.jobs.set(id, { file, controller, ...(caption !== undefined ? { caption } : {}) });
    this.put({ id, name: file.name, loaded: 0, total: file.data.size, status: "uploading" });
    try {
      const content = await uploadAttachment(this.options.http, file, {
        encrypted: this.options.isEncrypted(),
        ...(this.options.probe ? { probe: this.options.probe } : {}),
        signal: controller.signal,
        onProgress: ({ loaded, total }) => {
          if (this.jobs.get(id)?.controller === controller)
            this.put({ id, name: file.name, loaded, total, status: "uploading" });
        },
      });
      if (this.jobs.get(id)?.controller !== controller) return;
      this.jobs.delete(id);
      this.remove(id);
      const text = caption?.trim() ?? "";
      this.options.send(text !== "" ? { ...content, body: text, filename: file.name } : content);
    } catch (err) {
      if (this.jobs.get(id)?.controller !== controller) return;
      const error =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      this.put({ id, name: file.name, loaded: 0, total: file.data.size, status: "failed", error });
    }
  }

  private put(state: UploadState): void {
    const list = this.list.getSnapshot();
    const i = list.findIndex((u) => u.id === state.id);
    this.list.set(i < 0 ? [...list, state] : list.map((u) => (u.id === state.id ? state : u)));
  }

  private remove(id: number): void {
    this.list.set(this.list.getSnapshot().filter((u) => u.id !== id));
  }
}
