/**
 * Turning an authorised candidate into a stored event: size limit, event id
 * (the room version's format), stream position, depth, redaction of the
 * target, and the wake-up of long-polls.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject, StoredEvent } from "../core/events";
import { errors, MatrixHttpError } from "../http/errors";
import type { Candidate, MembershipLookup } from "./auth";
import { authorize } from "./auth";
import { PowerLevels } from "./power";
import type { Room } from "./room";
import { redactsInContent } from "./versions";

/** Events over this many bytes of JSON are refused (spec: 65536). */
export const MAX_EVENT_BYTES = 65536;

export interface AppendOptions {
  txn?: { userId: string; deviceId: string; txnId: string };
  /** Skip the authorisation rules (only for the server's own bootstrap). */
  skipAuth?: boolean;
  /** A fixed event id (v12 create events, whose id is the room id's hash). */
  eventId?: string;
}

/** Authorises, stores and announces an event. Throws MatrixHttpError when refused. */
export function appendEvent(
  ctx: ServerContext,
  room: Room,
  candidate: Candidate,
  lookup: MembershipLookup,
  options: AppendOptions = {},
): StoredEvent {
  if (!options.skipAuth) authorize(room, candidate, lookup);
  const redacts = candidate.type === "m.room.redaction" ? redactTarget(room, candidate) : undefined;
  const eventId = options.eventId ?? newEventId(ctx, room.version);
  const event: StoredEvent = {
    event_id: eventId,
    room_id: room.roomId,
    type: candidate.type,
    sender: candidate.sender,
    origin_server_ts: ctx.clock.now(),
    content: candidate.content,
    stream: 0,
    depth: room.events.length + 1,
  };
  if (candidate.state_key !== undefined) event.state_key = candidate.state_key;
  if (redacts && !redactsInContent(room.version)) event.redacts = redacts.event_id;
  if (options.txn) event.txn = options.txn;
  const size = Buffer.byteLength(JSON.stringify({ ...event, stream: undefined, depth: undefined }), "utf8");
  if (size > MAX_EVENT_BYTES) throw new MatrixHttpError(413, "M_TOO_LARGE", "Event too large");
  // Append and advance in one synchronous step: woken long-polls run later.
  event.stream = ctx.notifier.advance();
  room.append(event);
  if (redacts && !redacts.redactedBy) redacts.redactedBy = event;
  return event;
}

/** For v1 and v2 event ids carry the server name; later versions use a hash. */
export function newEventId(ctx: ServerContext, version: string): string {
  const id = ctx.ids.eventId();
  return version === "1" || version === "2" ? `${id.slice(0, 19)}:${ctx.serverName}` : id;
}

function redactTarget(room: Room, c: Candidate): StoredEvent | undefined {
  const id = c.content["redacts"];
  if (typeof id !== "string") throw errors.badJson("redacts must be an event id");
  const target = room.byId.get(id);
  if (!target) return undefined;
  if (target.sender !== c.sender) {
    const pl = PowerLevels.of(room);
    if (pl.userLevel(c.sender) < pl.action("redact"))
      throw errors.forbidden("You don't have permission to redact events");
  }
  return target;
}

/** Content for a membership event: the profile of the target on join and invite. */
export function memberContent(
  ctx: ServerContext,
  target: string,
  membership: string,
  extra: JsonObject = {},
): JsonObject {
  const content: JsonObject = { membership };
  if (membership === "join" || membership === "invite") {
    const profile = ctx.accounts.profile(target);
    if (profile?.displayname !== undefined) content["displayname"] = profile.displayname;
    if (profile?.avatar_url !== undefined) content["avatar_url"] = profile.avatar_url;
  }
  return { ...content, ...extra, membership };
}
