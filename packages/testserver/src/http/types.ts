/**
 * Request and response shapes seen by route handlers.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { JsonObject } from "../core/events";

/** The caller, once the access token is checked. */
export interface Requester {
  userId: string;
  deviceId: string;
  accessToken: string;
  isGuest: boolean;
}

export interface HandlerRequest {
  method: string;
  /** The decoded path, without query. */
  path: string;
  /** Path parameters, URL-decoded. Null-prototype: ids like __proto__ are plain keys. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body bytes. */
  rawBody: Buffer;
  /** The JSON body when the request had one; {} when it had none. Handlers check shapes. */
  body: unknown;
  /** Set when the route requires or accepts auth and a valid token was given. */
  requester?: Requester;
  /** Aborted when the client goes away (long-polls stop early). */
  signal: AbortSignal;
  /** The base URL the server is reachable on, e.g. http://127.0.0.1:8008. */
  baseUrl: string;
}

export interface HandlerResponse {
  status?: number;
  /** JSON body. */
  body?: unknown;
  /** Raw body (media, HTML pages). */
  raw?: { contentType: string; data: Buffer | string; headers?: Record<string, string> };
  headers?: Record<string, string>;
}

/** A handler returns a HandlerResponse, or a plain JSON object for 200. */
export type Handler = (
  req: HandlerRequest,
) => Promise<HandlerResponse | JsonObject> | HandlerResponse | JsonObject;

/** "required": 401 without a valid token; "optional": requester set when valid; "none": ignored. */
export type AuthMode = "required" | "optional" | "none";

export interface RouteOptions {
  auth?: AuthMode;
  /** Allow guests (default false for required-auth routes: M_GUEST_ACCESS_FORBIDDEN). */
  guests?: boolean;
  /** Largest accepted body in bytes (default 1 MiB for JSON). */
  maxBodyBytes?: number;
  /** Body is raw (uploads): skip JSON parsing. */
  rawBody?: boolean;
}

/** Returns a JSON response with a status. */
export function respond(status: number, body: unknown): HandlerResponse {
  return { status, body };
}

/** Narrows an unknown JSON body to an object or throws M_BAD_JSON / M_NOT_JSON semantics. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
