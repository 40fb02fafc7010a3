/**
 * Where a "join" box or a link points: a room id, a room alias, or a
 * matrix.to / matrix: URI naming either (with its via servers and an
 * optional event). Untrusted input: anything else is null.
 */

/** A room to join, from an id, alias or link. */
export interface JoinTarget {
  /** A room id (!…) or alias (#…). */
  readonly roomIdOrAlias: string;
  /** Servers to join through (via=), from the link. */
  readonly via: readonly string[];
  /** The event the link pointed at, if any. */
  readonly eventId?: string;
}

const ROOM_ID = /^![^:\s]+(:[^\s]+)?$/;
const ALIAS = /^#[^:\s]+:[^\s]+$/;

function isRoomRef(value: string): boolean {
  return value.length <= 255 && (ROOM_ID.test(value) || ALIAS.test(value));
}

function viaOf(params: URLSearchParams): string[] {
  return params.getAll("via").filter((s) => s !== "" && s.length <= 255 && !/\s/.test(s));
}

/** Parses a room id, an alias, a https://matrix.to/#/… link or a matrix:r/ or matrix:roomid/ URI. */
export function parseJoinTarget(input: string): JoinTarget | null {
  const text = input.trim();
  if (isRoomRef(text)) return { roomIdOrAlias: text, via: [] };
  const matrixTo = /^https?:\/\/matrix\.to\/#\/(.+)$/i.exec(text);
  if (matrixTo !== null) {
    const [path = "", query = ""] = (matrixTo[1] ?? "").split("?", 2);
    const [room = "", event] = path.split("/").map((p) => safeDecode(p));
    if (!isRoomRef(room)) return null;
    const eventId = event !== undefined && event.startsWith("$") ? event : undefined;
    return { roomIdOrAlias: room, via: viaOf(new URLSearchParams(query)), ...(eventId ? { eventId } : {}) };
  }
  const uri = /^matrix:(r|roomid)\/([^?/]+)(?:\/e\/([^?/]+))?(?:\?(.*))?$/i.exec(text);
  if (uri !== null) {
    const sigil = uri[1]?.toLowerCase() === "r" ? "#" : "!";
    const room = sigil + safeDecode(uri[2] ?? "");
    if (!isRoomRef(room)) return null;
    const event = uri[3] !== undefined ? `$${safeDecode(uri[3])}` : undefined;
    return {
      roomIdOrAlias: room,
      via: viaOf(new URLSearchParams(uri[4] ?? "")),
      ...(event ? { eventId: event } : {}),
    };
  }
  return null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "";
  }
}

/** The server part of a room id or alias ("example.org" of "#a:example.org"), if any. */
export function serverOf(idOrAlias: string): string | undefined {
  const at = idOrAlias.indexOf(":");
  return at < 0 ? undefined : idOrAlias.slice(at + 1);
}

const USER_ID = /^@[^:\s]+:[^\s]+$/;

/**
 * The user a link names: a user id, a https://matrix.to/#/@user:server link
 * or a matrix:u/user:server URI; anything else is null.
 */
export function parseUserLink(input: string): string | null {
  const text = input.trim();
  const matrixTo = /^https?:\/\/matrix\.to\/#\/([^?/]+)(?:\?.*)?$/i.exec(text);
  const uri = /^matrix:u\/([^?/]+)(?:\?.*)?$/i.exec(text);
  const id =
    matrixTo !== null ? safeDecode(matrixTo[1] ?? "") : uri !== null ? `@${safeDecode(uri[1] ?? "")}` : text;
  return id.length <= 255 && USER_ID.test(id) ? id : null;
}
