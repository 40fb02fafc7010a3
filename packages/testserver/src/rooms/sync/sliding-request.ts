/**
 * Simplified sliding sync (MSC4186): the request body, parsed defensively,
 * and the per-connection memory of which rooms a client already has.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { isJsonObject } from "../../http/types";

export interface RoomConfig {
  timelineLimit: number;
  requiredState: Array<[string, string]>;
}

export interface ListSpec extends RoomConfig {
  name: string;
  ranges: Array<[number, number]>;
  filters: JsonObject;
}

export interface SlidingRequest {
  connId: string;
  lists: ListSpec[];
  subscriptions: Map<string, RoomConfig>;
  extensions: JsonObject;
}

function roomConfig(raw: JsonObject, where: string): RoomConfig {
  const limit = raw["timeline_limit"] ?? 0;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0)
    throw errors.invalidParam(`${where}: timeline_limit must be a non-negative integer`);
  const rs = raw["required_state"] ?? [];
  if (
    !Array.isArray(rs) ||
    rs.some(
      (p) => !Array.isArray(p) || p.length !== 2 || typeof p[0] !== "string" || typeof p[1] !== "string",
    )
  )
    throw errors.invalidParam(`${where}: required_state must be a list of [type, state_key]`);
  return { timelineLimit: Math.min(limit, 1000), requiredState: rs as Array<[string, string]> };
}

export function parseSlidingRequest(body: unknown): SlidingRequest {
  if (!isJsonObject(body)) throw errors.badJson("Body must be a JSON object");
  const connId = body["conn_id"] ?? "";
  if (typeof connId !== "string") throw errors.invalidParam("conn_id must be a string");
  const listsRaw = body["lists"] ?? {};
  if (!isJsonObject(listsRaw)) throw errors.invalidParam("lists must be an object");
  const lists: ListSpec[] = [];
  for (const [name, raw] of Object.entries(listsRaw)) {
    if (!isJsonObject(raw)) throw errors.invalidParam(`list ${name} must be an object`);
    const ranges = raw["ranges"] ?? [[0, 20]];
    if (
      !Array.isArray(ranges) ||
      ranges.some(
        (r) =>
          !Array.isArray(r) ||
          r.length !== 2 ||
          !Number.isInteger(r[0]) ||
          !Number.isInteger(r[1]) ||
          r[0] < 0 ||
          r[1] < r[0],
      )
    )
      throw errors.invalidParam(`list ${name}: ranges must be [[start, end], ...]`);
    const filters = raw["filters"] ?? {};
    if (!isJsonObject(filters)) throw errors.invalidParam(`list ${name}: filters must be an object`);
    lists.push({
      name,
      ranges: ranges as Array<[number, number]>,
      filters,
      ...roomConfig(raw, `list ${name}`),
    });
  }
  const subsRaw = body["room_subscriptions"] ?? {};
  if (!isJsonObject(subsRaw)) throw errors.invalidParam("room_subscriptions must be an object");
  const subscriptions = new Map<string, RoomConfig>();
  for (const [roomId, raw] of Object.entries(subsRaw)) {
    if (!isJsonObject(raw)) throw errors.invalidParam(`subscription ${roomId} must be an object`);
    subscriptions.set(roomId, roomConfig(raw, `subscription ${roomId}`));
  }
  const extensions = body["extensions"] ?? {};
  if (!isJsonObject(extensions)) throw errors.invalidParam("extensions must be an object");
  return { connId, lists, subscriptions, extensions };
}

/** Rooms a connection was sent, with the stream position they were sent up to. */
export type Connection = Map<string, number>;

/**
 * What a connection had been sent as of each pos it was given (the newest
 * few): a client may send a pos again (its answer was lost, or not yet
 * processed when it went offline), and must then get the same rooms again.
 */
type ConnectionHistory = Map<string, Connection>;

/** Positions remembered per connection. */
const POSITIONS_KEPT = 16;

const connections = new WeakMap<ServerContext, Map<string, ConnectionHistory>>();

function historyOf(ctx: ServerContext, userId: string, deviceId: string, connId: string): ConnectionHistory {
  let all = connections.get(ctx);
  if (!all) {
    all = new Map();
    connections.set(ctx, all);
  }
  const key = `${userId}\u0000${deviceId}\u0000${connId}`;
  let history = all.get(key);
  if (!history) {
    history = new Map();
    all.set(key, history);
  }
  return history;
}

/**
 * The connection's memory as of `pos` (a copy to update): fresh when the
 * client sends no pos; a pos the connection never gave (or forgot) answers
 * M_UNKNOWN_POS so the client starts over.
 */
export function connectionFor(
  ctx: ServerContext,
  userId: string,
  deviceId: string,
  connId: string,
  pos: string | undefined,
): Connection {
  const history = historyOf(ctx, userId, deviceId, connId);
  if (pos === undefined) {
    history.clear();
    return new Map();
  }
  const known = history.get(pos);
  if (!known) throw new MatrixHttpError(400, "M_UNKNOWN_POS", "Unknown position");
  return new Map(known);
}

/** Records what the connection has been sent as of the pos just handed out. */
export function rememberConnection(
  ctx: ServerContext,
  userId: string,
  deviceId: string,
  connId: string,
  pos: string,
  conn: Connection,
): void {
  const history = historyOf(ctx, userId, deviceId, connId);
  history.delete(pos);
  history.set(pos, conn);
  for (const old of history.keys()) {
    if (history.size <= POSITIONS_KEPT) break;
    history.delete(old);
  }
}
