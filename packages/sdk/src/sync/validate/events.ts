/**
 * Validation of single events from untrusted sync JSON. Each parser returns a
 * fresh object holding only the validated fields, or null after recording
 * why the event was dropped in the batch's DropLog. Nothing here throws.
 *
 * Immutability contract: a returned event is deeply frozen (its content and
 * unsigned are frozen while they are checked). Events flow unchanged from
 * here into the accumulator, the emitted batches and the Store, which can
 * therefore share them instead of copying them; whoever needs a changed
 * event (decryption, redaction) builds a new one.
 */
import type { Logger } from "../../util/logger";
import type {
  BasicEvent,
  ClientEventWithoutRoomId,
  StrippedStateEvent,
  ToDeviceEvent,
} from "../../api/types/events";
import { checkJson, isBoundedString, isFiniteNumber, isJsonObject } from "./json";
import { intern } from "./intern";
import type { ValidationLimits } from "./limits";
import { MAX_DROP_LOG_LINES } from "./limits";

/**
 * Collects the items one batch dropped and logs each with its reason, up to
 * a bound, so a hostile server cannot flood the log.
 */
export class DropLog {
  private dropped = 0;

  constructor(
    private readonly logger: Pick<Logger, "warn">,
    private readonly maxLines = MAX_DROP_LOG_LINES,
  ) {}

  /** How many items were dropped so far. */
  get count(): number {
    return this.dropped;
  }

  /** Records one dropped item: `what` says where it was, `reason` why. */
  drop(what: string, reason: string, id?: unknown): void {
    this.dropped += 1;
    if (this.dropped > this.maxLines) return;
    const shown = typeof id === "string" && id.length > 0 ? ` ${id.slice(0, 100)}` : "";
    this.logger.warn(`Sync: dropped ${what}${shown}: ${reason}`);
  }

  /** Logs a summary of the drops beyond the per-batch bound. */
  finish(): void {
    if (this.dropped > this.maxLines) {
      this.logger.warn(`Sync: dropped ${this.dropped - this.maxLines} more items in this batch`);
    }
  }
}

/** What every event parser needs. */
export interface ParseContext {
  limits: ValidationLimits;
  drops: DropLog;
}

/** A string id of the given sigil within the id bound. */
function isSigilId(value: unknown, sigil: string, limits: ValidationLimits): value is string {
  return isBoundedString(value, limits.maxIdLength) && value.startsWith(sigil);
}

/**
 * A room event (timeline or state). `seen` holds event ids already taken in
 * the same section of this batch; a repeat is dropped.
 */
export function parseRoomEvent(
  raw: unknown,
  ctx: ParseContext,
  where: string,
  seen?: Set<string>,
): ClientEventWithoutRoomId | null {
  if (!isJsonObject(raw)) return reject(ctx, where, "not an object");
  const id = raw["event_id"];
  if (!isSigilId(id, "$", ctx.limits)) return reject(ctx, where, "missing or invalid event_id", id);
  if (!isBoundedString(raw["type"], ctx.limits.maxIdLength)) {
    return reject(ctx, where, "missing or invalid type", id);
  }
  if (!isSigilId(raw["sender"], "@", ctx.limits)) return reject(ctx, where, "missing or invalid sender", id);
  if (!isFiniteNumber(raw["origin_server_ts"])) {
    return reject(ctx, where, "missing or invalid origin_server_ts", id);
  }
  const content = raw["content"];
  if (!isJsonObject(content)) return reject(ctx, where, "content is not an object", id);
  const stateKey = raw["state_key"];
  if (
    stateKey !== undefined &&
    (typeof stateKey !== "string" || stateKey.length > ctx.limits.maxStringLength)
  ) {
    return reject(ctx, where, "invalid state_key", id);
  }
  const bad = checkJson(content, ctx.limits, true);
  if (bad !== null) return reject(ctx, where, `content has ${bad}`, id);
  // A malformed unsigned block is extra data the server adds: ignore it rather than lose the event.
  const unsigned = isJsonObject(raw["unsigned"]) ? raw["unsigned"] : undefined;
  if (unsigned !== undefined) {
    const badUnsigned = checkJson(unsigned, ctx.limits, true);
    if (badUnsigned !== null) return reject(ctx, where, `unsigned has ${badUnsigned}`, id);
  }
  if (seen) {
    if (seen.has(id)) return reject(ctx, where, "duplicate event_id in this batch", id);
    seen.add(id);
  }
  const type = intern(raw["type"]);
  const sender = intern(raw["sender"]);
  const ts = raw["origin_server_ts"];
  // Whole literals rather than fields added afterwards: an added field moves the object's
  // properties out of line (an extra backing store for each of a hundred thousand events).
  let event: ClientEventWithoutRoomId;
  if (stateKey === undefined) {
    event =
      unsigned === undefined
        ? { event_id: id, type, sender, origin_server_ts: ts, content }
        : { event_id: id, type, sender, origin_server_ts: ts, content, unsigned };
  } else {
    const key = intern(stateKey);
    event =
      unsigned === undefined
        ? { event_id: id, type, sender, origin_server_ts: ts, content, state_key: key }
        : { event_id: id, type, sender, origin_server_ts: ts, content, state_key: key, unsigned };
  }
  const redacts = raw["redacts"];
  if (isSigilId(redacts, "$", ctx.limits)) event.redacts = redacts;
  return Object.freeze(event);
}

