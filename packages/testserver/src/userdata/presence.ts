/**
 * Presence per user: state, status message and last activity. A change of
 * state or message advances the stream; mere activity (a sync with
 * set_presence=online) does not, or every sync would wake every long-poll.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import type { PresenceState, PresenceStatus } from "./wire-types";

/** A user counts as currently active this long after their last activity, as in Synapse. */
export const CURRENTLY_ACTIVE_MS = 60_000;

export const PRESENCE_STATES: readonly PresenceState[] = ["online", "offline", "unavailable"];

interface Entry {
  presence: PresenceState;
  statusMsg?: string;
  lastActive: number;
  stream: number;
}

export class PresenceStore {
  private users = new Map<string, Entry>();

  constructor(private readonly ctx: ServerContext) {}

  /** Sets presence (PUT /presence/{userId}/status). `statusMsg` undefined keeps the old one. */
  set(userId: string, presence: PresenceState, statusMsg?: string | null): void {
    const now = this.ctx.clock.now();
    const old = this.users.get(userId);
    const msg = statusMsg === undefined ? old?.statusMsg : (statusMsg ?? undefined);
    const entry: Entry = {
      presence,
      lastActive: presence === "online" || !old ? now : old.lastActive,
      stream: this.ctx.notifier.advance(),
    };
    if (msg !== undefined) entry.statusMsg = msg;
    this.users.set(userId, entry);
  }

  /** A sync's set_presence: "offline" changes nothing; others set the state and mark activity. */
  fromSync(userId: string, presence: string): void {
    if (presence !== "online" && presence !== "unavailable") return;
    const old = this.users.get(userId);
    if (old?.presence === presence) {
      if (presence === "online") old.lastActive = this.ctx.clock.now();
      return;
    }
    this.set(userId, presence);
  }

  /** The status as GET /presence/{userId}/status answers it (offline when never set). */
  status(userId: string): PresenceStatus {
    const entry = this.users.get(userId);
    if (!entry) return { presence: "offline" };
    const ago = Math.max(0, this.ctx.clock.now() - entry.lastActive);
    const out: PresenceStatus = {
      presence: entry.presence,
      last_active_ago: ago,
      currently_active: entry.presence === "online" && ago < CURRENTLY_ACTIVE_MS,
    };
    if (entry.statusMsg !== undefined) out.status_msg = entry.statusMsg;
    return out;
  }

  /** m.presence events of these users changed after `since` (all on 0). */
  since(since: number, users: Iterable<string>, profile: (userId: string) => JsonObject): JsonObject[] {
    const out: JsonObject[] = [];
    const seen = new Set<string>();
    for (const userId of users) {
      if (seen.has(userId)) continue;
      seen.add(userId);
      const entry = this.users.get(userId);
      if (!entry || entry.stream <= since) continue;
      out.push({
        type: "m.presence",
        sender: userId,
        content: { ...profile(userId), ...this.status(userId) },
      });
    }
    return out;
  }
}
