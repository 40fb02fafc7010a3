/**
 * Files in a folder (MSC3089 leaves): an encrypted upload sent as an m.file
 * message with the leaf marker, indexed by a branch state whose key is the
 * event id. A new version is an m.replace of the previous one: the new
 * branch is active with the version one up, the old one goes inactive.
 * History follows the m.replace links back, bounded and cycle-checked, and
 * checks each claimed version against the chain (a forged number is shown
 * as such). A move re-sends every version into the target folder, keeping
 * the history, with the same encrypted media: the key travels inside the
 * new room's Megolm events, so no bytes are uploaded again. Uploads and
 * new versions go through the journalled Uploader (uploads.ts), so a reload
 * or a network failure neither loses nor duplicates them.
 */
import type { EncryptedFile } from "../crypto/attachments/wire-types";
import { own } from "../models/json";
import type { RoomState } from "../models/room/RoomState";
import { FILE_BRANCH, FILE_LEAF, MAX_VERSIONS, ROOM_KNOWN_TIMEOUT_MS } from "./constants";
import { branchVersion, readFileEvent, validName } from "./entries";
import type { EntryProblem, FileDetails } from "./entries";
import { asRefusal, FILE_TREE_MESSAGES, FileTreeError } from "./errors";
import type { FilesDownloadOptions, FilesIo, FilesUploadOptions } from "./io";
import { canEdit } from "./roles";
import type { TreeState } from "./TreeState";
import { Uploader } from "./uploads";
import type { UploadHandle, UploadRecord } from "./uploads";

/** Options of upload and newVersion. */
export interface UploadFileOptions extends FilesUploadOptions {
  mimetype?: string;
}

/** One version of a file, newest first in a history. */
export interface FileVersion {
  readonly eventId: string;
  /** The version the chain proves (the oldest reachable original is 1). */
  readonly version: number;
  /** The version the branch state claims, when it differs. */
  readonly claimedVersion?: number;
  readonly name: string;
  readonly details?: FileDetails;
  readonly problem?: EntryProblem;
}

/** File operations of the tree. */
export class FileOps {
  /** Uploads, journalled so they resume after a reload (uploads.ts). */
  readonly uploads: Uploader;

  constructor(
    private readonly io: FilesIo,
    private readonly state: TreeState,
    private readonly treeState: (roomId: string) => Promise<RoomState>,
  ) {
    this.uploads = new Uploader(io, {
      content: (record, file) => {
        const content = fileContent(record.name, file, record.size, record.mimetype);
        if (record.replaces === undefined) return content;
        return {
          ...content,
          "m.new_content": content,
          "m.relates_to": { rel_type: "m.replace", event_id: record.replaces.eventId },
        };
      },
      send: (roomId, content, txnId) => this.send(roomId, content, txnId),
      writeBranch: (roomId, eventId, content) => this.writeBranch(roomId, eventId, content),
    });
  }

  /** Encrypts and uploads `data` as a new file; the file event's id. Needs the editor role. */
  async upload(
    roomId: string,
    name: string,
    data: Uint8Array,
    options: UploadFileOptions = {},
  ): Promise<string> {
    return (await this.startUpload(roomId, name, data, options)).done;
  }

  /** Starts an upload of a new file (journalled: it resumes after a reload); its handle. */
  async startUpload(
    roomId: string,
    name: string,
    data: Uint8Array,
    options: UploadFileOptions = {},
  ): Promise<UploadHandle> {
    const valid = this.nameOrThrow(name);
    await this.requireEditor(roomId);
    return this.uploads.start(this.record(roomId, valid, data, 1, options.mimetype), options);
  }

  /** Uploads a new version of a file (an m.replace of the current one); the new event's id. */
  async newVersion(
    roomId: string,
    eventId: string,
    data: Uint8Array,
    options: UploadFileOptions & { name?: string } = {},
  ): Promise<string> {
    return (await this.startNewVersion(roomId, eventId, data, options)).done;
  }

  /** Starts an upload of a new version (journalled); its handle. */
  async startNewVersion(
    roomId: string,
    eventId: string,
    data: Uint8Array,
    options: UploadFileOptions & { name?: string } = {},
  ): Promise<UploadHandle> {
    const state = await this.requireEditor(roomId);
    const branch = this.activeBranch(state, eventId);
    const name =
      options.name !== undefined
        ? this.nameOrThrow(options.name)
        : (validName(own(branch, "name")) ?? "Unnamed file");
    const version = (branchVersion(branch) ?? 1) + 1;
    const record = {
      ...this.record(roomId, name, data, version, options.mimetype),
      replaces: { eventId, branch },
    };
    return this.uploads.start(record, options);
  }

