/**
 * Completing an encrypted room's member list before its room key is shared.
 * With lazy-loaded members (sync v2's filter, sliding sync's $LAZY) sync
 * names only the members the timeline needs, so a member who has not spoken
 * lately would get no room key and could not read the message. Before the
 * first share in a room, GET /rooms/{roomId}/members (current, without
 * leaves) fills in the members the room facts do not know yet; sync keeps
 * them current afterwards. Once per room per session; a failure is logged
 * and retried on the next send (the message still goes to the known members).
 */
import type { Logger } from "../util/logger";
import { members as fetchMembers } from "../api/timeline";
import type { HttpApi } from "../http/types";
import type { RoomCryptoState } from "./RoomCryptoState";

interface MemberEventLike {
  type: string;
  state_key: string;
  content: Record<string, unknown>;
}

function memberEventsOf(response: unknown): MemberEventLike[] {
  const chunk = (response as { chunk?: unknown } | null)?.chunk;
  if (!Array.isArray(chunk)) return [];
  const out: MemberEventLike[] = [];
  for (const item of chunk as unknown[]) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const e = item as Record<string, unknown>;
    const content = e["content"];
    if (e["type"] !== "m.room.member" || typeof e["state_key"] !== "string") continue;
    if (typeof content !== "object" || content === null || Array.isArray(content)) continue;
    out.push({
      type: "m.room.member",
      state_key: e["state_key"],
      content: content as Record<string, unknown>,
    });
  }
  return out;
}

/** Loads each encrypted room's full member list once, into the room facts. */
export class RoomMemberCompleter {
  private readonly loaded = new Map<string, Promise<void>>();

  constructor(
    private readonly http: HttpApi,
    private readonly rooms: RoomCryptoState,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  /** Resolves once the room's members are complete (or loading them failed, logged). */
  ensure(roomId: string): Promise<void> {
    let loading = this.loaded.get(roomId);
    if (loading === undefined) {
      loading = this.load(roomId);
      this.loaded.set(roomId, loading);
    }
    return loading;
  }

  private async load(roomId: string): Promise<void> {
    try {
      const events = memberEventsOf(await fetchMembers(this.http, roomId, { not_membership: "leave" }));
      // Sync's view is newer than or as new as this answer: only unknown members are added.
      const unknown = events.filter((e) => this.rooms.membership(roomId, e.state_key) === undefined);
      this.rooms.applyAll(roomId, unknown);
    } catch (error) {
      this.loaded.delete(roomId);
      this.logger.warn(`crypto: loading the members of ${roomId} failed; sharing with the known ones`, error);
    }
  }
}
