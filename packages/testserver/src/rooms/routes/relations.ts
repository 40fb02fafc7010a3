/**
 * Relations and threads: GET /relations/{eventId}[/{relType}[/{eventType}]]
 * with dir, from, to, limit and recurse, and GET /threads with include all
 * or participated. Bundled summaries live in format.ts.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V1 } from "../../http/router";
import type { HandlerRequest, Requester } from "../../http/types";
import { formatEvent, threadSummary } from "../format";
import { paginate } from "../paginate";
import type { Room } from "../room";
import { relatesTo } from "../room";
import { encodeToken, parseToken } from "../tokens";
import { canSee } from "../visibility";
import { boolQuery, intQuery, requester } from "./util";

/** How deep `recurse` follows relations of relations (as Synapse). */
export const MAX_RECURSION_DEPTH = 3;

function visibleParent(
  ctx: ServerContext,
  req: HandlerRequest,
  me: Requester,
): { room: Room; parent: StoredEvent } {
  const room = ctx.rooms.require(req.params["roomId"] ?? "");
  const parent = room.byId.get(req.params["eventId"] ?? "");
  if (!parent || !canSee(room, me.userId, parent)) throw errors.notFound("Event not found.");
  return { room, parent };
}

/** Ids of the events relating to `rootId`, directly or (recursing) through relations of relations. */
function related(room: Room, rootId: string, relType: string | undefined, depth: number): Set<string> {
  const out = new Set<string>();
  let frontier = [rootId];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const child of room.children.get(id) ?? []) {
        // A redaction strips m.relates_to, so a redacted child no longer relates (as Synapse).
        if (child.redactedBy) continue;
        if (relType !== undefined && relatesTo(child.content)?.relType !== relType) continue;
        if (out.has(child.event_id)) continue;
        out.add(child.event_id);
        next.push(child.event_id);
      }
    }
    frontier = next;
  }
  return out;
}

export function registerRelationsRoutes(router: Router, ctx: ServerContext): void {
  const relations = (req: HandlerRequest): JsonObject => {
    const me = requester(req);
    const { room, parent } = visibleParent(ctx, req, me);
    const relType = req.params["relType"];
    const eventType = req.params["eventType"];
    const dir = req.query.get("dir") ?? "b";
    if (dir !== "b" && dir !== "f") throw errors.invalidParam("dir must be b or f");
    const recurse = boolQuery(req, "recurse") || boolQuery(req, "org.matrix.msc3981.recurse");
    const limit = intQuery(req, "limit", 5, 1, 1000);
    const ids = related(room, parent.event_id, relType, recurse ? MAX_RECURSION_DEPTH : 1);
    const fromRaw = req.query.get("from");
    const toRaw = req.query.get("to");
    const from = fromRaw ? parseToken(fromRaw) : dir === "b" ? room.lastStream : parent.stream;
    const page = paginate(room, me.userId, {
      from,
      dir,
      limit,
      ...(toRaw ? { to: parseToken(toRaw, "to") } : {}),
      where: (ev) => ids.has(ev.event_id) && (eventType === undefined || ev.type === eventType),
    });
    const out: JsonObject = { chunk: page.events.map((e) => formatEvent(ctx, room, e, me)) };
    if (page.next !== undefined && page.events.length === limit) out["next_batch"] = encodeToken(page.next);
    if (fromRaw) out["prev_batch"] = fromRaw;
    if (recurse) out["recursion_depth"] = MAX_RECURSION_DEPTH;
    return out;
  };
  router.add("GET", CLIENT_V1, "/rooms/:roomId/relations/:eventId", relations, { guests: true });
  router.add("GET", CLIENT_V1, "/rooms/:roomId/relations/:eventId/:relType", relations, { guests: true });
  router.add("GET", CLIENT_V1, "/rooms/:roomId/relations/:eventId/:relType/:eventType", relations, {
    guests: true,
  });

  router.add(
    "GET",
    CLIENT_V1,
    "/rooms/:roomId/threads",
    (req) => {
      const me = requester(req);
      const room = ctx.rooms.require(req.params["roomId"] ?? "");
      const include = req.query.get("include") ?? "all";
      if (include !== "all" && include !== "participated")
        throw errors.invalidParam("include must be all or participated");
      const limit = intQuery(req, "limit", 5, 1, 100);
      const fromRaw = req.query.get("from");
      const from = fromRaw ? parseToken(fromRaw) : Number.POSITIVE_INFINITY;
      const threads: Array<{ root: StoredEvent; latest: number }> = [];
      for (const [rootId, children] of room.children) {
        const root = room.byId.get(rootId);
        if (!root || !canSee(room, me.userId, root)) continue;
        const replies = children.filter(
          (c) => relatesTo(c.content)?.relType === "m.thread" && !c.redactedBy && canSee(room, me.userId, c),
        );
        const latest = replies[replies.length - 1];
        if (!latest || latest.stream > from) continue;
        if (include === "participated" && !threadSummary(ctx, room, root, me)?.["current_user_participated"])
          continue;
        threads.push({ root, latest: latest.stream });
      }
      threads.sort((a, b) => b.latest - a.latest);
      const page = threads.slice(0, limit);
      const out: JsonObject = { chunk: page.map((t) => formatEvent(ctx, room, t.root, me)) };
      const last = page[page.length - 1];
      if (threads.length > limit && last) out["next_batch"] = encodeToken(last.latest - 1);
      return out;
    },
    { guests: true },
  );
}