  private record(
    roomId: string,
    name: string,
    data: Uint8Array,
    version: number,
    mimetype: string | undefined,
  ): UploadRecord {
    return {
      id: this.uploads.newId(),
      roomId,
      name,
      ...(mimetype !== undefined ? { mimetype } : {}),
      size: data.byteLength,
      version,
      stage: "upload",
      data,
      createdAt: Date.now(),
    };
  }

  /** The details of a file event (size, type, uploader, date), or the problem with it (logged). */
  async details(
    roomId: string,
    eventId: string,
  ): Promise<FileDetails | { problem: EntryProblem; reason: string }> {
    const state = await this.treeState(roomId);
    const event = await this.io.fetchEvent(roomId, eventId).catch(() => undefined);
    const read =
      event === undefined
        ? "the event is missing or cannot be decrypted"
        : readFileEvent(event, (userId) => canEdit(state.powerLevels, userId));
    if (typeof read === "string") {
      this.io.log(`files: file ${eventId} in ${roomId} is broken: ${read}`);
      return { problem: "missing_event", reason: read };
    }
    return read;
  }

  /** Downloads and decrypts a version of a file. */
  async download(roomId: string, eventId: string, options: FilesDownloadOptions = {}): Promise<Uint8Array> {
    const details = await this.details(roomId, eventId);
    if ("problem" in details) throw new FileTreeError("broken_file", FILE_TREE_MESSAGES.brokenFile);
    return this.io.download(details.file, options);
  }

  /**
   * The versions of a file, newest first, following m.replace back from
   * `eventId`: at most MAX_VERSIONS, stopping at a loop or a missing event
   * (shown as a broken version, with a log line).
   */
  async history(roomId: string, eventId: string): Promise<FileVersion[]> {
    const state = await this.treeState(roomId);
    const found: Array<{
      eventId: string;
      claimed: number | undefined;
      name: string;
      details?: FileDetails;
      broken?: boolean;
    }> = [];
    const seen = new Set<string>();
    let id: string | undefined = eventId;
    let complete = false;
    while (id !== undefined && found.length < MAX_VERSIONS) {
      if (seen.has(id)) {
        this.io.log(`files: version loop at ${id} in ${roomId}; history stops there`);
        break;
      }
      seen.add(id);
      const branch = state.content(FILE_BRANCH.unstable, id);
      const claimed = branch === undefined ? undefined : branchVersion(branch);
      const name = validName(own(branch, "name")) ?? "Unnamed file";
      const details = await this.details(roomId, id);
      if ("problem" in details) {
        found.push({ eventId: id, claimed, name, broken: true });
        break;
      }
      found.push({ eventId: id, claimed, name, details });
      id = details.replaces;
      if (id === undefined) complete = true;
    }
    if (id !== undefined && found.length >= MAX_VERSIONS)
      this.io.log(`files: history of ${eventId} cut at ${MAX_VERSIONS} versions`);
    const total = found.length;
    return found.map((v, i) => {
      // Only a chain that reached the original proves the numbers.
      const proven = total - i;
      const forged = complete && v.claimed !== undefined && v.claimed !== proven;
      if (forged) this.io.log(`files: version ${v.eventId} claims ${v.claimed} but is version ${proven}`);
      return {
        eventId: v.eventId,
        version: complete ? proven : (v.claimed ?? proven),
        ...(forged ? { claimedVersion: v.claimed } : {}),
        name: v.name,
        ...(v.details ? { details: v.details } : {}),
        ...(v.broken
          ? { problem: "missing_event" as const }
          : forged
            ? { problem: "forged_version" as const }
            : {}),
      };
    });
  }

  /** Renames a file (its current branch). */
  async rename(roomId: string, eventId: string, name: string): Promise<void> {
    const valid = this.nameOrThrow(name);
    const state = await this.requireEditor(roomId);
    const branch = this.activeBranch(state, eventId);
    await this.writeBranch(roomId, eventId, { ...branch, name: valid });
  }

  /** Locks or unlocks a file against new versions, renames and moves. */
  async setLocked(roomId: string, eventId: string, locked: boolean): Promise<void> {
    const state = await this.requireEditor(roomId);
    const branch = this.activeBranch(state, eventId, true);
    await this.writeBranch(roomId, eventId, { ...branch, locked });
  }

