/**
 * The room list's "+" actions: create a room (name, topic, public or
 * private, encryption on by default for private rooms, an alias checked for
 * availability), start a DM (user directory search; an existing DM is
 * reused; m.direct updated; encrypted), join by alias, id or link (via
 * servers), knock with a reason, and accept or decline invites. The Matrix
 * work goes through the SDK client's services; this class only composes them.
 */
import {
  addDirectRoom,
  DIRECT_EVENT_TYPE,
  MatrixError,
  parseDirect,
  parseJoinTarget,
  withCallMemberPowerLevel,
} from "../../sdk";
import type { Client, CreateRoomRequest, JoinTarget } from "../../sdk";
import { t } from "../../i18n/i18n";
import { DirectoryViewModel } from "./DirectoryViewModel";
import { UserFacingError } from "../errors";

/** The parts of the SDK client the room actions use. */
export type ActionsClient = Pick<
  Client,
  "userId" | "http" | "rooms" | "moderation" | "directory" | "accountData"
>;

/** The algorithm new encrypted rooms use. */
export const MEGOLM = "m.megolm.v1.aes-sha2";

/** The create room dialog's choices. */
export interface CreateRoomOptions {
  name: string;
  topic?: string;
  /** Public: anyone can join and it is listed in the directory; private: invite only. */
  isPublic: boolean;
  /** Defaults to on for private rooms, off for public ones. */
  encrypted?: boolean;
  /** The alias localpart ("lounge" for #lounge:server). */
  aliasLocalpart?: string;
}

/** Whether an alias is free: checked against the server's directory. */
export type AliasCheck = "empty" | "invalid" | "available" | "taken" | "unknown";

/** A user from the directory search. */
export interface UserResult {
  userId: string;
  displayName?: string;
  avatarUrl?: string;
}

/** Why the user is no longer in a room someone else removed them from. */
export interface RemovalNotice {
  kind: "ban" | "kick";
  by?: string;
  reason?: string;
}

/** What the invite view shows about an invite. */
export interface InviteInfo {
  roomId: string;
  name: string;
  inviter?: string;
  inviterName?: string;
  isDirect: boolean;
  topic?: string;
}

const LOCALPART = /^[a-z0-9._=\-/+]+$/i;

export class RoomActionsViewModel {
  constructor(private readonly client: ActionsClient) {}

  /** The server part of the user's id (where new aliases live). */
  get serverName(): string {
    return this.client.userId.slice(this.client.userId.indexOf(":") + 1);
  }

  /** The full alias of a localpart on the user's server. */
  aliasOf(localpart: string): string {
    return `#${localpart.trim()}:${this.serverName}`;
  }

  /** Whether `#localpart:server` is free (a 404 from the directory means it is). */
  async checkAlias(localpart: string): Promise<AliasCheck> {
    const part = localpart.trim();
    if (part === "") return "empty";
    if (!LOCALPART.test(part) || part.length > 200) return "invalid";
    try {
      await this.client.directory.resolveAlias(this.aliasOf(part));
      return "taken";
    } catch (error) {
      if (error instanceof MatrixError && error.errcode === "M_NOT_FOUND") return "available";
      return "unknown";
    }
  }

  /** Creates a room; resolves with its id. */
  async createRoom(options: CreateRoomOptions): Promise<string> {
    const encrypted = options.encrypted ?? !options.isPublic;
    const alias = options.aliasLocalpart?.trim();
    const body: CreateRoomRequest = {
      name: options.name.trim(),
      preset: options.isPublic ? "public_chat" : "private_chat",
      visibility: options.isPublic ? "public" : "private",
      ...(options.topic !== undefined && options.topic.trim() !== "" ? { topic: options.topic.trim() } : {}),
      ...(alias !== undefined && alias !== "" ? { room_alias_name: alias } : {}),
      ...(encrypted
        ? { initial_state: [{ type: "m.room.encryption", state_key: "", content: { algorithm: MEGOLM } }] }
        : {}),
    };
    // Members join group calls with their own call member state: power level 0 for it.
    // Resolves once sync shows it encrypted, so a first message is never sent in the clear.
    return this.client.moderation.create(withCallMemberPowerLevel(body));
  }

  /** Searches the user directory (at most 20). */
  async searchUsers(term: string): Promise<UserResult[]> {
    const text = term.trim();
    if (text === "") return [];
    const res = await this.client.directory.searchUsers(text, 20);
    const out: UserResult[] = res.results.map((r) => ({
      userId: r.user_id,
      ...(r.display_name !== undefined && r.display_name !== null ? { displayName: r.display_name } : {}),
      ...(r.avatar_url !== undefined && r.avatar_url !== null ? { avatarUrl: r.avatar_url } : {}),
    }));
    // A full user id typed in is offered even when the directory does not list it.
    if (/^@[^:\s]+:\S+$/.test(text) && !out.some((r) => r.userId === text)) out.unshift({ userId: text });
    return out.filter((r) => r.userId !== this.client.userId);
  }

