/**
 * Typing notifications per room. A user stops typing when they say so or
 * when their timeout passes on the server clock; both advance the stream so
 * long-polling syncs wake up.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { getOrCreate } from "./maps";

/** The longest timeout honoured, as Synapse caps it. */
export const MAX_TYPING_TIMEOUT_MS = 120_000;
/** The timeout when the client gives none. */
export const DEFAULT_TYPING_TIMEOUT_MS = 30_000;

export class TypingStore {
  /** roomId -> userId -> timer handle */
  private typing = new Map<string, Map<string, unknown>>();
  /** roomId -> stream position of the last change */
  private changedAt = new Map<string, number>();

  constructor(private readonly ctx: ServerContext) {}

  /** Starts (with a timeout) or stops typing for a user in a room. */
  set(roomId: string, userId: string, typing: boolean, timeoutMs: number): void {
    const users = getOrCreate(this.typing, roomId, () => new Map<string, unknown>());
    const wasTyping = users.has(userId);
    const timer = users.get(userId);
    if (timer !== undefined) this.ctx.clock.clearTimeout(timer);
    if (typing) {
      const ms = Math.min(Math.max(0, timeoutMs), MAX_TYPING_TIMEOUT_MS);
      users.set(
        userId,
        this.ctx.clock.setTimeout(() => this.expire(roomId, userId), ms),
      );
      if (!wasTyping) this.changedAt.set(roomId, this.ctx.notifier.advance());
    } else if (wasTyping) {
      users.delete(userId);
      this.changedAt.set(roomId, this.ctx.notifier.advance());
    }
  }

  private expire(roomId: string, userId: string): void {
    const users = this.typing.get(roomId);
    if (!users?.delete(userId)) return;
    this.changedAt.set(roomId, this.ctx.notifier.advance());
  }

  /** Users typing in the room now (a user who left stops typing at once). */
  typingIn(roomId: string): string[] {
    return [...(this.typing.get(roomId)?.keys() ?? [])].filter(
      (userId) => this.ctx.rooms.membershipOf(roomId, userId) === "join",
    );
  }

  /** The m.typing event when it changed after `since` (on 0: when anyone is typing). */
  ephemeralFor(roomId: string, since: number): JsonObject | undefined {
    const users = this.typingIn(roomId);
    const changed = this.changedAt.get(roomId) ?? 0;
    if (since === 0 ? users.length === 0 : changed <= since) return undefined;
    return { type: "m.typing", content: { user_ids: users } };
  }
}
