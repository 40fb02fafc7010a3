/**
 * createRoom: the events a new room starts with, in the spec's order
 * (create, creator's join, power levels, canonical alias, preset rules,
 * initial_state, name, topic, invites), for room versions 1 to 12.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { errors, MatrixHttpError } from "../http/errors";
import { isJsonObject } from "../http/types";
import { memberContent, newEventId } from "./append";
import { defaultPowerLevels } from "./power";
import { Room } from "./room";
import type { RoomStore } from "./store";
import { DEFAULT_ROOM_VERSION, hasCreatorPower, isKnownVersion, redactsInContent } from "./versions";

const PRESETS: Record<string, { join_rule: string; history: string; guest: string }> = {
  private_chat: { join_rule: "invite", history: "shared", guest: "can_join" },
  trusted_private_chat: { join_rule: "invite", history: "shared", guest: "can_join" },
  public_chat: { join_rule: "public", history: "shared", guest: "forbidden" },
};

function optString(body: JsonObject, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw errors.badJson(`${key} must be a string`);
  return v;
}

function optObject(body: JsonObject, key: string): JsonObject | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (!isJsonObject(v)) throw errors.badJson(`${key} must be an object`);
  return v;
}

function optStrings(body: JsonObject, key: string): string[] {
  const v = body[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
    throw errors.badJson(`${key} must be a list of strings`);
  return v as string[];
}

/** Creates a room for `creator` from a createRoom body; returns the room id. */
export function createRoom(ctx: ServerContext, store: RoomStore, creator: string, rawBody: unknown): Room {
  if (!isJsonObject(rawBody)) throw errors.badJson("Body must be a JSON object");
  const body = rawBody;
  const version = optString(body, "room_version") ?? DEFAULT_ROOM_VERSION;
  if (!isKnownVersion(version))
    throw new MatrixHttpError(
      400,
      "M_UNSUPPORTED_ROOM_VERSION",
      "Your homeserver does not support the features required to interact with this room",
    );
  const visibility = optString(body, "visibility") ?? "private";
  if (visibility !== "public" && visibility !== "private")
    throw errors.badJson("visibility must be public or private");
  const presetName = optString(body, "preset") ?? (visibility === "public" ? "public_chat" : "private_chat");
  const preset = PRESETS[presetName];
  if (!preset) throw errors.badJson(`Unknown preset ${presetName}`);
  const name = optString(body, "name");
  const topic = optString(body, "topic");
  const aliasName = optString(body, "room_alias_name");
  const invites = optStrings(body, "invite");
  const isDirect = body["is_direct"] === true;
  const creation = optObject(body, "creation_content") ?? {};
  const plOverride = optObject(body, "power_level_content_override");
  const initialRaw = body["initial_state"] ?? [];
  if (!Array.isArray(initialRaw)) throw errors.badJson("initial_state must be a list");
  const initial = initialRaw.map((e) => {
    if (!isJsonObject(e) || typeof e["type"] !== "string" || !isJsonObject(e["content"]))
      throw errors.badJson("initial_state entries need type and content");
    const key = e["state_key"] ?? "";
    if (typeof key !== "string") throw errors.badJson("state_key must be a string");
    return { type: e["type"], state_key: key, content: e["content"] };
  });
  for (const u of invites)
    if (!u.startsWith("@") || !u.includes(":")) throw errors.invalidParam(`Invalid user id ${u}`);

  let alias: string | undefined;
  if (aliasName !== undefined) {
    if (aliasName.includes(":") || aliasName.includes("#") || /\s/.test(aliasName) || aliasName.length === 0)
      throw errors.invalidParam("Invalid characters in room alias");
    alias = `#${aliasName}:${ctx.serverName}`;
    if (store.aliases.has(alias)) throw new MatrixHttpError(400, "M_ROOM_IN_USE", "Room alias already taken");
  }

  const v12 = hasCreatorPower(version);
  const createContent: JsonObject = { ...creation, room_version: version };
  if (!redactsInContent(version)) createContent["creator"] = creator;
  else delete createContent["creator"];
  if (v12) {
    const extra = createContent["additional_creators"];
    if (
      extra !== undefined &&
      (!Array.isArray(extra) || extra.some((u) => typeof u !== "string" || !u.startsWith("@")))
    )
      throw errors.badJson("additional_creators must be a list of user ids");
  }
  const createId = newEventId(ctx, version);
  const roomId = v12 ? `!${createId.slice(1)}` : ctx.ids.roomId(ctx.serverName);
  const room = new Room(roomId, version);
  store.rooms.set(roomId, room);
  const send = (type: string, content: JsonObject, key?: string): void => {
    store.append(
      room,
      key === undefined
        ? { type, sender: creator, content }
        : { type, sender: creator, content, state_key: key },
      {
        ...(type === "m.room.create" ? { eventId: createId } : {}),
      },
    );
  };
  try {
    send("m.room.create", createContent, "");
    send("m.room.member", memberContent(ctx, creator, "join"), creator);
    const pl = defaultPowerLevels(creator, v12);
    if (presetName === "trusted_private_chat") {
      const users = pl["users"] as JsonObject;
      for (const u of invites) if (u !== creator) users[u] = 100;
    }
    send("m.room.power_levels", { ...pl, ...(plOverride ?? {}) }, "");
    if (alias) {
      store.aliases.set(alias, { roomId, creator });
      send("m.room.canonical_alias", { alias }, "");
    }
    send("m.room.join_rules", { join_rule: preset.join_rule }, "");
    send("m.room.history_visibility", { history_visibility: preset.history }, "");
    send("m.room.guest_access", { guest_access: preset.guest }, "");
    for (const e of initial) send(e.type, e.content, e.state_key);
    if (name !== undefined) send("m.room.name", { name }, "");
    if (topic !== undefined) send("m.room.topic", { topic }, "");
    for (const u of invites) {
      send("m.room.member", memberContent(ctx, u, "invite", isDirect ? { is_direct: true } : {}), u);
    }
  } catch (err) {
    // A refused initial event leaves no half-made room visible through the API.
    store.rooms.delete(roomId);
    if (alias) store.aliases.delete(alias);
    if (err instanceof MatrixHttpError && err.status === 403) throw errors.badJson(err.message);
    throw err;
  }
  if (visibility === "public") room.directory = "public";
  return room;
}
