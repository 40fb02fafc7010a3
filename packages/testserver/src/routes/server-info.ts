/**
 * Server-level routes: the versions document and the client well-known.
 * Capabilities, auth metadata and the rest are in the domains that own them.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";
import { LEGACY_UNSTABLE_FEATURES, LEGACY_VERSIONS } from "../core/legacy";

/** The spec versions this server speaks, as current Synapse advertises them. */
export const SUPPORTED_VERSIONS = [
  "r0.6.1",
  "v1.1",
  "v1.2",
  "v1.3",
  "v1.4",
  "v1.5",
  "v1.6",
  "v1.7",
  "v1.8",
  "v1.9",
  "v1.10",
  "v1.11",
  "v1.12",
];

export function registerServerRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "GET",
    "",
    "/_matrix/client/versions",
    () =>
      ctx.config.profile === "legacy"
        ? { versions: LEGACY_VERSIONS, unstable_features: { ...LEGACY_UNSTABLE_FEATURES } }
        : { versions: SUPPORTED_VERSIONS, unstable_features: Object.fromEntries(ctx.unstableFeatures) },
    { auth: "none" },
  );
  router.add(
    "GET",
    "",
    "/.well-known/matrix/client",
    (req) => ({
      "m.homeserver": { base_url: req.baseUrl },
    }),
    { auth: "none" },
  );
}
