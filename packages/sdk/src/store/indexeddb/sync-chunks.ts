/**
 * The stored sync snapshot in chunks (schema v6): the accumulator's room
 * lists (join, invite, knock...) are cut into records of SYNC_CHUNK_ROOMS
 * rooms in the sync_chunks object store, and the sync record keeps the rest
 * with a list of the chunks. Reading a chunk at a time spreads the
 * structured-clone deserialisation of a 3,000-room snapshot over many
 * short tasks instead of one that blocks the page for seconds. Records
 * written before v6 (the whole snapshot in one record) read as before.
 */
import { StoreError } from "../errors";
import type { JsonObject } from "../Store";

/** Rooms per chunk record. */
export const SYNC_CHUNK_ROOMS = 25;

/** A field of roomsData cut into `count` chunk records. */
export interface ChunkRef {
  field: string;
  count: number;
}

/** One chunk record: its key is `<field>:<index>`. */
export interface SyncChunk {
  key: string;
  items: unknown[];
}

/** The key of a field's i-th chunk. */
export function chunkKey(field: string, index: number): string {
  return `${field}:${index}`;
}

/** Cuts every array field of roomsData longer than one chunk into chunk records. */
export function splitRoomsData(roomsData: JsonObject): {
  head: JsonObject;
  refs: ChunkRef[];
  chunks: SyncChunk[];
} {
  const head: JsonObject = {};
  const refs: ChunkRef[] = [];
  const chunks: SyncChunk[] = [];
  for (const [field, value] of Object.entries(roomsData)) {
    if (!Array.isArray(value) || value.length <= SYNC_CHUNK_ROOMS) {
      head[field] = value;
      continue;
    }
    let count = 0;
    for (let i = 0; i < value.length; i += SYNC_CHUNK_ROOMS)
      chunks.push({ key: chunkKey(field, count++), items: value.slice(i, i + SYNC_CHUNK_ROOMS) });
    refs.push({ field, count });
  }
  return { head, refs, chunks };
}

/** Reads the chunks back, one record per read (each its own task), into the whole roomsData. */
export async function joinRoomsData(
  head: JsonObject,
  refs: readonly ChunkRef[],
  read: (key: string) => Promise<SyncChunk | undefined>,
): Promise<JsonObject> {
  const out: JsonObject = { ...head };
  for (const { field, count } of refs) {
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const chunk = await read(chunkKey(field, i));
      if (chunk === undefined)
        throw new StoreError("CORRUPT", `Stored sync snapshot lacks chunk ${chunkKey(field, i)}`);
      for (const item of chunk.items) items.push(item);
    }
    out[field] = items;
  }
  return out;
}

/** The items of each chunk record a store instance last wrote, by key (references, not copies). */
export type WrittenChunks = ReadonlyMap<string, readonly unknown[]>;

/**
 * What a save must write of `chunks` when the object store holds exactly
 * `previous` (what this instance last wrote): the chunks whose items are
 * not the same references as before (the accumulator keeps an unchanged
 * room's frozen stored form, so an unchanged chunk is the same items), and
 * the keys no longer used. Without `previous` everything is written.
 */
export function chunkWrites(
  previous: WrittenChunks | undefined,
  chunks: readonly SyncChunk[],
): { put: SyncChunk[]; remove: string[]; written: Map<string, readonly unknown[]> } {
  const written = new Map<string, readonly unknown[]>();
  const put: SyncChunk[] = [];
  for (const chunk of chunks) {
    written.set(chunk.key, chunk.items);
    const before = previous?.get(chunk.key);
    const same =
      before !== undefined &&
      before.length === chunk.items.length &&
      before.every((item, i) => item === chunk.items[i]);
    if (!same) put.push(chunk);
  }
  const remove = previous === undefined ? [] : [...previous.keys()].filter((key) => !written.has(key));
  return { put, remove, written };
}