/** A state event: a room event that carries a state key. */
export function parseStateEvent(
  raw: unknown,
  ctx: ParseContext,
  where: string,
  seen?: Set<string>,
): ClientEventWithoutRoomId | null {
  if (isJsonObject(raw) && typeof raw["state_key"] !== "string") {
    return reject(ctx, where, "state event without a state_key", raw["event_id"]);
  }
  return parseRoomEvent(raw, ctx, where, seen);
}

/** A stripped state event (invite_state, knock_state). */
export function parseStrippedEvent(
  raw: unknown,
  ctx: ParseContext,
  where: string,
): StrippedStateEvent | null {
  if (!isJsonObject(raw)) return reject(ctx, where, "not an object");
  const { type, state_key: stateKey, sender, content } = raw;
  if (!isBoundedString(type, ctx.limits.maxIdLength)) return reject(ctx, where, "missing or invalid type");
  if (typeof stateKey !== "string" || stateKey.length > ctx.limits.maxStringLength) {
    return reject(ctx, where, "missing or invalid state_key", type);
  }
  if (!isSigilId(sender, "@", ctx.limits)) return reject(ctx, where, "missing or invalid sender", type);
  if (!isJsonObject(content)) return reject(ctx, where, "content is not an object", type);
  const bad = checkJson(content, ctx.limits, true);
  if (bad !== null) return reject(ctx, where, `content has ${bad}`, type);
  return Object.freeze({ type: intern(type), state_key: intern(stateKey), sender: intern(sender), content });
}

/** A basic event: account data and ephemeral events. */
export function parseBasicEvent(raw: unknown, ctx: ParseContext, where: string): BasicEvent | null {
  if (!isJsonObject(raw)) return reject(ctx, where, "not an object");
  const { type, content } = raw;
  if (!isBoundedString(type, ctx.limits.maxIdLength)) return reject(ctx, where, "missing or invalid type");
  if (!isJsonObject(content)) return reject(ctx, where, "content is not an object", type);
  const bad = checkJson(content, ctx.limits, true);
  if (bad !== null) return reject(ctx, where, `content has ${bad}`, type);
  return Object.freeze({ type: intern(type), content });
}

/** A basic event with a sender: presence and to-device events. */
export function parseSenderEvent(raw: unknown, ctx: ParseContext, where: string): ToDeviceEvent | null {
  const basic = parseBasicEvent(raw, ctx, where);
  if (!basic) return null;
  const sender = (raw as Record<string, unknown>)["sender"];
  if (!isSigilId(sender, "@", ctx.limits)) return reject(ctx, where, "missing or invalid sender", basic.type);
  return Object.freeze({ ...basic, sender });
}

function reject(ctx: ParseContext, where: string, reason: string, id?: unknown): null {
  ctx.drops.drop(where, reason, id);
  return null;
}