  /** Deletes a file with every version: each branch is emptied and each event redacted. */
  async delete(roomId: string, eventId: string): Promise<void> {
    const state = await this.requireEditor(roomId);
    this.activeBranch(state, eventId);
    for (const version of await this.history(roomId, eventId)) {
      await this.writeBranch(roomId, version.eventId, {});
      await this.io.redact(roomId, version.eventId, "File deleted").catch((error: unknown) => {
        this.io.log(`files: could not redact ${version.eventId}: ${String(error)}`);
      });
    }
  }

  /** Moves a file with its history into another folder; the new current event id. */
  async move(fromId: string, eventId: string, toId: string): Promise<string> {
    const state = await this.requireEditor(fromId);
    const branch = this.activeBranch(state, eventId);
    await this.requireEditor(toId);
    const versions = (await this.history(fromId, eventId)).filter((v) => v.details !== undefined).reverse();
    if (versions.length === 0) throw new FileTreeError("broken_file", FILE_TREE_MESSAGES.brokenFile);
    const name = validName(own(branch, "name")) ?? "Unnamed file";
    let previous: string | undefined;
    for (const [i, version] of versions.entries()) {
      const d = version.details as FileDetails;
      const content = fileContent(d.body || name, d.file as unknown as EncryptedFile, d.size, d.mimetype);
      const sent: string = await this.send(
        toId,
        previous === undefined
          ? content
          : {
              ...content,
              "m.new_content": content,
              "m.relates_to": { rel_type: "m.replace", event_id: previous },
            },
      );
      const last = i === versions.length - 1;
      await this.writeBranch(toId, sent, { active: last, name: last ? name : version.name, version: i + 1 });
      previous = sent;
    }
    await this.delete(fromId, eventId);
    return previous as string;
  }

  private nameOrThrow(name: string): string {
    const valid = validName(name);
    if (valid === undefined) throw new FileTreeError("invalid_name", FILE_TREE_MESSAGES.invalidName);
    return valid;
  }

  private async requireEditor(roomId: string): Promise<RoomState> {
    const state = await this.treeState(roomId);
    if (!canEdit(state.powerLevels, this.io.userId)) {
      throw new FileTreeError("forbidden", FILE_TREE_MESSAGES.viewerCannotUpload);
    }
    return state;
  }

  /** The active branch content of a file; refused when absent, and when locked unless `evenLocked`. */
  private activeBranch(state: RoomState, eventId: string, evenLocked = false): Record<string, unknown> {
    const branch = state.content(FILE_BRANCH.unstable, eventId);
    if (branch === undefined || own(branch, "active") !== true) {
      throw new FileTreeError("not_found", FILE_TREE_MESSAGES.notFound);
    }
    if (!evenLocked && own(branch, "locked") === true)
      throw new FileTreeError("locked", FILE_TREE_MESSAGES.locked);
    return branch;
  }

  private async send(roomId: string, content: Record<string, unknown>, txnId?: string): Promise<string> {
    // The send queue encrypts with the room's members, which only sync knows: a just-created folder waits for it.
    await this.io.whenRoomKnown(roomId, ROOM_KNOWN_TIMEOUT_MS);
    try {
      return await this.io.sendMessage(roomId, content, txnId);
    } catch (error) {
      // Our copy of the power levels said editor; the server's newer one did not.
      throw asRefusal(error, FILE_TREE_MESSAGES.viewerCannotUpload);
    }
  }

  private async writeBranch(
    roomId: string,
    eventId: string,
    content: Record<string, unknown>,
  ): Promise<void> {
    const id = await this.io
      .sendState(roomId, FILE_BRANCH.unstable, eventId, content)
      .catch((error: unknown) => {
        throw asRefusal(error, FILE_TREE_MESSAGES.viewerCannotUpload);
      });
    this.state.wrote(roomId, {
      event_id: id,
      type: FILE_BRANCH.unstable,
      state_key: eventId,
      sender: this.io.userId,
      content,
    });
  }
}

/** The content of a file message: m.file with the encrypted file and the leaf marker. */
function fileContent(
  name: string,
  file: EncryptedFile,
  size: number | undefined,
  mimetype: string | undefined,
): Record<string, unknown> {
  return {
    msgtype: "m.file",
    body: name,
    filename: name,
    file,
    info: { ...(size !== undefined ? { size } : {}), ...(mimetype !== undefined ? { mimetype } : {}) },
    [FILE_LEAF.unstable]: {},
  };
}
