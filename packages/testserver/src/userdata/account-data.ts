/**
 * Global and per-room account data, each change stored with the stream
 * position it happened at so sync can report what changed after a since
 * token. Tags are m.tag room account data; the fully-read marker is
 * m.fully_read room account data.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { getOrCreate } from "./maps";

interface Entry {
  content: JsonObject;
  stream: number;
}

/** Account data types the server controls; clients cannot set them through account data. */
export const SERVER_CONTROLLED_TYPES = new Set(["m.fully_read", "m.push_rules"]);

export class AccountDataStore {
  private global = new Map<string, Map<string, Entry>>();
  private rooms = new Map<string, Map<string, Map<string, Entry>>>();

  constructor(private readonly ctx: ServerContext) {}

  /** Sets global account data (content {} is how MSC3391 deletion looks). */
  setGlobal(userId: string, type: string, content: JsonObject): void {
    const byType = getOrCreate(this.global, userId, () => new Map<string, Entry>());
    byType.set(type, { content: structuredClone(content), stream: this.ctx.notifier.advance() });
  }

  /** Global account data content, or undefined. */
  getGlobal(userId: string, type: string): JsonObject | undefined {
    const entry = this.global.get(userId)?.get(type);
    return entry ? structuredClone(entry.content) : undefined;
  }

  /** Sets room account data. */
  setRoom(userId: string, roomId: string, type: string, content: JsonObject): void {
    const byRoom = getOrCreate(this.rooms, userId, () => new Map<string, Map<string, Entry>>());
    const byType = getOrCreate(byRoom, roomId, () => new Map<string, Entry>());
    byType.set(type, { content: structuredClone(content), stream: this.ctx.notifier.advance() });
  }

  /** Room account data content, or undefined. */
  getRoom(userId: string, roomId: string, type: string): JsonObject | undefined {
    const entry = this.rooms.get(userId)?.get(roomId)?.get(type);
    return entry ? structuredClone(entry.content) : undefined;
  }

  /** Global events ({type, content}) changed after `since` (all when since is 0). */
  globalSince(userId: string, since: number): JsonObject[] {
    return changedSince(this.global.get(userId), since);
  }

  /** Room events ({type, content}) changed after `since` (all when since is 0). */
  roomSince(userId: string, roomId: string, since: number): JsonObject[] {
    return changedSince(this.rooms.get(userId)?.get(roomId), since);
  }
}

function changedSince(byType: Map<string, Entry> | undefined, since: number): JsonObject[] {
  if (!byType) return [];
  const out: JsonObject[] = [];
  for (const [type, entry] of byType) {
    if (entry.stream > since) out.push({ type, content: structuredClone(entry.content) });
  }
  return out;
}
