/**
 * Per-account server features: capabilities, OpenID tokens (and the
 * federation userinfo endpoint a widget backend checks them with), TURN
 * credentials, third-party lookups (none bridged), and auth_metadata when an
 * OpenID provider is configured.
 */
import { createHmac } from "node:crypto";
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V1, CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { isJsonObject } from "../../http/types";
// The rooms domain owns the room versions; capabilities advertise exactly what createRoom accepts.
import { DEFAULT_ROOM_VERSION, ROOM_VERSIONS } from "../../rooms/versions";
import { requester } from "../body";

/** Lifetime of TURN credentials in seconds. */
export const TURN_TTL_SECONDS = 86_400;
const MSC2965_PREFIX = "/_matrix/client/unstable/org.matrix.msc2965";

/** coturn's REST API credentials: username "expiry:userId", password base64(HMAC-SHA1(secret, username)). */
export function turnCredentials(
  secret: string,
  userId: string,
  nowMs: number,
): { username: string; password: string } {
  const expiry = Math.floor(nowMs / 1000) + TURN_TTL_SECONDS;
  const username = `${expiry}:${userId}`;
  return { username, password: createHmac("sha1", secret).update(username).digest("base64") };
}

export function registerServerFeatureRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "GET",
    CLIENT_V3,
    "/capabilities",
    () => ({
      capabilities: {
        "m.change_password": { enabled: true },
        "m.room_versions": {
          default: DEFAULT_ROOM_VERSION,
          available: Object.fromEntries(ROOM_VERSIONS.map((v) => [v, "stable"])),
        },
        "m.set_displayname": { enabled: true },
        "m.set_avatar_url": { enabled: true },
        "m.3pid_changes": { enabled: true },
        "m.get_login_token": { enabled: true },
        "m.profile_fields": { enabled: true },
      },
    }),
    { guests: true },
  );

  router.add("POST", CLIENT_V3, "/user/:userId/openid/request_token", (req) => {
    const who = requester(req);
    if (who.userId !== req.params["userId"]) throw errors.forbidden("Cannot request tokens for other users.");
    const { token, expiresInSec } = ctx.accounts.tokens.issueOpenId(who.userId);
    return {
      access_token: token,
      token_type: "Bearer",
      matrix_server_name: ctx.serverName,
      expires_in: expiresInSec,
    };
  });

  router.add(
    "GET",
    "",
    "/_matrix/federation/v1/openid/userinfo",
    (req) => {
      const token = req.query.get("access_token");
      if (token === null) throw errors.missingToken();
      const userId = ctx.accounts.tokens.openIdUser(token);
      if (!userId) throw new MatrixHttpError(401, "M_UNKNOWN_TOKEN", "Access Token unknown or expired");
      return { sub: userId };
    },
    { auth: "none" },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/voip/turnServer",
    (req) => {
      const who = requester(req);
      if (ctx.config.turnUris.length === 0) return {};
      const creds = turnCredentials(ctx.config.turnSecret, who.userId, ctx.clock.now());
      return { ...creds, uris: ctx.config.turnUris, ttl: TURN_TTL_SECONDS };
    },
    { guests: true },
  );

  router.add("GET", CLIENT_V3, "/thirdparty/protocols", () => ({}));
  router.add("GET", CLIENT_V3, "/thirdparty/protocol/:protocol", () => {
    throw errors.notFound("Protocol not found");
  });
  for (const kind of ["location", "user"]) {
    router.add("GET", CLIENT_V3, `/thirdparty/${kind}`, () => ({ body: [] }));
    router.add("GET", CLIENT_V3, `/thirdparty/${kind}/:protocol`, () => ({ body: [] }));
  }

  const authMetadata = async (): Promise<JsonObject> => {
    const issuer = ctx.config.oidcIssuer;
    if (issuer === undefined) throw errors.unrecognized(404);
    return await providerMetadata(issuer);
  };
  router.add("GET", CLIENT_V1, "/auth_metadata", authMetadata, { auth: "none" });
  router.add("GET", MSC2965_PREFIX, "/auth_metadata", authMetadata, { auth: "none" });
  router.add(
    "GET",
    MSC2965_PREFIX,
    "/auth_issuer",
    () => {
      if (ctx.config.oidcIssuer === undefined) throw errors.unrecognized(404);
      return { issuer: ctx.config.oidcIssuer };
    },
    { auth: "none" },
  );
}

/**
 * The provider's metadata: fetched from its discovery document when it
 * answers (as Synapse proxies its OAuth server), otherwise derived from the
 * issuer with oidc-provider's default paths.
 */
async function providerMetadata(issuer: string): Promise<JsonObject> {
  const base = issuer.endsWith("/") ? issuer : `${issuer}/`;
  let discovered: JsonObject = {};
  try {
    const res = await fetch(new URL(".well-known/openid-configuration", base), {
      signal: AbortSignal.timeout(2000),
    });
    if (res.ok) {
      const doc: unknown = await res.json();
      if (isJsonObject(doc) && typeof doc["issuer"] === "string") discovered = doc;
    }
  } catch {
    // Not reachable: describe it from the issuer alone.
  }
  const at = (path: string): string => new URL(path, base).toString();
  // The provider's own fields win; the defaults fill what the spec requires and it left out.
  const defaults: JsonObject = {
    issuer,
    authorization_endpoint: at("auth"),
    token_endpoint: at("token"),
    registration_endpoint: at("reg"),
    revocation_endpoint: at("token/revocation"),
    jwks_uri: at("jwks"),
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
  };
  return { ...defaults, ...discovered };
}
