/**
 * User-interactive authentication: sessions, stages and the 401 answers that
 * list the flows. Supports m.login.dummy, m.login.password,
 * m.login.email.identity, m.login.msisdn, m.login.terms,
 * m.login.registration_token, and an advertised m.login.recaptcha stage that
 * always fails (the test server has no captcha), for flow-choice tests.
 * A session lives UIA_SESSION_LIFETIME_MS from its creation; after that it is
 * an unknown session, as in Synapse.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { MatrixHttpError } from "../http/errors";
import type { HandlerRequest } from "../http/types";
import { optObject, optString } from "./body";
import type { Medium } from "./outbox";

/** The 401 of an unfinished UIA: its body is the AuthenticationResponse, errcode only on failure. */
export class UiaRequired extends MatrixHttpError {
  constructor(private readonly payload: JsonObject) {
    super(
      401,
      typeof payload["errcode"] === "string" ? payload["errcode"] : "M_UNAUTHORIZED",
      "UIA required",
      {},
    );
    this.name = "UiaRequired";
  }

  override toJson(): JsonObject {
    return this.payload;
  }
}

export interface UiaOptions {
  flows: string[][];
  /** The user m.login.password must prove (the requester). */
  userId?: string;
  /** Registration: the password the body sets, which an m.login.password stage must repeat. */
  registrationPassword?: string;
  /**
   * Put an errcode on every 401, the first one too. For endpoints whose
   * OpenAPI definition lists no 401 (keys/device_signing/upload), so the
   * answer is also a valid standard error.
   */
  errcodeOnChallenge?: boolean;
}

export interface UiaResult {
  completed: string[];
  /** 3PIDs validated by email / msisdn stages. */
  threepids: Array<{ medium: Medium; address: string }>;
}

interface Session {
  id: string;
  method: string;
  path: string;
  completed: Set<string>;
  threepids: Array<{ medium: Medium; address: string }>;
  expiresAt: number;
}

/** UIA sessions live 48 hours from their first request, as in Synapse. */
export const UIA_SESSION_LIFETIME_MS = 48 * 60 * 60 * 1000;

/** The privacy policy page m.login.terms links to. */
export const TERMS_PATH = "/_lattice/terms/privacy-1.0.html";

const RECAPTCHA_PUBLIC_KEY = "lattice-test-server-has-no-captcha";

