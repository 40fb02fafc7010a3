/**
 * A provider (and the homeserver's auth_metadata) that misbehaves on
 * request, for the client's error tests: every SPEC.md §8 sign-in message
 * is triggered by a real HTTP answer from here. With no misbehaviour set it
 * is a minimal working provider: auth_metadata, openid-configuration,
 * registration, an authorization endpoint that signs the user in at once,
 * a token endpoint that checks the code and PKCE verifier and issues
 * RS256-signed ID tokens, JWKS, user info and revocation.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { generateSigningKey, signJwt } from "./jwt";

/** What to get wrong. Fields set to undefined in a patch are removed from the answer. */
export interface Misbehaviour {
  /**
   * The homeserver's auth_metadata and auth_issuer: "well-known-only" answers
   * both with M_UNRECOGNIZED, leaving the legacy m.authentication in
   * /.well-known/matrix/client.
   */
  homeserver?: "unrecognised" | "legacy-only" | "server-error" | "no-issuer" | "well-known-only";
  /** Fields replaced in (or, when undefined, removed from) the homeserver's auth_metadata. */
  homeserverPatch?: Record<string, unknown>;
  /**
   * The body of /.well-known/matrix/client; by default it names the
   * homeserver, and the issuer as m.authentication when `homeserver` is
   * "well-known-only". "absent" answers 404.
   */
  wellKnown?: Record<string, unknown> | "absent";
  /** The openid-configuration document. */
  discovery?: "server-error" | "not-json" | "hang" | "array";
  /** Fields replaced in (or, when undefined, removed from) the openid-configuration. */
  metadataPatch?: Record<string, unknown>;
  registration?: "server-error" | "no-client-id";
  /** The token endpoint, for the code exchange and refresh. */
  token?: "invalid-grant" | "not-json" | "hang";
  /** Fields replaced in (or removed from) the token response body. */
  tokenPatch?: Record<string, unknown>;
  /** Claims replaced in (or removed from) the ID token. */
  idTokenPatch?: Record<string, unknown>;
  /** Sign ID tokens with a key that is not in the JWKS (under the published key's kid). */
  foreignKey?: boolean;
  /** Sign ID tokens with a key whose kid the JWKS does not list. */
  unknownKid?: boolean;
  /** The user info endpoint: an error, or another user's claims. */
  userinfo?: "server-error" | "wrong-sub";
  /** The revocation endpoint answers an error. */
  revocation?: "server-error";
}

/** A running misbehaving provider. */
export interface MisbehavingProvider {
  /** Base URL of the fake homeserver (auth_metadata) and issuer alike. */
  readonly url: string;
  readonly issuer: string;
  /** Set before each test; reset with `{}`. */
  misbehave(behaviour: Misbehaviour): void;
  /** Requests seen, as "METHOD /path". */
  readonly requests: string[];
  stop(): Promise<void>;
}

