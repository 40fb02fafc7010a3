/**
 * Runs the slash commands that act through the SDK client rather than send
 * a message: room state (/topic, /roomname, /myroomnick, /myroomavatar),
 * membership and moderation (/invite, /join, /part, /leave, /kick, /ban,
 * /unban, /op, /deop), the account (/nick, /myavatar, /ignore, /unignore),
 * DMs (/msg, /query, /converttodm, /converttoroom), /whois, calls
 * (/holdcall, /unholdcall), /upgraderoom and /discardsession.
 *
 * Permission checks are the SDK's: state events go through StateService
 * and moderation through ModerationService, which refuse before any
 * request when the power levels do not allow it, with their own messages
 * ("Your power level in … does not allow you to …"); the server's own
 * refusals come back as its MatrixError. The composer shows either through
 * describeFailure, so every command speaks the same words.
 */
import { addDirectRoom, DIRECT_EVENT_TYPE, parseIgnoredUsers, removeDirectRoom } from "../../sdk";
import type { Client, VoipService } from "../../sdk";
import { t } from "../../i18n/i18n";
import { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";
import type { ActionName } from "./commands";
import { CommandFailure } from "./commands";

/** What the commands act through. */
export type CommandClient = Pick<
  Client,
  "userId" | "http" | "rooms" | "state" | "moderation" | "profile" | "accountData" | "directory" | "sendQueue"
> & {
  readonly crypto?: Pick<Client["crypto"], "machine">;
  readonly voip?: () => Promise<Pick<VoipService, "calls">>;
};

/** A command's outcome: a room to open, and a line to tell the user. */
export interface CommandOutcome {
  readonly openRoom?: string;
  readonly notice?: string;
}

const IGNORED = "m.ignored_user_list";

// Defined beside the parser (loaded with the composer), so the composer can recognise it without loading this module.
export { CommandFailure } from "./commands";

/** Runs one action command in `roomId`. */
export async function runAction(
  command: { name: ActionName; userId?: string; text: string; level?: number },
  roomId: string,
  client: CommandClient,
): Promise<CommandOutcome> {
  const { name, text } = command;
  const userId = command.userId ?? "";
  const reason = text !== "" ? text : undefined;
  switch (name) {
    case "topic":
      await client.state.setState(roomId, "m.room.topic", "", { topic: text });
      return {};
    case "roomname":
      await client.state.setState(roomId, "m.room.name", "", { name: text });
      return {};
    case "myroomnick":
    case "myroomavatar": {
      const mine = client.rooms.get(roomId).getSnapshot().state.content("m.room.member", client.userId) ?? {};
      const field = name === "myroomnick" ? "displayname" : "avatar_url";
      await client.state.setState(roomId, "m.room.member", client.userId, {
        ...mine,
        membership: "join",
        [field]: text,
      });
      return {};
    }
    case "invite":
      await client.moderation.invite(roomId, userId, reason);
      return {};
    case "join":
      return { openRoom: await client.moderation.join(text) };
    case "part":
      await client.moderation.leave(text === "" ? roomId : resolveRoom(client, text));
      return {};
    case "leave":
      await client.moderation.leave(roomId, reason);
      return {};
    case "kick":
    case "remove":
      await client.moderation.kick(roomId, userId, reason);
      return {};
    case "ban":
      await client.moderation.ban(roomId, userId, reason);
      return {};
    case "unban":
      await client.moderation.unban(roomId, userId, reason);
      return {};
    case "op":
      await client.moderation.setPowerLevel(roomId, userId, command.level ?? 50);
      return {};
    case "deop":
      await client.moderation.setPowerLevel(roomId, userId, null);
      return {};
    case "nick":
      await client.profile.setDisplayName(text);
      return {};
    case "myavatar":
      await client.profile.setAvatarUrl(text);
      return {};
    case "ignore":
    case "unignore":
      return setIgnored(client, userId, name === "ignore");
    case "whois":
      return { notice: whois(client, roomId, userId) };
    case "msg":
    case "query": {
      const { roomId: dm } = await new RoomActionsViewModel(client).startDm(userId);
      if (name === "msg" && text !== "")
        client.sendQueue.send(dm, "m.room.message", { msgtype: "m.text", body: text });
      return { openRoom: dm };
    }
    case "converttodm":
    case "converttoroom":
      return convert(client, roomId, name === "converttodm");
    case "holdcall":
    case "unholdcall": {
      const voip = await client.voip?.();
      const call = voip?.calls.getSnapshot().find((c) => c.roomId === roomId);
      if (call === undefined) throw new CommandFailure(t("composer", "noCall"));
      call.media.setRemoteOnHold(name === "holdcall");
      return {};
    }
    case "upgraderoom": {
      const next = await client.moderation.upgrade(roomId, text);
      return { openRoom: next, notice: t("composer", "upgraded", { version: text }) };
    }
    case "discardsession": {
      if (client.crypto === undefined || !client.rooms.get(roomId).getSnapshot().isEncrypted)
        throw new CommandFailure(t("composer", "notEncrypted"));
      await (await client.crypto.machine()).rotateRoomKey(roomId);
      return { notice: t("composer", "sessionDiscarded") };
    }
  }
}

/** A room by id, or by an alias one of the user's rooms has ('Unknown room' otherwise). */
function resolveRoom(client: CommandClient, target: string): string {
  if (target.startsWith("!")) return target;
  for (const room of client.rooms.all.getSnapshot().values()) {
    const state = room.getSnapshot().state;
    const alias = state.content("m.room.canonical_alias");
    const alt = alias?.["alt_aliases"];
    if (alias?.["alias"] === target || (Array.isArray(alt) && alt.includes(target))) return room.roomId;
  }
  throw new CommandFailure("Unknown room");
}

async function setIgnored(client: CommandClient, userId: string, ignore: boolean): Promise<CommandOutcome> {
  const current = parseIgnoredUsers(await client.accountData.get(IGNORED));
  if (ignore) current.add(userId);
  else current.delete(userId);
  await client.accountData.set(IGNORED, {
    ignored_users: Object.fromEntries([...current].map((id) => [id, {}])),
  });
  return { notice: t("composer", ignore ? "ignored" : "unignored", { userId }) };
}

function whois(client: CommandClient, roomId: string, userId: string): string {
  const snap = client.rooms.get(roomId).getSnapshot();
  const member = snap.members.get(userId);
  return t("composer", "whois", {
    userId,
    name: member?.name ?? userId,
    membership: snap.state.membershipOf(userId) ?? "none",
    level: snap.state.powerLevels.userLevel(userId),
  });
}

/** /converttodm marks the room a DM with its other member; /converttoroom unmarks it (m.direct). */
async function convert(client: CommandClient, roomId: string, toDm: boolean): Promise<CommandOutcome> {
  const current = (await client.accountData.get(DIRECT_EVENT_TYPE)) ?? {};
  if (!toDm) {
    await client.accountData.set(DIRECT_EVENT_TYPE, removeDirectRoom(current, roomId));
    return { notice: t("composer", "convertedToRoom") };
  }
  const snap = client.rooms.get(roomId).getSnapshot();
  const other = [...snap.members.keys()].find(
    (id) => id !== client.userId && ["join", "invite"].includes(snap.state.membershipOf(id) ?? ""),
  );
  if (other === undefined) throw new CommandFailure(t("composer", "noOtherMember"));
  await client.accountData.set(DIRECT_EVENT_TYPE, addDirectRoom(current, other, roomId));
  return { notice: t("composer", "convertedToDm", { userId: other }) };
}
