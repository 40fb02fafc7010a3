/**
 * GET /sync (since tokens, long-poll, filters, full_state, set_presence,
 * the MSC4222 state-after flag) and GET /events for peeking.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { legacyFilterError } from "../../core/legacy";
import { errors, MatrixHttpError } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { isJsonObject } from "../../http/types";
import { parseSyncFilter, readFilterParam } from "../filter";
import { boolQuery, intQuery, requester } from "../routes/util";
import { parseToken } from "../tokens";
import { computeSync } from "./compute";
import type { SyncRequestInfo } from "./joined";
import { LazyMemberCache } from "./lazy-cache";
import { registerPeekRoutes } from "./peek";
import { registerSlidingSyncRoutes } from "./sliding";

/** The longest long-poll the server holds (clients ask for 30 s typically). */
export const MAX_SYNC_TIMEOUT_MS = 5 * 60_000;

const PRESENCE = new Set(["online", "offline", "unavailable"]);

export function registerSyncRoutes(router: Router, ctx: ServerContext): void {
  ctx.unstableFeatures.set("org.matrix.msc4222", true);
  router.add("GET", CLIENT_V3, "/sync", (req) => sync(ctx, req), { guests: true });
  registerPeekRoutes(router, ctx);
  registerSlidingSyncRoutes(router, ctx);
}

async function sync(ctx: ServerContext, req: HandlerRequest): Promise<JsonObject> {
  const me = requester(req);
  const sinceRaw = req.query.get("since");
  const since = sinceRaw === null || sinceRaw === "" ? undefined : parseToken(sinceRaw, "since");
  if (since !== undefined && since > ctx.notifier.position) throw errors.invalidParam("Invalid since token");
  const rawFilter = readFilterParam(req.query.get("filter"), (id) => ctx.userData.filter(me.userId, id));
  if (ctx.config.profile === "legacy" && isJsonObject(rawFilter)) {
    const refusal = legacyFilterError(rawFilter);
    if (refusal !== undefined) throw new MatrixHttpError(400, "M_UNKNOWN", refusal);
  }
  const filter = parseSyncFilter(rawFilter ?? {});
  const timeout = intQuery(req, "timeout", 0, 0, MAX_SYNC_TIMEOUT_MS);
  const fullState = boolQuery(req, "full_state");
  // The legacy profile (Synapse 1.67) does not know the parameter and ignores it.
  const useStateAfter =
    ctx.config.profile !== "legacy" &&
    (boolQuery(req, "use_state_after") || boolQuery(req, "org.matrix.msc4222.use_state_after"));
  const setPresence = req.query.get("set_presence");
  if (setPresence !== null) {
    if (!PRESENCE.has(setPresence))
      throw errors.invalidParam("set_presence must be online, offline or unavailable");
    ctx.userData.setPresenceFromSync(me.userId, setPresence);
  }
  const resetLazy = since === undefined;
  const deadline = Date.now() + timeout;
  let first = true;
  for (;;) {
    const info: SyncRequestInfo = {
      userId: me.userId,
      deviceId: me.deviceId,
      now: ctx.notifier.position,
      filter,
      fullState,
      useStateAfter,
      lazy: new LazyMemberCache(ctx, me.userId, me.deviceId, resetLazy && first),
      ...(since !== undefined ? { since } : {}),
    };
    first = false;
    const result = computeSync(ctx, info);
    const remaining = deadline - Date.now();
    // An initial sync, full_state, or anything new answers at once.
    if (since === undefined || fullState || result.hasNews || remaining <= 0 || req.signal.aborted)
      return result.body;
    const woken = await ctx.notifier.waitForChange(remaining, req.signal);
    if (!woken && (req.signal.aborted || deadline - Date.now() <= 0)) {
      return computeSync(ctx, { ...info, now: ctx.notifier.position }).body;
    }
  }
}