function patch(
  base: Record<string, unknown>,
  changes: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

interface PendingCode {
  clientId: string;
  challenge: string;
  nonce: string;
  redirectUri: string;
}

/** Starts the misbehaving provider on 127.0.0.1. */
export async function startMisbehavingProvider(): Promise<MisbehavingProvider> {
  let behaviour: Misbehaviour = {};
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const key = generateSigningKey("good");
  const foreign = generateSigningKey("good"); // same kid, other key: the signature fails
  const stranger = generateSigningKey("unknown"); // a kid the JWKS does not list
  const codes = new Map<string, PendingCode>();
  const refreshTokens = new Map<string, string>();
  let issuer = "";

  const metadata = (): Record<string, unknown> => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    revocation_endpoint: `${issuer}/revoke`,
    registration_endpoint: `${issuer}/register`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    id_token_signing_alg_values_supported: ["RS256"],
    subject_types_supported: ["public"],
  });

  /** The well-known document: it names the provider (MSC2965's m.authentication) only when asked to. */
  const defaultWellKnown = (withAuthentication: boolean): Record<string, unknown> => ({
    "m.homeserver": { base_url: issuer },
    ...(withAuthentication ? { "m.authentication": { issuer, account: `${issuer}/account` } } : {}),
  });

  const tokens = (clientId: string, nonce: string | undefined): Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    const claims = patch(
      {
        iss: issuer,
        sub: "@alice:localhost",
        aud: clientId,
        iat: now,
        exp: now + 300,
        ...(nonce ? { nonce } : {}),
      },
      behaviour.idTokenPatch,
    );
    const refresh = randomBytes(16).toString("hex");
    refreshTokens.set(refresh, clientId);
    return patch(
      {
        token_type: "Bearer",
        access_token: randomBytes(16).toString("hex"),
        refresh_token: refresh,
        expires_in: 300,
        scope: "openid",
        id_token: signJwt(claims, behaviour.foreignKey ? foreign : behaviour.unknownKid ? stranger : key),
      },
      behaviour.tokenPatch,
    );
  };

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    if (behaviour.token === "hang") return; // never answers
    if (behaviour.token === "invalid-grant") return json(res, 400, { error: "invalid_grant" });
    if (behaviour.token === "not-json") {
      res.writeHead(200, { "Content-Type": "application/json" }).end("<html>not json</html>");
      return;
    }
    if (form.get("grant_type") === "refresh_token") {
      const clientId = refreshTokens.get(form.get("refresh_token") ?? "");
      if (clientId === undefined) return json(res, 400, { error: "invalid_grant" });
      return json(res, 200, tokens(clientId, undefined));
    }
    const pending = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    if (!pending || pending.challenge !== challenge || pending.redirectUri !== form.get("redirect_uri")) {
      return json(res, 400, { error: "invalid_grant" });
    }
    json(res, 200, tokens(pending.clientId, pending.nonce));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", issuer);
    const method = req.method ?? "GET";
    requests.push(`${method} ${url.pathname}`);
    const hs = behaviour.homeserver;
    switch (url.pathname) {
      case "/_matrix/client/v1/auth_metadata":
      case "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata":
        if (hs === "unrecognised" || hs === "legacy-only" || hs === "well-known-only") {
          return json(res, 404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" });
        }
        if (hs === "server-error") return json(res, 500, { errcode: "M_UNKNOWN", error: "boom" });
        if (hs === "no-issuer") return json(res, 200, { ...metadata(), issuer: 42 });
        return json(res, 200, patch(metadata(), behaviour.homeserverPatch));
      case "/_matrix/client/unstable/org.matrix.msc2965/auth_issuer":
        if (hs === "unrecognised" || hs === "well-known-only")
          return json(res, 404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" });
        return json(res, 200, { issuer });
      case "/.well-known/matrix/client":
        if (behaviour.wellKnown === "absent")
          return json(res, 404, { errcode: "M_NOT_FOUND", error: "none" });
        return json(res, 200, behaviour.wellKnown ?? defaultWellKnown(hs === "well-known-only"));
      case "/.well-known/openid-configuration":
        if (behaviour.discovery === "hang") return;
        if (behaviour.discovery === "server-error") return json(res, 500, { error: "server_error" });
        if (behaviour.discovery === "array") return json(res, 200, [metadata()]);
        if (behaviour.discovery === "not-json") {
          res.writeHead(200, { "Content-Type": "text/html" }).end("<html>hello</html>");
          return;
        }
        return json(res, 200, patch(metadata(), behaviour.metadataPatch));
      case "/register": {
        const body: unknown = JSON.parse((await readBody(req)) || "{}");
        if (behaviour.registration === "server-error")
          return json(res, 400, { error: "invalid_client_metadata" });
        if (behaviour.registration === "no-client-id") return json(res, 201, { client_id: 7 });
        return json(res, 201, { ...(body as object), client_id: randomBytes(8).toString("hex") });
      }
      case "/authorize": {
        const code = randomBytes(16).toString("hex");
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        codes.set(code, {
          clientId: url.searchParams.get("client_id") ?? "",
          challenge: url.searchParams.get("code_challenge") ?? "",
          nonce: url.searchParams.get("nonce") ?? "",
          redirectUri,
        });
        const back = new URL(redirectUri);
        const answer = new URLSearchParams({ code, state: url.searchParams.get("state") ?? "", iss: issuer });
        // response_mode=fragment puts the answer after '#', where the server never sees it.
        if (url.searchParams.get("response_mode") === "fragment") back.hash = answer.toString();
        else for (const [name, value] of answer) back.searchParams.set(name, value);
        res.writeHead(302, { Location: back.toString() }).end();
        return;
      }
      case "/token":
        return token(req, res);
      case "/jwks":
        return json(res, 200, { keys: [key.publicJwk] });
      case "/userinfo":
        if (behaviour.userinfo === "server-error") return json(res, 500, { error: "server_error" });
        return json(res, 200, {
          sub: behaviour.userinfo === "wrong-sub" ? "@mallory:localhost" : "@alice:localhost",
        });
      case "/revoke":
        await readBody(req);
        if (behaviour.revocation === "server-error")
          return json(res, 503, { error: "temporarily_unavailable" });
        res.writeHead(200).end();
        return;
      default:
        return json(res, 404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { error: "server_error" });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: issuer,
    issuer,
    requests,
    misbehave(next) {
      behaviour = next;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