export class UiaSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly ctx: ServerContext) {}

  /**
   * Runs one UIA round for a request. Returns when a flow is complete;
   * otherwise throws the 401 the client continues from.
   */
  check(req: HandlerRequest, body: JsonObject, options: UiaOptions): UiaResult {
    const auth = optObject(body, "auth");
    const sessionId = auth ? optString(auth, "session", 255) : undefined;
    let session: Session | undefined;
    this.dropExpired();
    if (sessionId !== undefined) {
      session = this.sessions.get(sessionId);
      if (!session) throw new MatrixHttpError(400, "M_UNKNOWN", `Unknown session ID: ${sessionId}`);
      if (session.method !== req.method || session.path !== req.path) {
        throw new MatrixHttpError(
          403,
          "M_FORBIDDEN",
          "Requested operation has changed during the UI authentication session.",
        );
      }
    } else {
      session = {
        id: this.ctx.ids.randomString(24),
        method: req.method,
        path: req.path,
        completed: new Set(),
        threepids: [],
        expiresAt: this.ctx.clock.now() + UIA_SESSION_LIFETIME_MS,
      };
      this.sessions.set(session.id, session);
    }

    const type = auth ? auth["type"] : undefined;
    if (auth && typeof type === "string") {
      const offered = options.flows.some((f) => f.includes(type));
      const failure = offered
        ? this.attempt(type, auth, options, session)
        : { errcode: "M_UNRECOGNIZED", error: `Unrecognized login type ${type}` };
      if (failure) throw new UiaRequired({ ...this.describe(session, options, req.baseUrl), ...failure });
      session.completed.add(type);
    } else if (auth && type !== undefined) {
      throw new MatrixHttpError(400, "M_INVALID_PARAM", "auth.type must be a string");
    }

    const done = options.flows.some((flow) => flow.every((stage) => session.completed.has(stage)));
    if (done) {
      this.sessions.delete(session.id);
      return { completed: [...session.completed], threepids: session.threepids };
    }
    const challenge = this.describe(session, options, req.baseUrl);
    if (options.errcodeOnChallenge) {
      challenge["errcode"] = "M_UNAUTHORIZED";
      challenge["error"] = "Interactive authentication required";
    }
    throw new UiaRequired(challenge);
  }

  /** Forgets sessions past their lifetime, so a late continuation is an unknown session. */
  private dropExpired(): void {
    const now = this.ctx.clock.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
  }

  private describe(session: Session, options: UiaOptions, baseUrl: string): JsonObject {
    const body: JsonObject = {
      flows: options.flows.map((stages) => ({ stages })),
      params: this.params(options.flows, baseUrl),
      session: session.id,
    };
    if (session.completed.size > 0) body["completed"] = [...session.completed];
    return body;
  }

  private params(flows: string[][], baseUrl: string): JsonObject {
    const stages = new Set(flows.flat());
    const params: JsonObject = {};
    if (stages.has("m.login.terms")) {
      params["m.login.terms"] = {
        policies: {
          privacy_policy: {
            version: "1.0",
            en: { name: "Privacy Policy", url: `${baseUrl}${TERMS_PATH}` },
          },
        },
      };
    }
    if (stages.has("m.login.recaptcha")) params["m.login.recaptcha"] = { public_key: RECAPTCHA_PUBLIC_KEY };
    return params;
  }

  /** Checks one stage; an {errcode, error} on failure. */
  private attempt(
    type: string,
    auth: JsonObject,
    options: UiaOptions,
    session: Session,
  ): { errcode: string; error: string } | undefined {
    switch (type) {
      case "m.login.dummy":
      case "m.login.terms":
        return undefined;
      case "m.login.password":
        return this.password(auth, options);
      case "m.login.email.identity":
      case "m.login.msisdn": {
        const creds = optObject(auth, "threepid_creds") ?? optObject(auth, "threepidCreds");
        const sid = creds ? optString(creds, "sid", 255) : undefined;
        const secret = creds ? optString(creds, "client_secret", 255) : undefined;
        const validated =
          sid !== undefined && secret !== undefined
            ? this.ctx.accounts.outbox.validated(sid, secret)
            : undefined;
        const medium: Medium = type === "m.login.msisdn" ? "msisdn" : "email";
        if (!validated || validated.medium !== medium) {
          return { errcode: "M_UNAUTHORIZED", error: "Unable to get validated threepid" };
        }
        session.threepids.push({ medium, address: validated.address });
        return undefined;
      }
      case "m.login.registration_token": {
        const token = auth["token"];
        if (typeof token === "string" && this.ctx.config.registrationTokens.includes(token)) return undefined;
        return { errcode: "M_UNAUTHORIZED", error: "Invalid registration token" };
      }
      case "m.login.recaptcha":
        return { errcode: "M_UNAUTHORIZED", error: "Captcha is not available on the test server" };
      default:
        return { errcode: "M_UNRECOGNIZED", error: `Unrecognized login type ${type}` };
    }
  }

  private password(auth: JsonObject, options: UiaOptions): { errcode: string; error: string } | undefined {
    const password = auth["password"];
    const invalid = { errcode: "M_FORBIDDEN", error: "Invalid username or password" };
    if (typeof password !== "string") return invalid;
    if (options.userId === undefined) {
      return options.registrationPassword === password ? undefined : invalid;
    }
    const named = this.ctx.accounts.resolveIdentifier(auth);
    if (named !== undefined && named !== options.userId) {
      return { errcode: "M_FORBIDDEN", error: "Requested user does not match the authenticated user" };
    }
    return this.ctx.accounts.checkPassword(options.userId, password) ? undefined : invalid;
  }
}
