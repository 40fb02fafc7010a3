/**
 * Reading a folder from its room state, without I/O: the files (active
 * MSC3089 branch states), the subfolders (m.space.child in the spec's
 * order) and the details of a file event. Everything read is untrusted: a
 * forged version, a branch from someone without the editor role, a bad name
 * or a huge listing is ignored or marked broken with a log line, never
 * thrown.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import { isJsonObject, own, ownObject, ownString } from "../models/json";
import type { RoomState } from "../models/room/RoomState";
import { orderSpaceChildren } from "../models/room-list/orders";
import { FILE_BRANCH, FILE_LEAF, MAX_FILES_LISTED, MAX_NAME_LENGTH, MAX_VERSION_NUMBER } from "./constants";
import { canEdit } from "./roles";

/** Receives one line per ignored or broken entry. */
export type FilesLog = (message: string) => void;

/** What is wrong with an entry that is still shown. */
export type EntryProblem =
  /** The branch's version is not a whole number from 1 up. */
  | "forged_version"
  /** The branch has no usable name. */
  | "bad_name"
  /** The file event is missing, undecryptable, or not a usable encrypted file. */
  | "missing_event";

/** One file of a folder, as its branch state describes it. */
export interface FileEntry {
  readonly roomId: string;
  /** The event id of the current version (the branch's state key). */
  readonly eventId: string;
  readonly name: string;
  readonly version: number;
  readonly locked: boolean;
  /** Who wrote the branch, and when: the upload of this version or the last rename. */
  readonly updatedBy: string;
  readonly updatedTs: number;
  readonly problem?: EntryProblem;
}

/** The shown name of a file without a usable one. */
export const UNNAMED_FILE = "Unnamed file";

/** A name as given, trimmed; undefined when empty or too long. */
export function validName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.trim();
  return name.length > 0 && name.length <= MAX_NAME_LENGTH ? name : undefined;
}

/** The version a branch claims: 1 when absent, undefined when forged. */
export function branchVersion(content: unknown): number | undefined {
  const version = own(content, "version");
  if (version === undefined) return 1;
  return typeof version === "number" &&
    Number.isSafeInteger(version) &&
    version >= 1 &&
    version <= MAX_VERSION_NUMBER
    ? version
    : undefined;
}

/**
 * The active files of a folder, by name. Branches that are inactive or
 * emptied (deleted) are skipped silently; those from a sender without the
 * editor role or with a state key that is not an event id are ignored with
 * a log line; at most MAX_FILES_LISTED are kept.
 */
export function listFileEntries(roomId: string, state: RoomState, log: FilesLog): FileEntry[] {
  const levels = state.powerLevels;
  const files: FileEntry[] = [];
  let dropped = 0;
  for (const [stateKey, entry] of state.ofType(FILE_BRANCH.unstable)) {
    const content = entry.content;
    if (own(content, "active") !== true) continue;
    if (!stateKey.startsWith("$")) {
      log(
        `files: ignoring branch ${JSON.stringify(stateKey)} in ${roomId}: its state key is not an event id`,
      );
      continue;
    }
    if (!canEdit(levels, entry.sender)) {
      log(`files: ignoring file ${stateKey} in ${roomId}: ${entry.sender} does not have the editor role`);
      continue;
    }
    if (files.length >= MAX_FILES_LISTED) {
      dropped += 1;
      continue;
    }
    const name = validName(own(content, "name"));
    const version = branchVersion(content);
    if (version === undefined) {
      log(
        `files: file ${stateKey} in ${roomId} claims a forged version ${JSON.stringify(own(content, "version"))}`,
      );
    }
    if (name === undefined) log(`files: file ${stateKey} in ${roomId} has no usable name`);
    const ts = (entry as { origin_server_ts?: unknown }).origin_server_ts;
    const problem: EntryProblem | undefined =
      version === undefined ? "forged_version" : name === undefined ? "bad_name" : undefined;
    files.push({
      roomId,
      eventId: stateKey,
      name: name ?? UNNAMED_FILE,
      version: version ?? 1,
      locked: own(content, "locked") === true,
      updatedBy: entry.sender,
      updatedTs: typeof ts === "number" && Number.isFinite(ts) ? ts : 0,
      ...(problem ? { problem } : {}),
    });
  }
  if (dropped > 0) log(`files: ${roomId} lists more than ${MAX_FILES_LISTED} files; ${dropped} left out`);
  return files.sort((a, b) => a.name.localeCompare(b.name) || (a.eventId < b.eventId ? -1 : 1));
}

