/**
 * Path routing for the test homeserver. Patterns use `:name` for one path
 * segment and a trailing `*name` for the rest of the path (possibly empty).
 * An unknown path answers 404 M_UNRECOGNIZED, a known path with the wrong
 * method 405 M_UNRECOGNIZED, as current Synapse does.
 */
import type { Handler, RouteOptions } from "./types";

interface Route {
  method: string;
  segments: string[];
  rest?: string;
  handler: Handler;
  options: RouteOptions;
}

export interface RouteMatch {
  handler: Handler;
  options: RouteOptions;
  params: Record<string, string>;
}

/** Client-server paths registered under /_matrix/client/{v3,r0} (and v1 via `clientV1`). */
export const CLIENT_V3 = ["/_matrix/client/v3", "/_matrix/client/r0"];
export const CLIENT_V1 = ["/_matrix/client/v1"];

export class Router {
  private routes: Route[] = [];

  /** Registers a handler for each prefix + pattern. */
  add(
    method: string,
    prefixes: readonly string[] | string,
    pattern: string,
    handler: Handler,
    options: RouteOptions = {},
  ): void {
    const list = typeof prefixes === "string" ? [prefixes] : prefixes;
    for (const prefix of list) {
      const full = prefix + pattern;
      const parts = full.split("/").filter((s) => s.length > 0);
      let rest: string | undefined;
      const last = parts[parts.length - 1];
      if (last?.startsWith("*")) {
        rest = last.slice(1);
        parts.pop();
      }
      this.routes.push({ method: method.toUpperCase(), segments: parts, rest, handler, options });
    }
  }

  /** Finds the route for a request; "method" when only the method differs. */
  match(method: string, path: string): RouteMatch | "method" | undefined {
    const raw = path.split("/").filter((s) => s.length > 0);
    let methodMismatch = false;
    for (const route of this.routes) {
      const params = matchSegments(route, raw);
      if (!params) continue;
      if (route.method !== method.toUpperCase()) {
        methodMismatch = true;
        continue;
      }
      return { handler: route.handler, options: route.options, params };
    }
    return methodMismatch ? "method" : undefined;
  }
}

function matchSegments(route: Route, raw: string[]): Record<string, string> | undefined {
  if (route.rest === undefined ? raw.length !== route.segments.length : raw.length < route.segments.length) {
    return undefined;
  }
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < route.segments.length; i++) {
    const want = route.segments[i] as string;
    const got = raw[i] as string;
    if (want.startsWith(":")) {
      const value = safeDecode(got);
      if (value === undefined) return undefined;
      params[want.slice(1)] = value;
    } else if (want !== got) {
      return undefined;
    }
  }
  if (route.rest !== undefined) {
    const rest = raw.slice(route.segments.length).map(safeDecode);
    if (rest.some((s) => s === undefined)) return undefined;
    params[route.rest] = rest.join("/");
  }
  return params;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
