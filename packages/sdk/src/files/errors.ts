/**
 * The typed error of the file tree. Role changes, uploads and moves are
 * checked locally first, so the user reads why before any request is made;
 * the code says which rule refused. When the local copy of the power levels
 * is behind the server's (a demotion sync has not brought yet), the server's
 * M_FORBIDDEN is turned into the same refusal and message.
 */
import { MatrixError } from "../http/errors";

/** Which rule refused, or what failed. */
export type FileTreeErrorCode =
  /** The room is not a file tree (no enabled MSC3089 purpose state). */
  | "not_a_tree"
  /** The caller's role does not allow the action. */
  | "forbidden"
  /** An owner's role cannot be lowered. */
  | "owner_cannot_be_demoted"
  /** The role is not viewer, editor or owner. */
  | "unknown_role"
  /** A move would put a folder inside itself. */
  | "cycle"
  /** The file is locked. */
  | "locked"
  /** The file or folder is not in the tree. */
  | "not_found"
  /** A name is empty or too long. */
  | "invalid_name"
  /** The file event is missing, undecryptable or has no usable encrypted file. */
  | "broken_file"
  /** The server did not show the tree's new room or state in time. */
  | "timeout";

/** The messages shown for each refusal, so the UI and tests read one source. */
export const FILE_TREE_MESSAGES = {
  notATree: "This room is not a file tree",
  notOwner: "Only an owner can change roles or share this folder",
  ownerCannotBeDemoted: "Owners cannot be demoted",
  unknownRole: "Unknown role",
  viewerCannotUpload: "Viewers cannot upload, rename, move or delete files",
  cycle: "A folder cannot be moved into itself or one of its subfolders",
  locked: "This file is locked",
  notFound: "This file or folder is not in the tree",
  invalidName: "A name must be 1 to 255 characters",
  brokenFile: "This file cannot be read",
} as const;

/** A refusal or failure of the file tree; `cause` carries the underlying error. */
export class FileTreeError extends Error {
  override readonly name = "FileTreeError";
  constructor(
    readonly code: FileTreeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether the server refused a request for want of power (M_FORBIDDEN). */
export function isForbidden(error: unknown): boolean {
  return error instanceof MatrixError && error.errcode === "M_FORBIDDEN";
}

/** The server's M_FORBIDDEN as the file tree's refusal with `message`; any other error as it is. */
export function asRefusal(error: unknown, message: string): unknown {
  return isForbidden(error) ? new FileTreeError("forbidden", message, { cause: error }) : error;
}
