/**
 * Bounded walks over folders. Every walk keeps a visited set (a folder
 * cycle is reported once and not followed), stops at MAX_FOLDER_DEPTH and
 * MAX_FOLDERS_WALKED, and skips a folder whose state cannot be read (not
 * joined, gone) with a log line: an unbounded walk is never started.
 */
import type { RoomState } from "../models/room/RoomState";
import { MAX_FOLDER_DEPTH, MAX_FOLDERS_WALKED } from "./constants";
import { childFolderIds, parentFolderIds } from "./entries";
import type { FilesLog } from "./entries";

/** Reads a folder's state; rejects when it cannot be read. */
export type StateReader = (roomId: string) => Promise<RoomState>;

/** One folder reached by a walk, with its depth below the start (0 for the start). */
export interface WalkedFolder {
  readonly roomId: string;
  readonly depth: number;
  readonly state: RoomState;
}

/** The start folder and every subfolder below it, breadth first, bounded. */
export async function walkFolders(
  startId: string,
  read: StateReader,
  log: FilesLog,
): Promise<WalkedFolder[]> {
  const seen = new Set<string>([startId]);
  const out: WalkedFolder[] = [];
  let frontier: string[] = [startId];
  for (let depth = 0; frontier.length > 0; depth++) {
    if (depth > MAX_FOLDER_DEPTH) {
      log(`files: stopping below ${startId} at depth ${MAX_FOLDER_DEPTH}`);
      break;
    }
    const next: string[] = [];
    for (const roomId of frontier) {
      if (out.length >= MAX_FOLDERS_WALKED) {
        log(`files: stopping below ${startId} after ${MAX_FOLDERS_WALKED} folders`);
        return out;
      }
      let state: RoomState;
      try {
        state = await read(roomId);
      } catch (error) {
        log(`files: skipping folder ${roomId}: its state cannot be read (${String(error)})`);
        continue;
      }
      out.push({ roomId, depth, state });
      for (const child of childFolderIds(state)) {
        if (seen.has(child)) {
          log(`files: folder cycle: ${roomId} links back to ${child}; not followed`);
          continue;
        }
        seen.add(child);
        next.push(child);
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The ancestors of a folder, nearest first, following the first parent of
 * each (by room id); stops at a cycle, at a parent that cannot be read, and
 * at MAX_FOLDER_DEPTH.
 */
export async function ancestorsOf(
  roomId: string,
  state: RoomState,
  read: StateReader,
  log: FilesLog,
): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>([roomId]);
  let current = state;
  for (let depth = 0; depth < MAX_FOLDER_DEPTH; depth++) {
    const parent = parentFolderIds(current)[0];
    if (parent === undefined) return out;
    if (seen.has(parent)) {
      log(`files: folder cycle above ${roomId} at ${parent}; breadcrumbs stop there`);
      return out;
    }
    seen.add(parent);
    try {
      current = await read(parent);
    } catch {
      // A parent we are not in (shared from inside a tree) ends the breadcrumbs.
      return out;
    }
    out.push(parent);
  }
  log(`files: breadcrumbs above ${roomId} stop at depth ${MAX_FOLDER_DEPTH}`);
  return out;
}
