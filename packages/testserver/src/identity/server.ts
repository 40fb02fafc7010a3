/**
 * A small loopback identity server (identity service API v2) for tests: it
 * trades homeserver OpenID tokens for its own access tokens, checking them
 * against the homeserver's GET /_matrix/federation/v1/openid/userinfo, and
 * serves account, terms, hash_details (sha256 and none, with a pepper),
 * lookup and email/msisdn validation. Tests bind 3PIDs directly and can make
 * it misbehave (a bad hash_details answer, only an unknown algorithm, a
 * register answer without a token).
 *
 * A development and test server on 127.0.0.1 only, not a production one.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { IdentityStore } from "./store";
import type { IdentityMedium, IdentityOutboxMessage, IdentityPolicy } from "./store";

/** Ways the server can be told to answer wrongly. */
export type IdentityMisbehaviour =
  /** hash_details without a pepper and with algorithms not a list. */
  | "bad_hash_details"
  /** hash_details offering only an algorithm nobody knows. */
  | "unknown_algorithm"
  /** account/register answers without a token. */
  | "bad_register";

export interface IdentityServerOptions {
  /** The test homeserver whose OpenID tokens are accepted. */
  homeserverUrl: string;
  /** The algorithms hash_details offers; default ["sha256", "none"]. */
  algorithms?: string[];
  /** The lookup pepper; random by default. */
  pepper?: string;
}

export interface IdentityServerHandle {
  readonly url: string;
  readonly port: number;
  /** Binds a 3PID to a Matrix user, as if validated and published. */
  bind(medium: IdentityMedium, address: string, userId: string): void;
  /** Makes the server misbehave (undefined: behave). */
  misbehave(mode: IdentityMisbehaviour | undefined): void;
  /** Changes the algorithms hash_details offers. */
  setAlgorithms(algorithms: string[]): void;
  readonly pepper: string;
  readonly policies: readonly IdentityPolicy[];
  /** Validation messages sent so far. */
  readonly outbox: readonly IdentityOutboxMessage[];
  /** The policy URLs a user accepted. */
  acceptedTerms(userId: string): string[];
  /** Every request seen, as "METHOD /path" (for tests that check where tokens went). */
  readonly requests: ReadonlyArray<{ method: string; path: string; authorization?: string }>;
  stop(): Promise<void>;
}

const PREFIX = "/_matrix/identity/v2";
const MAX_BODY = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

function str(body: Body, key: string): string {
  const v = body[key];
  if (typeof v !== "string" || v === "") throw new HttpError(400, "M_MISSING_PARAMS", `Missing ${key}`);
  return v;
}

function int(body: Body, key: string): number {
  const v = body[key];
  if (typeof v !== "number" || !Number.isInteger(v))
    throw new HttpError(400, "M_INVALID_PARAM", `Bad ${key}`);
  return v;
}

async function readJson(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY) throw new HttpError(413, "M_TOO_LARGE", "Body too large");
    chunks.push(buf);
  }
  if (size === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "M_NOT_JSON", "Body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, "M_BAD_JSON", "Body must be an object");
  }
  return parsed as Body;
}

