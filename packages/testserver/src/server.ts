/**
 * The test homeserver's HTTP front: CORS, fault injection, routing, body
 * parsing, authentication, error mapping and (in test mode) validation of
 * every response against the official Matrix definitions.
 *
 * This is a development and test server, not a production homeserver.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Outbox } from "./accounts/outbox";
import { systemClock } from "./core/clock";
import { resolveConfig } from "./core/config";
import type { RtcTransportConfig, TestServerOptions } from "./core/config";
import type { ServerContext } from "./core/context";
import { IdGenerator } from "./core/ids";
import { forgetServer, watchServer } from "./core/live-servers";
import { missingInLegacy } from "./core/legacy";
import { Context } from "./core/server-context";
import { errors, MatrixHttpError } from "./http/errors";
import { FaultInjector } from "./http/faults";
import { tooDeep } from "./http/json-depth";
import { Router } from "./http/router";
import type { HandlerRequest, HandlerResponse } from "./http/types";
import { registerAllRoutes } from "./routes";
import { syncRtcFeature } from "./routes/rtc";
import { createResponseValidator } from "./spec/exchange";

const DEFAULT_JSON_LIMIT = 10 * 1024 * 1024;

/** Checks one exchange; returns readable mismatches (empty when valid). */
export type ExchangeValidator = (req: HandlerRequest, status: number, body: unknown) => string[];

export interface TestServerHandle {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  readonly serverName: string;
  /** Fault injection; reset between tests. */
  readonly faults: FaultInjector;
  /** Inspection of the server's state. */
  readonly ctx: ServerContext;
  /** Spec mismatches seen so far (test mode). */
  readonly validationErrors: string[];
  /** Installs the response validator (test mode). */
  setValidator(validator: ExchangeValidator | undefined): void;
  /** Mail and SMS the server "sent" for 3PID validation, with their tokens and links (accounts). */
  readonly outbox: Outbox;
  /** Makes a registered user a server admin (or not); false when the user is unknown. */
  makeAdmin(userId: string, admin?: boolean): boolean;
  /** Expires access tokens (all, or one user's): the next request gets M_UNKNOWN_TOKEN with soft_logout true. */
  expireAccessTokens(userId?: string): void;
  /** Replaces the MatrixRTC transports the server advertises (MSC4143; empty turns it off). */
  setRtcTransports(transports: readonly RtcTransportConfig[]): void;
  /** Stops the server and closes every connection. */
  stop(): Promise<void>;
}

