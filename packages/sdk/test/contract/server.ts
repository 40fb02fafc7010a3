/**
 * The contract server: a loopback HTTP server that answers each request with
 * the current case's canned response and records, for that case, how the
 * request differs from `expect` and (unless the case is noSpec) what the
 * official OpenAPI operation says is wrong with the request and with the
 * canned response.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SpecValidator } from "@lattice/testserver/spec";
import { compareRequest } from "./compare";
import type { ReceivedRequest } from "./compare";
import type { ContractCase } from "./types";

/** What happened while one case ran. */
export interface CaseRecord {
  requests: ReceivedRequest[];
  errors: string[];
  /** The operation the request matched in the spec, if any. */
  operationId?: string;
  template?: string;
}

export interface ContractServer {
  baseUrl: string;
  /** Arms the server for `contract`; the returned record fills as requests arrive. */
  arm(contract: ContractCase): CaseRecord;
  close(): Promise<void>;
}

function isJson(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

async function receive(req: IncomingMessage): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url ?? "/", "http://loopback");
  const contentType = req.headers["content-type"];
  let body: unknown;
  if (raw.length > 0 && isJson(contentType)) {
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      body = undefined;
    }
  }
  // url.pathname re-encodes nothing the SDK sent, so the raw path is compared as is.
  const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
  const authorization = req.headers.authorization;
  return { method: req.method ?? "", path, query: url.searchParams, contentType, authorization, body, raw };
}

/** Redirects (the SSO redirect) and 204 carry no body unless the case gives one. */
function bodiless(response: ContractCase["response"]): boolean {
  const status = response.status ?? 200;
  return response.body === undefined && ((status >= 300 && status < 400) || status === 204);
}

function answer(res: ServerResponse, response: ContractCase["response"]): void {
  const status = response.status ?? 200;
  if (response.raw) {
    res.writeHead(status, { "Content-Type": response.raw.contentType });
    res.end(Buffer.from(response.raw.data));
    return;
  }
  if (bodiless(response)) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(response.body ?? {}));
}

/**
 * The operation's `security` against the Authorization header: a token is
 * required when every alternative needs one. Sending one where it is not
 * needed is allowed: servers may be configured to want it (profile lookups).
 */
function authErrors(security: unknown, authorization: string | undefined): string[] {
  if (!Array.isArray(security) || security.length === 0) return [];
  const hasToken = authorization !== undefined && /^Bearer \S+$/.test(authorization);
  const optional = security.some((s) => typeof s === "object" && s !== null && Object.keys(s).length === 0);
  return !optional && !hasToken ? ["spec (request): no access token, but the operation requires one"] : [];
}

/** Checks one request against the case and the spec. */
function check(contract: ContractCase, req: ReceivedRequest, record: CaseRecord, spec: SpecValidator): void {
  if (req.raw.length > 0 && isJson(req.contentType) && req.body === undefined) {
    record.errors.push("request body is not valid JSON");
  }
  record.errors.push(...compareRequest(req, contract.expect));
  if (contract.noSpec !== undefined) return;
  const request = spec.validateRequest({
    method: req.method,
    path: req.path,
    query: req.query,
    body: req.body,
    ...(req.contentType === undefined ? {} : { contentType: req.contentType }),
  });
  if (request.operation) {
    record.operationId = request.operation.operationId;
    record.template = `${request.operation.method} ${request.operation.template}`;
  }
  record.errors.push(...request.errors.map((e) => `spec (request): ${e}`));
  if (!request.operation) return;
  record.errors.push(...authErrors(request.operation.spec["security"], req.authorization));
  const { response } = contract;
  const validated = spec.validateResponse(
    { method: req.method, path: req.path },
    response.raw
      ? { status: response.status ?? 200, contentType: response.raw.contentType }
      : { status: response.status ?? 200, body: bodiless(response) ? undefined : (response.body ?? {}) },
  );
  record.errors.push(...validated.errors.map((e) => `spec (canned response): ${e}`));
}

export async function startContractServer(spec: SpecValidator): Promise<ContractServer> {
  let current: { contract: ContractCase; record: CaseRecord } | undefined;
  const server = createServer((req, res) => {
    receive(req).then(
      (received) => {
        if (!current) {
          res.writeHead(500).end();
          return;
        }
        current.record.requests.push(received);
        try {
          check(current.contract, received, current.record, spec);
        } catch (err) {
          current.record.errors.push(`validator crashed: ${String(err)}`);
        }
        answer(res, current.contract.response);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    arm(contract) {
      const record: CaseRecord = { requests: [], errors: [] };
      current = { contract, record };
      return record;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
