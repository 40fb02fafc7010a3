/**
 * Uploads of files and new versions that survive a reload or a network
 * failure. Each upload is a journal record that moves through three
 * stages, and the record is written before each stage starts:
 *
 * 1. `upload`: the bytes are kept; they are encrypted and uploaded (a
 *    media upload cannot be continued, so it restarts from the start);
 * 2. `send`: the EncryptedFile is kept; the m.file message is sent under
 *    the record's id as its transaction id, so sending it again after a
 *    reload gives back the same event (the server de-duplicates it) and
 *    never a second file entry;
 * 3. `branch`: the event id is kept; the branch states are written (a state
 *    write of the same content is harmless to repeat), then the record goes.
 *
 * Transient failures (network, time-out, 5xx, rate limit) are retried with
 * bounded backoff; a record left after the last try, or cut off by a
 * reload, is taken up by `resume()`. A refusal (M_FORBIDDEN after a
 * demotion sync had not shown) ends the upload with the file tree's message.
 */
import type { EncryptedFile } from "../crypto/attachments/wire-types";
import { ConnectionError, MatrixError } from "../http/errors";
import type { UploadProgress } from "../http/types";
import { FILE_TREE_MESSAGES, FileTreeError, isForbidden } from "./errors";
import type { FilesIo } from "./io";

/** Where an upload stands: what is left to do. */
export type UploadStage = "upload" | "send" | "branch";

/** One upload as the journal keeps it (a persisted shape: see the snapshot test). */
export interface UploadRecord {
  /** The upload's id, also the transaction id of its file message. */
  readonly id: string;
  readonly roomId: string;
  readonly name: string;
  readonly mimetype?: string;
  readonly size: number;
  /** The version the new branch gets (1 for a new file). */
  readonly version: number;
  /** For a new version: the event it replaces and that branch's content (set inactive at the end). */
  readonly replaces?: { readonly eventId: string; readonly branch: Readonly<Record<string, unknown>> };
  readonly stage: UploadStage;
  /** The plain bytes, until they are uploaded. */
  readonly data?: Uint8Array;
  /** The uploaded, encrypted file, once uploaded. */
  readonly file?: EncryptedFile;
  /** The file message's event id, once sent. */
  readonly eventId?: string;
  readonly createdAt: number;
}

/** Where upload records persist across reloads. */
export interface UploadJournal {
  all(): Promise<UploadRecord[]>;
  put(record: UploadRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

/** A journal in memory: uploads survive network failures, not reloads (the default). */
export class MemoryUploadJournal implements UploadJournal {
  private readonly records = new Map<string, UploadRecord>();
  all(): Promise<UploadRecord[]> {
    return Promise.resolve([...this.records.values()].sort((a, b) => a.createdAt - b.createdAt));
  }
  put(record: UploadRecord): Promise<void> {
    this.records.set(record.id, record);
    return Promise.resolve();
  }
  delete(id: string): Promise<void> {
    this.records.delete(id);
    return Promise.resolve();
  }
}

/** How transient failures are retried. */
export interface UploadRetryPolicy {
  /** Tries per stage before the record is left for the next resume(). */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_UPLOAD_RETRY: UploadRetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
};

/** An upload under way (started now or resumed). */
export interface UploadHandle {
  readonly id: string;
  readonly roomId: string;
  readonly name: string;
  readonly size: number;
  /** The event replaced, for a new version. */
  readonly replaces?: string;
  /** The new file event's id. */
  readonly done: Promise<string>;
}

/** Options of one run. */
export interface UploadRunOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Aborts the byte upload (the record goes); once the bytes are up, the upload completes. */
  signal?: AbortSignal;
}

/** The steps the uploader takes through the file operations. */
export interface UploadSteps {
  /** The file message's content for an uploaded file. */
  content(record: UploadRecord, file: EncryptedFile): Record<string, unknown>;
  /** Sends the file message under `txnId`; its event id. */
  send(roomId: string, content: Record<string, unknown>, txnId: string): Promise<string>;
  writeBranch(roomId: string, eventId: string, content: Record<string, unknown>): Promise<void>;
}

/** Whether another try may succeed: the network, a time-out, 5xx, rate limiting, or sync still catching up. */
export function isTransientFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    // Sync not knowing the folder yet (a resume right after start) is a wait, not a refusal.
    if (e instanceof FileTreeError) return e.code === "timeout";
    if (e instanceof ConnectionError) return e.kind !== "aborted";
    if (e instanceof MatrixError)
      return e.httpStatus >= 500 || e.httpStatus === 429 || e.errcode === "M_LIMIT_EXCEEDED";
  }
  return false;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });
}

/** Runs uploads through their stages, persisting each one first. */
export class Uploader {
  private journal: UploadJournal = new MemoryUploadJournal();
  private readonly running = new Map<string, UploadHandle>();
  /** Own new versions between their two branch writes: the replaced event id to the new one. */
  private readonly replacing = new Map<string, string>();
  private counter = 0;