/** Starts the in-memory homeserver on 127.0.0.1. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServerHandle> {
  const config = resolveConfig(options);
  const ctx = new Context(config, options.clock ?? systemClock, new IdGenerator(options.seed));
  const router = new Router();
  registerAllRoutes(router, ctx);
  const faults = new FaultInjector();
  const validationErrors: string[] = [];
  // In test mode every response is checked against the official definitions.
  let validator: ExchangeValidator | undefined = config.validate ? createResponseValidator() : undefined;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // Never crash the process: the last resort is a 500.
      if (!res.headersSent) sendJson(res, 500, { errcode: "M_UNKNOWN", error: String(err) });
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  let baseUrl = "";

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setCors(res);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    if (faults.offline) {
      req.socket.destroy();
      return;
    }
    if (method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    const fault = faults.take(method, url.pathname);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.drop) {
        req.socket.destroy();
        return;
      }
      if (fault.garbage) {
        res.writeHead(200, { "Content-Type": "application/json" }).end("<html>not json{");
        return;
      }
      if (fault.rateLimitMs !== undefined) {
        sendError(res, errors.limitExceeded(fault.rateLimitMs));
        return;
      }
      if (fault.status !== undefined) {
        sendJson(res, fault.status, { errcode: fault.errcode ?? "M_UNKNOWN", error: "Injected fault" });
        return;
      }
    }

    const legacy = config.profile === "legacy";
    const match = legacy && missingInLegacy(url.pathname) ? undefined : router.match(method, url.pathname);
    if (match === undefined || match === "method") {
      await drain(req);
      // Synapse 1.67 answers every unknown endpoint with 400 M_UNRECOGNIZED; today's servers 404 / 405.
      sendError(res, errors.unrecognized(legacy ? 400 : match === "method" ? 405 : 404));
      return;
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());

    let handlerReq: HandlerRequest | undefined;
    try {
      const limit = match.options.maxBodyBytes ?? DEFAULT_JSON_LIMIT;
      const rawBody = await readBody(req, limit);
      let body: unknown = {};
      if (!match.options.rawBody && rawBody.length > 0 && method !== "GET") {
        try {
          body = JSON.parse(rawBody.toString("utf8"));
        } catch {
          throw errors.notJson();
        }
        if (tooDeep(body)) throw errors.badJson("JSON nested too deeply");
      }
      handlerReq = {
        method,
        path: url.pathname,
        params: match.params,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body,
        signal: abort.signal,
        baseUrl,
      };
      const authMode = match.options.auth ?? "required";
      if (authMode !== "none") {
        const token = bearerToken(req, url);
        if (token !== undefined) {
          const who = ctx.accounts.authenticate(token);
          if (who === "expired") throw errors.unknownToken(true);
          if (who === undefined) throw errors.unknownToken(false);
          if (who.isGuest && authMode === "required" && !match.options.guests)
            throw errors.guestAccessForbidden();
          handlerReq.requester = who;
        } else if (authMode === "required") {
          throw errors.missingToken();
        }
      }
      const result = await match.handler(handlerReq);
      const out: HandlerResponse = isHandlerResponse(result) ? result : { body: result };
      if (abort.signal.aborted) return;
      if (out.raw) {
        res.writeHead(out.status ?? 200, {
          "Content-Type": out.raw.contentType,
          ...out.raw.headers,
          ...out.headers,
        });
        res.end(out.raw.data);
        return;
      }
      const status = out.status ?? 200;
      const payload = out.body ?? {};
      check(handlerReq, status, payload);
      sendJson(res, status, payload, out.headers);
    } catch (err) {
      if (abort.signal.aborted) return;
      const error = err instanceof MatrixHttpError ? err : internalError(err);
      if (handlerReq) check(handlerReq, error.status, error.toJson());
      sendError(res, error);
    }
  }

  function check(req: HandlerRequest, status: number, body: unknown): void {
    if (!validator) return;
    for (const problem of validator(req, status, body)) {
      validationErrors.push(`${req.method} ${req.path} -> ${status}: ${problem}`);
    }
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  server.unref();

  const serverHandle: TestServerHandle = {
    url: baseUrl,
    port,
    serverName: config.serverName,
    faults,
    ctx,
    validationErrors,
    outbox: ctx.accounts.outbox,
    makeAdmin: (userId, admin = true) => ctx.accounts.setAdmin(userId, admin),
    expireAccessTokens: (userId) => ctx.accounts.tokens.expireAll(userId),
    setValidator: (v) => {
      validator = v;
    },
    setRtcTransports: (transports) => {
      config.rtcTransports.splice(0, config.rtcTransports.length, ...transports.map((t) => ({ ...t })));
      syncRtcFeature(ctx);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        forgetServer(serverHandle);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  watchServer(serverHandle);
  return serverHandle;
}

function isHandlerResponse(value: object): value is HandlerResponse {
  return (
    "status" in value ||
    "raw" in value ||
    ("body" in value && Object.keys(value).every((k) => k === "body" || k === "headers"))
  );
}

function internalError(err: unknown): MatrixHttpError {
  console.error("[testserver] handler error:", err);
  return new MatrixHttpError(500, "M_UNKNOWN", "Internal server error");
}

function bearerToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice("Bearer ".length).trim();
  return url.searchParams.get("access_token") ?? undefined;
}

function setCors(res: ServerResponse): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, PATCH, OPTIONS");
  res.setHeader(
    "Access-Control-Allow-Headers",
    "Origin, X-Requested-With, Content-Type, Accept, Authorization",
  );
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, error: MatrixHttpError): void {
  const headers: Record<string, string> = {};
  const retry = error.extra["retry_after_ms"];
  if (typeof retry === "number") headers["Retry-After"] = String(Math.ceil(retry / 1000));
  sendJson(res, error.status, error.toJson(), headers);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(errors.tooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
    });
  });
}

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    req.resume();
    req.on("end", resolve);
    req.on("error", () => resolve());
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