/** Starts the identity server on 127.0.0.1 (random port). */
export async function startIdentityServer(options: IdentityServerOptions): Promise<IdentityServerHandle> {
  const homeserverUrl = options.homeserverUrl.replace(/\/+$/, "");
  let algorithms = options.algorithms ?? ["sha256", "none"];
  let misbehaviour: IdentityMisbehaviour | undefined;

  const requests: Array<{ method: string; path: string; authorization?: string }> = [];
  const sockets = new Set<Socket>();
  const policies: IdentityPolicy[] = [];
  const store = new IdentityStore(
    options.pepper ?? `pepper-${Math.random().toString(36).slice(2)}`,
    policies,
  );

  /** The user behind the bearer token, or a 401. */
  function userOf(req: IncomingMessage): string {
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer (.+)$/.exec(header);
    if (!match?.[1]) throw new HttpError(401, "M_UNAUTHORIZED", "Missing access token");
    const userId = store.userOf(match[1]);
    if (userId === undefined) throw new HttpError(401, "M_UNAUTHORIZED", "Unknown access token");
    return userId;
  }

  function needTerms(userId: string): void {
    if (!store.hasAcceptedAll(userId)) {
      throw new HttpError(403, "M_TERMS_NOT_SIGNED", "Terms of service not accepted");
    }
  }

  async function verifyOpenId(body: Body): Promise<string> {
    const accessToken = str(body, "access_token");
    const url = `${homeserverUrl}/_matrix/federation/v1/openid/userinfo?access_token=${encodeURIComponent(accessToken)}`;
    let res: Response;
    try {
      res = await fetch(url);
    } catch (err) {
      throw new HttpError(500, "M_UNKNOWN", `Homeserver unreachable: ${String(err)}`);
    }
    const answer = (await res.json().catch(() => null)) as { sub?: unknown } | null;
    if (!res.ok || typeof answer?.sub !== "string") {
      throw new HttpError(401, "M_UNAUTHORIZED", "OpenID token rejected by the homeserver");
    }
    return answer.sub;
  }

  async function route(req: IncomingMessage, method: string, path: string): Promise<unknown> {
    const body = method === "POST" ? await readJson(req) : {};
    switch (`${method} ${path}`) {
      case "GET ":
      case "GET /":
        return {};
      case "POST /account/register": {
        const userId = await verifyOpenId(body);
        const token = store.issueToken(userId);
        return misbehaviour === "bad_register" ? { access: "nope" } : { token };
      }
      case "GET /account":
        return { user_id: userOf(req) };
      case "POST /account/logout": {
        userOf(req);
        const header = req.headers.authorization ?? "";
        store.revoke(header.replace(/^Bearer /, ""));
        return {};
      }
      case "GET /terms":
        return {
          policies: Object.fromEntries(
            policies.map((p) => [p.id, { version: p.version, en: { name: p.name, url: p.url } }]),
          ),
        };
      case "POST /terms": {
        const userId = userOf(req);
        const accepts = body["user_accepts"];
        if (!Array.isArray(accepts) || !accepts.every((u) => typeof u === "string")) {
          throw new HttpError(400, "M_BAD_JSON", "user_accepts must be a list of strings");
        }
        store.accept(userId, accepts);
        return {};
      }
      case "GET /hash_details":
        needTerms(userOf(req));
        if (misbehaviour === "bad_hash_details") return { algorithms: "sha256" };
        if (misbehaviour === "unknown_algorithm") return { lookup_pepper: store.pepper, algorithms: ["md5"] };
        return { lookup_pepper: store.pepper, algorithms };
      case "POST /lookup": {
        needTerms(userOf(req));
        const algorithm = str(body, "algorithm");
        const pepper = str(body, "pepper");
        const addresses = body["addresses"];
        if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === "string")) {
          throw new HttpError(400, "M_INVALID_PARAM", "addresses must be a list of strings");
        }
        if ((algorithm !== "sha256" && algorithm !== "none") || !algorithms.includes(algorithm)) {
          throw new HttpError(400, "M_INVALID_PARAM", "Unsupported algorithm");
        }
        if (pepper !== store.pepper) {
          throw new HttpError(400, "M_INVALID_PEPPER", "Unknown or invalid pepper", {
            algorithm,
            lookup_pepper: store.pepper,
          });
        }
        return { mappings: store.lookup(algorithm, addresses) };
      }
      case "POST /validate/email/requestToken":
      case "POST /validate/msisdn/requestToken": {
        needTerms(userOf(req));
        const medium: IdentityMedium = path.includes("email") ? "email" : "msisdn";
        const address =
          medium === "email" ? str(body, "email") : `${str(body, "country")}:${str(body, "phone_number")}`;
        const nextLink = typeof body["next_link"] === "string" ? body["next_link"] : undefined;
        const sid = store.requestToken(
          medium,
          address,
          str(body, "client_secret"),
          int(body, "send_attempt"),
          nextLink,
        );
        return { sid };
      }
      case "POST /validate/email/submitToken":
      case "POST /validate/msisdn/submitToken": {
        needTerms(userOf(req));
        return {
          success: store.submitToken(str(body, "sid"), str(body, "client_secret"), str(body, "token")),
        };
      }
      default:
        throw new HttpError(404, "M_UNRECOGNIZED", "Unrecognized request");
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const entry: { method: string; path: string; authorization?: string } = { method, path: url.pathname };
    if (req.headers.authorization !== undefined) entry.authorization = req.headers.authorization;
    requests.push(entry);
    if (method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    let status = 200;
    let payload: unknown;
    try {
      if (!url.pathname.startsWith(PREFIX))
        throw new HttpError(404, "M_UNRECOGNIZED", "Unrecognized request");
      payload = await route(req, method, url.pathname.slice(PREFIX.length));
    } catch (err) {
      const e = err instanceof HttpError ? err : new HttpError(500, "M_UNKNOWN", String(err));
      status = e.status;
      payload = { errcode: e.errcode, error: e.message, ...e.extra };
    }
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  server.unref();
  policies.push({
    id: "privacy_policy",
    version: "1.0",
    name: "Identity Privacy Policy",
    url: `${baseUrl}/_lattice/identity/privacy-1.0.html`,
  });

  return {
    url: baseUrl,
    port,
    pepper: store.pepper,
    policies,
    outbox: store.outbox,
    requests,
    bind: (medium, address, userId) => store.bind(medium, address, userId),
    misbehave: (mode) => {
      misbehaviour = mode;
    },
    setAlgorithms: (next) => {
      algorithms = [...next];
    },
    acceptedTerms: (userId) => store.acceptedBy(userId),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