  constructor(
    private readonly io: FilesIo,
    private readonly steps: UploadSteps,
    private retry: UploadRetryPolicy = DEFAULT_UPLOAD_RETRY,
  ) {}

  /** Persists uploads in `journal` from now on (the app's IndexedDB one); `retry` overrides the policy. */
  useJournal(journal: UploadJournal, retry?: Partial<UploadRetryPolicy>): void {
    this.journal = journal;
    if (retry) this.retry = { ...this.retry, ...retry };
  }

  /** A fresh upload id: unique per device, as transaction ids must be. */
  newId(): string {
    this.counter += 1;
    const random = Math.random().toString(36).slice(2, 10);
    return `lf${Date.now().toString(36)}.${random}.${this.counter}`;
  }

  /** Records a new upload, then runs it. */
  async start(record: UploadRecord, options: UploadRunOptions = {}): Promise<UploadHandle> {
    await this.journal.put(record);
    return this.launch(record, options);
  }

  /**
   * The files an own new version is replacing while its branch states are
   * written (old event id to new): the new branch goes active before the
   * old one goes inactive, and a listing read in between hides the old one.
   */
  replacements(): ReadonlyMap<string, string> {
    return this.replacing;
  }

  /** The uploads under way in this run. */
  current(): UploadHandle[] {
    return [...this.running.values()];
  }

  /**
   * Takes up every upload the journal holds that is not running (cut off by
   * a reload, or out of tries): each continues from its stage.
   */
  async resume(onProgress?: (id: string, progress: UploadProgress) => void): Promise<UploadHandle[]> {
    const out: UploadHandle[] = [];
    for (const record of await this.journal.all()) {
      const running = this.running.get(record.id);
      if (running) {
        out.push(running);
        continue;
      }
      this.io.log(`files: resuming upload ${record.id} of ${record.name} at ${record.stage}`);
      out.push(this.launch(record, onProgress ? { onProgress: (p) => onProgress(record.id, p) } : {}));
    }
    return out;
  }

  private launch(record: UploadRecord, options: UploadRunOptions): UploadHandle {
    const done = this.run(record, options).finally(() => this.running.delete(record.id));
    // A caller that drops the handle must not see an unhandled rejection; the record says what is left.
    done.catch(() => undefined);
    const handle: UploadHandle = {
      id: record.id,
      roomId: record.roomId,
      name: record.name,
      size: record.size,
      ...(record.replaces ? { replaces: record.replaces.eventId } : {}),
      done,
    };
    this.running.set(record.id, handle);
    return handle;
  }

  private async run(first: UploadRecord, options: UploadRunOptions): Promise<string> {
    let record = first;
    const { signal } = options;
    try {
      if (record.stage === "upload") {
        const data = record.data;
        if (data === undefined) throw new FileTreeError("broken_file", FILE_TREE_MESSAGES.brokenFile);
        const file = await this.step(record, signal, () =>
          this.io.upload(data, {
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(signal ? { signal } : {}),
          }),
        );
        const { data: _sent, ...rest } = record;
        record = { ...rest, stage: "send", file };
        await this.journal.put(record);
      }
      if (record.stage === "send") {
        const file = record.file as EncryptedFile;
        const content = this.steps.content(record, file);
        const eventId = await this.step(record, undefined, () =>
          this.steps.send(record.roomId, content, record.id),
        );
        record = { ...record, stage: "branch", eventId };
        await this.journal.put(record);
      }
      const eventId = record.eventId as string;
      if (record.replaces) this.replacing.set(record.replaces.eventId, eventId);
      await this.step(record, undefined, async () => {
        await this.steps.writeBranch(record.roomId, eventId, {
          active: true,
          name: record.name,
          version: record.version,
        });
        if (record.replaces)
          await this.steps.writeBranch(record.roomId, record.replaces.eventId, {
            ...record.replaces.branch,
            active: false,
          });
      });
      // The old branch is inactive in our state now (the write's overlay), so the listing needs no hiding.
      if (record.replaces) this.replacing.delete(record.replaces.eventId);
      await this.journal.delete(record.id);
      return eventId;
    } catch (error) {
      if (record.replaces) this.replacing.delete(record.replaces.eventId);
      // Out of tries on a transient failure: kept for the next resume(). Anything else ends it.
      if (!isTransientFailure(error) || signal?.aborted) await this.journal.delete(record.id);
      if (isForbidden(error))
        throw new FileTreeError("forbidden", FILE_TREE_MESSAGES.viewerCannotUpload, { cause: error });
      throw error;
    }
  }

  /** One stage, tried again on transient failures with backoff. */
  private async step<T>(
    record: UploadRecord,
    signal: AbortSignal | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (signal?.aborted || !isTransientFailure(error) || attempt >= this.retry.maxAttempts) throw error;
        const delay = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        this.io.log(
          `files: upload ${record.id} (${record.stage}) failed (${String(error)}); try ${attempt + 1} in ${delay} ms`,
        );
        await sleep(delay, signal);
      }
    }
  }
}
