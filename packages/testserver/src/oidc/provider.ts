/**
 * A real OpenID provider for tests and the local demo: oidc-provider on
 * 127.0.0.1 with dynamic registration, PKCE (S256 required), refresh
 * tokens, revocation and user info, its own login and consent pages
 * (interactions.ts) over the test homeserver's users, and in-memory
 * storage (adapter.ts). It answers `verifyAccessToken` synchronously, which
 * is the hook the homeserver uses to accept the provider's access tokens.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { MemoryOidcStorage } from "./adapter";
import { deviceIdFromScope, handleInteraction } from "./interactions";
import type { OidcAccountSource } from "./interactions";

/** The Matrix client API scopes the provider grants (MSC2967 unstable and Matrix 1.15 stable). */
export const MATRIX_API_SCOPES = ["urn:matrix:org.matrix.msc2967.client:api:*", "urn:matrix:client:api:*"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Options of the test provider. */
export interface OidcProviderOptions {
  /** The homeserver's users; may be set later with `setAccounts` (the homeserver starts after). */
  accounts?: OidcAccountSource;
  /** Access token lifetime in seconds (default 300). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime in seconds (default 1 day). */
  refreshTokenTtlSeconds?: number;
  /** Port on 127.0.0.1; 0 (default) picks a free one. The demo fixes it so redirects stay valid. */
  port?: number;
  /** Advertise the stable Matrix API scope in scopes_supported (default true). */
  advertiseStableScopes?: boolean;
  /** Extra discovery metadata, e.g. account_management_uri and account_management_actions_supported. */
  discovery?: Record<string, unknown>;
}

/** Who an access token signs in as, for the homeserver. */
export interface OidcTokenOwner {
  userId: string;
  deviceId: string;
}

/** A running test provider. */
export interface OidcProviderHandle {
  /** The issuer, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly issuer: string;
  readonly provider: Provider;
  /** Sets the account source (the homeserver's AccountStore). */
  setAccounts(accounts: OidcAccountSource): void;
  /**
   * The owner of a live access token issued by this provider, or undefined
   * (unknown, expired, revoked, or for no Matrix device).
   */
  verifyAccessToken(token: string): OidcTokenOwner | undefined;
  /** Deletes a registered client, as a provider that lost or dropped it would (tests of stale client ids). */
  forgetClient(clientId: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 at a free port. */
export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProviderHandle> {
  let accounts = options.accounts;
  const storage = new MemoryOidcStorage();
  const grantDevices = new Map<string, string>();
  const sockets = new Set<Socket>();
  // The provider needs its issuer (our port) before it exists: requests wait on this slot.
  const route: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => {
    if (route.handler) route.handler(req, res);
    else res.writeHead(503).end();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const configuration: Configuration = {
    adapter: (name: string) => storage.adapterFor(name),
    clients: [],
    jwks: { keys: [{ ...key, kid: "lattice-test", use: "sig", alg: "RS256" }] },
    cookies: { keys: ["lattice-test-provider-cookies"] },
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
      if (!accounts?.userExists(sub)) return undefined;
      const name = accounts.profile(sub)?.displayname;
      return {
        accountId: sub,
        claims: () => ({ sub, preferred_username: sub, ...(name !== undefined ? { name } : {}) }),
      };
    },
    claims: { openid: ["sub"], profile: ["name", "preferred_username"] },
    scopes: [
      "openid",
      "offline_access",
      "profile",
      ...(options.advertiseStableScopes === false ? MATRIX_API_SCOPES.slice(0, 1) : MATRIX_API_SCOPES),
    ],
    responseTypes: ["code"],
    ...(options.discovery !== undefined ? { discovery: { ...options.discovery } } : {}),
    pkce: { required: () => true, methods: ["S256"] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Only the grant just made on our consent page counts, never one remembered in the session:
    // every sign-in asks for consent, so each grant (and its device) is recorded by our page.
    loadExistingGrant: async (ctx) => {
      const result: unknown = ctx.oidc.result;
      const consent = isObject(result) ? result["consent"] : undefined;
      const grantId = isObject(consent) ? consent["grantId"] : undefined;
      return typeof grantId === "string" ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // A browser app calls the token, revocation and userinfo endpoints from its own origin:
    // allow the origins of the client's registered redirect URIs.
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false,
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 300,
      RefreshToken: options.refreshTokenTtlSeconds ?? 86_400,
      IdToken: 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 86_400,
      Grant: 86_400,
    },
  };
  const provider = new Provider(issuer, configuration);
  // oidc-provider drops scopes it does not know (the device scope) from the request's params before
  // the consent page sees them: keep each authorization request's raw scope, keyed by what the
  // interaction still carries (client, state, nonce).
  const rawScopes = new Map<string, string>();
  const requestKey = (params: Record<string, unknown>): string =>
    JSON.stringify([params["client_id"], params["state"], params["nonce"]]);
  provider.use(async (ctx, next) => {
    if (ctx.path === "/auth" && typeof ctx.query["scope"] === "string") {
      rawScopes.set(requestKey(ctx.query), ctx.query["scope"]);
      // Abandoned sign-ins must not grow the map without bound.
      if (rawScopes.size > 1000) rawScopes.delete(rawScopes.keys().next().value ?? "");
    }
    await next();
  });
  const onGrant = (grantId: string, params: Record<string, unknown>): void => {
    const key = requestKey(params);
    const deviceId = deviceIdFromScope(rawScopes.get(key));
    rawScopes.delete(key);
    if (deviceId !== undefined) grantDevices.set(grantId, deviceId);
  };
  // Koa's callback accepts http/1 and http/2 requests; this server is http/1 only.
  const app = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  route.handler = (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (path.startsWith("/interaction/")) {
      handleInteraction(provider, () => accounts, onGrant, req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" }).end(String(err));
        else res.destroy();
      });
      return;
    }
    if (path === "/reg") {
      // oidc-provider gives registration no CORS; browser apps register themselves (as with MAS).
      res.setHeader("Access-Control-Allow-Origin", "*");
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "Access-Control-Allow-Methods": "POST",
          "Access-Control-Allow-Headers": "Content-Type, Authorization",
          "Access-Control-Max-Age": "3600",
        });
        res.end();
        return;
      }
    }
    void app(req, res);
  };

  return {
    issuer,
    provider,
    setAccounts(source) {
      accounts = source;
    },
    verifyAccessToken(token) {
      const record = storage.peek("AccessToken", token);
      if (!record || typeof record.accountId !== "string" || typeof record.grantId !== "string")
        return undefined;
      if (!storage.peek("Grant", record.grantId)) return undefined;
      const deviceId = grantDevices.get(record.grantId);
      if (deviceId === undefined) return undefined;
      return { userId: record.accountId, deviceId };
    },
    async forgetClient(clientId) {
      await storage.adapterFor("Client").destroy(clientId);
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
