/**
 * The app's routes in the URL hash and the in-app targets of links. A room
 * is `#/room/<roomId or alias>`, an event in it `#/room/<roomId>/<eventId>`;
 * anything else is home. Links in messages (matrix.to, matrix: URIs, the
 * app's own #/room/ links) become a room, event or user target through the
 * SDK's permalink parser; other links are not the app's business.
 */
import { parseJoinTarget, parseUserLink } from "../../sdk";

/** Where the hash points. */
export type Route =
  | { readonly kind: "home" }
  | {
      readonly kind: "room";
      /** A room id (!…) or alias (#…). */
      readonly roomIdOrAlias: string;
      readonly eventId?: string;
      /** Servers to join through (from a link). */
      readonly via: readonly string[];
    };

/** What a link in a message opens inside the app. */
export type LinkTarget =
  Extract<Route, { kind: "room" }> | { readonly kind: "user"; readonly userId: string };

export const HOME: Route = { kind: "home" };

/** Encodes one hash segment, keeping the sigils and colons of Matrix ids readable. */
function segment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ":").replace(/%40/gi, "@").replace(/%24/gi, "$");
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The route a location hash names ("#/room/…"); home for anything else. */
export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, "");
  const m = /^\/room\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?(.*))?$/.exec(path);
  if (m === null) return HOME;
  const room = decode(m[1] ?? "");
  const event = m[2] !== undefined ? decode(m[2]) : undefined;
  if (room === null || event === null) return HOME;
  const target = parseJoinTarget(room);
  if (target === null) return HOME;
  const via = new URLSearchParams(m[3] ?? "").getAll("via").filter((s) => s !== "" && !/\s/.test(s));
  return {
    kind: "room",
    roomIdOrAlias: target.roomIdOrAlias,
    via,
    ...(event !== undefined && event.startsWith("$") ? { eventId: event } : {}),
  };
}

/** The hash of a route ("" for home). */
export function hashOf(route: Route): string {
  if (route.kind === "home") return "";
  const event = route.eventId !== undefined ? `/${segment(route.eventId)}` : "";
  const via =
    route.via.length > 0 ? `?${route.via.map((v) => `via=${encodeURIComponent(v)}`).join("&")}` : "";
  return `#/room/${segment(route.roomIdOrAlias)}${event}${via}`;
}

/** Whether two routes name the same room and event. */
export function sameRoute(a: Route, b: Route): boolean {
  if (a.kind === "home" || b.kind === "home") return a.kind === b.kind;
  return a.roomIdOrAlias === b.roomIdOrAlias && a.eventId === b.eventId;
}

/**
 * What a link opens inside the app: a room (switch), an event (jump) or a
 * user (the user panel). Null for every other link, which keeps opening in
 * a new tab.
 */
export function linkTargetOf(href: string): LinkTarget | null {
  const text = href.trim();
  if (text.startsWith("#/")) {
    const route = parseHash(text);
    return route.kind === "room" ? route : null;
  }
  if (!/^(https?:\/\/matrix\.to\/|matrix:)/i.test(text)) return null;
  const user = parseUserLink(text);
  if (user !== null) return { kind: "user", userId: user };
  const room = parseJoinTarget(text);
  if (room === null) return null;
  return {
    kind: "room",
    roomIdOrAlias: room.roomIdOrAlias,
    via: room.via,
    ...(room.eventId !== undefined ? { eventId: room.eventId } : {}),
  };
}

/** A shareable matrix.to link of a room (or of an event in it). */
export function permalinkOf(roomIdOrAlias: string, eventId?: string): string {
  const event = eventId !== undefined ? `/${encodeURIComponent(eventId)}` : "";
  return `https://matrix.to/#/${encodeURIComponent(roomIdOrAlias)}${event}`;
}