/** The subfolders of a folder, in the spec's m.space.child order. */
export function childFolderIds(state: RoomState): string[] {
  return orderSpaceChildren(state.ofType("m.space.child"));
}

/** The parents a folder names with m.space.parent (a `via` present). */
export function parentFolderIds(state: RoomState): string[] {
  const parents: string[] = [];
  for (const [roomId, entry] of state.ofType("m.space.parent")) {
    const via = own(entry.content, "via");
    if (Array.isArray(via) && via.length > 0) parents.push(roomId);
  }
  return parents.sort();
}

/** The part of a file event the tree reads. */
export interface FileDetails {
  readonly eventId: string;
  readonly sender: string;
  readonly ts: number;
  readonly body: string;
  readonly size?: number;
  readonly mimetype?: string;
  /** The encrypted file (untrusted JSON; validated when downloaded). */
  readonly file: Record<string, unknown>;
  /** The earlier version this one replaces (m.replace), if any. */
  readonly replaces?: string;
}

/** Where a file event's content is: m.new_content for a replacement, else the content. */
function fileContentOf(content: Record<string, unknown>): Record<string, unknown> {
  const next = ownObject(content, "m.new_content");
  return next !== undefined && isJsonObject(own(next, "file")) ? next : content;
}

/**
 * The details of a clear file event, or a reason it is not one: not an
 * m.file message, no encrypted `file`, or a sender without the editor role
 * (`levels` from the folder's current state).
 */
export function readFileEvent(
  event: ClientEventWithoutRoomId,
  isEditor: (userId: string) => boolean,
): FileDetails | string {
  if (event.type !== "m.room.message") return `it is ${event.type}, not a file message`;
  const content = fileContentOf(event.content);
  if (ownString(content, "msgtype") !== "m.file") return "it is not an m.file message";
  const file = ownObject(content, "file");
  if (file === undefined) return "it has no encrypted file";
  if (!isEditor(event.sender)) return `${event.sender} does not have the editor role`;
  const info = ownObject(content, "info");
  const size = own(info, "size");
  const mimetype = ownString(info, "mimetype");
  const relates = ownObject(event.content, "m.relates_to");
  const replaces =
    ownString(relates, "rel_type") === "m.replace" ? ownString(relates, "event_id") : undefined;
  return {
    eventId: event.event_id,
    sender: event.sender,
    ts: event.origin_server_ts,
    body: ownString(content, "body") ?? "",
    ...(typeof size === "number" && Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
    ...(mimetype !== undefined ? { mimetype } : {}),
    file,
    ...(replaces !== undefined ? { replaces } : {}),
  };
}

/** Whether the event carries the leaf marker (files of other trees' tools may lack it). */
export function hasLeafMarker(event: ClientEventWithoutRoomId): boolean {
  return isJsonObject(own(event.content, FILE_LEAF.unstable));
}

/**
 * The entries less those an own new version, now active too, replaces: its
 * two branch writes are not atomic, and a listing between them would show
 * the file twice (old and new version).
 */
export function withoutReplaced(
  entries: readonly FileEntry[],
  replacing: ReadonlyMap<string, string>,
): FileEntry[] {
  if (replacing.size === 0) return [...entries];
  const ids = new Set(entries.map((e) => e.eventId));
  return entries.filter((e) => {
    const newer = replacing.get(e.eventId);
    return newer === undefined || !ids.has(newer);
  });
}
