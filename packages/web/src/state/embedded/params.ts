/**
 * The embedded page's URL parameters, named as Element Call names them so a
 * host that embeds Element Call can embed Lattice with the same URL: the
 * query (`widgetId`, `parentUrl`, which hosts append) and the fragment
 * (`#?roomId=…&userId=…`), the query winning. `view` (room or call) is
 * Lattice's own; without it the page is a call, as Element Call is.
 */

/** Theme names a host may pass. */
export type EmbeddedTheme = "light" | "dark" | "system";

/** What the URL says. */
export interface EmbeddedParams {
  widgetId: string | null;
  /** The host's origin (from parentUrl): we post only there and accept only from there. */
  parentOrigin: string | undefined;
  roomId: string | null;
  userId: string | null;
  deviceId: string | null;
  baseUrl: string | null;
  view: "room" | "call";
  theme: EmbeddedTheme;
  lang: string | null;
  /** Font scale (1 = 100 %). */
  fontScale: number;
  /** Element Call intents: start_call, join_existing and their _voice and _dm variants. */
  intent: string | null;
  perParticipantE2EE: boolean;
  /** No header: hideHeader=true or header=none. */
  hideHeader: boolean;
  skipLobby: boolean;
  confineToRoom: boolean;
  hideScreensharing: boolean;
}

/** The names of the required parameters, for the error page. */
export const REQUIRED_PARAMS = ["widgetId", "roomId", "userId", "deviceId"] as const;

function themeOf(value: string | null): EmbeddedTheme {
  if (value === null) return "system";
  if (value.includes("dark")) return "dark";
  if (value.includes("light")) return "light";
  return "system";
}

function flag(value: string | null, fallback: boolean): boolean {
  if (value === null) return fallback;
  return value === "" || value === "true" || value === "1";
}

/** Reads the parameters of `href`. */
export function embeddedParamsOf(href: string): EmbeddedParams {
  const url = new URL(href);
  const hash = url.hash.startsWith("#?") ? url.hash.slice(2) : url.hash.replace(/^#/, "");
  const fragment = new URLSearchParams(hash.includes("=") ? hash : "");
  const get = (name: string): string | null => url.searchParams.get(name) ?? fragment.get(name);
  let parentOrigin: string | undefined;
  const parentUrl = get("parentUrl");
  if (parentUrl) {
    try {
      const origin = new URL(parentUrl).origin;
      parentOrigin = origin === "null" ? undefined : origin;
    } catch {
      parentOrigin = undefined;
    }
  }
  const scale = Number(get("fontScale") ?? "1");
  return {
    widgetId: get("widgetId"),
    parentOrigin,
    roomId: get("roomId"),
    userId: get("userId"),
    deviceId: get("deviceId"),
    baseUrl: get("baseUrl"),
    view: get("view") === "room" ? "room" : "call",
    theme: themeOf(get("theme")),
    lang: get("lang"),
    fontScale: Number.isFinite(scale) && scale > 0 ? scale : 1,
    intent: get("intent"),
    perParticipantE2EE: flag(get("perParticipantE2EE"), true),
    hideHeader: flag(get("hideHeader"), false) || get("header") === "none",
    skipLobby: flag(get("skipLobby"), false),
    confineToRoom: flag(get("confineToRoom"), false),
    hideScreensharing: flag(get("hideScreensharing"), false),
  };
}

/** The required parameters missing from `params`. */
export function missingParams(params: EmbeddedParams): string[] {
  return REQUIRED_PARAMS.filter((name) => params[name] === null);
}
