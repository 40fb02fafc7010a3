/**
 * MatrixRTC transport discovery (MSC4143): `GET /_matrix/client/unstable/
 * org.matrix.msc4143/rtc/transports` lists the LiveKit foci (their token
 * service URLs) clients should offer in their memberships, as current
 * Synapse does from its `matrix_rtc.transports` configuration. With none
 * configured the path is unknown (404 M_UNRECOGNIZED), like a Synapse with
 * the MSC turned off, and /versions does not list `org.matrix.msc4143`.
 */
import type { ServerContext } from "../core/context";
import { errors } from "../http/errors";
import type { Router } from "../http/router";

export const RTC_TRANSPORTS_FEATURE = "org.matrix.msc4143";

/** Sets /versions' flag from the configured list; called at start and whenever the list changes. */
export function syncRtcFeature(ctx: ServerContext): void {
  if (ctx.config.rtcTransports.length > 0) ctx.unstableFeatures.set(RTC_TRANSPORTS_FEATURE, true);
  else ctx.unstableFeatures.delete(RTC_TRANSPORTS_FEATURE);
}

export function registerRtcRoutes(router: Router, ctx: ServerContext): void {
  syncRtcFeature(ctx);
  router.add("GET", "/_matrix/client/unstable/org.matrix.msc4143", "/rtc/transports", () => {
    if (ctx.config.rtcTransports.length === 0) throw errors.unrecognized();
    return { rtc_transports: ctx.config.rtcTransports.map((t) => ({ ...t })) };
  });
}