  /** The DM with `userId` the user is in (joined or invited), from m.direct. */
  existingDm(userId: string): string | undefined {
    const direct = parseDirect(this.client.rooms.accountData(DIRECT_EVENT_TYPE)?.content);
    for (const roomId of direct.get(userId) ?? []) {
      const room = this.client.rooms.find(roomId)?.getSnapshot();
      if (room === undefined || (room.category !== "join" && room.category !== "invite")) continue;
      // Their member event may not be loaded yet (lazy-loaded members): only a known departure rules the room out.
      const them = room.state.membershipOf(userId);
      if (them !== "leave" && them !== "ban") return roomId;
    }
    return undefined;
  }

  /** Opens the DM with `userId`: the existing one, or a new encrypted room recorded in m.direct. */
  async startDm(userId: string): Promise<{ roomId: string; created: boolean }> {
    const existing = this.existingDm(userId);
    if (existing !== undefined) return { roomId: existing, created: false };
    const roomId = await this.client.moderation.create(
      withCallMemberPowerLevel({
        preset: "trusted_private_chat",
        is_direct: true,
        invite: [userId],
        initial_state: [{ type: "m.room.encryption", state_key: "", content: { algorithm: MEGOLM } }],
      }),
    );
    await this.recordDm(userId, roomId);
    return { roomId, created: true };
  }

  /** Parses what the user typed into the join box; null when it names no room. */
  parse(input: string): JoinTarget | null {
    return parseJoinTarget(input);
  }

  /** Joins a room by id, alias or link; resolves with the room id. */
  async join(input: string | JoinTarget): Promise<string> {
    const target = typeof input === "string" ? parseJoinTarget(input) : input;
    if (target === null) throw new UserFacingError(t("rooms", "join_invalid"));
    return this.client.moderation.join(
      target.roomIdOrAlias,
      target.via.length > 0 ? { via: target.via } : {},
    );
  }

  /** Asks to join a knock room, with an optional reason. */
  async knock(input: string | JoinTarget, reason?: string): Promise<string> {
    const target = typeof input === "string" ? parseJoinTarget(input) : input;
    if (target === null) throw new UserFacingError(t("rooms", "join_invalid"));
    const why = reason?.trim();
    return this.client.moderation.knock(
      target.roomIdOrAlias,
      why !== undefined && why !== "" ? why : undefined,
      target.via.length > 0 ? target.via : undefined,
    );
  }

  /** A room's summary before joining (name, topic, members, join rule). */
  preview(target: JoinTarget): ReturnType<ActionsClient["directory"]["roomSummary"]> {
    return this.client.directory.roomSummary(
      target.roomIdOrAlias,
      target.via.length > 0 ? target.via : undefined,
    );
  }

  /** The invite view's facts: the room, who invited the user, whether it is a DM. */
  inviteInfo(roomId: string): InviteInfo | undefined {
    const room = this.client.rooms.find(roomId)?.getSnapshot();
    if (room === undefined || room.category !== "invite") return undefined;
    const mine = room.state.content("m.room.member", this.client.userId);
    const inviter = room.inviter;
    const inviterName = inviter !== undefined ? room.members.get(inviter)?.name : undefined;
    const topic = room.state.content("m.room.topic")?.["topic"];
    return {
      roomId,
      name: room.name.name,
      isDirect: mine?.["is_direct"] === true,
      ...(inviter !== undefined ? { inviter } : {}),
      ...(inviterName !== undefined ? { inviterName } : {}),
      ...(typeof topic === "string" ? { topic } : {}),
    };
  }

  /** Whether the user was banned or kicked from a room they have left (null when they left themselves). */
  removal(roomId: string): RemovalNotice | null {
    const room = this.client.rooms.find(roomId)?.getSnapshot();
    if (room === undefined || room.category !== "leave") return null;
    const event = room.state.get("m.room.member", this.client.userId);
    const content = event?.content as { membership?: unknown; reason?: unknown } | undefined;
    const sender = (event as { sender?: unknown } | undefined)?.sender;
    const kind = content?.membership === "ban" ? "ban" : sender !== this.client.userId ? "kick" : null;
    if (kind === null || content?.membership === undefined) return null;
    const by = typeof sender === "string" ? (room.members.get(sender)?.name ?? sender) : undefined;
    return {
      kind,
      ...(by !== undefined ? { by } : {}),
      ...(typeof content.reason === "string" && content.reason !== "" ? { reason: content.reason } : {}),
    };
  }

  /** Accepts an invite (a DM invite is recorded in m.direct). */
  async acceptInvite(roomId: string): Promise<void> {
    const info = this.inviteInfo(roomId);
    await this.client.moderation.join(roomId);
    if (info?.isDirect === true && info.inviter !== undefined) await this.recordDm(info.inviter, roomId);
  }

  /** Declines an invite. */
  async declineInvite(roomId: string): Promise<void> {
    await this.client.moderation.leave(roomId);
  }

  /** A fresh public room directory browser. */
  openDirectory(): DirectoryViewModel {
    return new DirectoryViewModel(this.client.directory, this);
  }

  private async recordDm(userId: string, roomId: string): Promise<void> {
    const current =
      this.client.rooms.accountData(DIRECT_EVENT_TYPE)?.content ??
      (await this.client.accountData.get(DIRECT_EVENT_TYPE).catch(() => null));
    await this.client.accountData.set(DIRECT_EVENT_TYPE, addDirectRoom(current ?? {}, userId, roomId));
  }
}
