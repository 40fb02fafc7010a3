/**
 * Undecryptable messages in words. The SDK replaces an event it cannot
 * decrypt by an m.bad.encrypted message whose body is
 * '** Unable to decrypt: <reason> **' (SPEC §8) — that body stays the
 * message's plain text (copy, export, search) — and attaches the classified
 * failure (`decryptionInfoOf(event).failure`). The timeline does not show
 * the engine's reason (a parser error such as "The message didn't have a
 * valid version…") as the message: it shows one of a few categories a
 * person understands, and keeps the technical detail for a "Details"
 * disclosure. See docs/architecture/0014-chat-ux.md.
 */
import { decryptionInfoOf } from "../../sdk";
import type { DecryptionFailure } from "../../sdk";

/**
 * The categories (their strings are the timeline's `utd_<kind>`):
 * - `waiting`: the sender's device has not sent us the keys (yet);
 * - `historical`: sent before this device signed in, and this device can
 *   read older messages once verified (the key backup) — or, when we know
 *   it is not verified, `own_unverified`: verify this device;
 * - `not_joined`: sent before you joined (or after you left);
 * - `unverified_device`: the sender's device is not verified by its owner;
 * - `identity_changed`: the sender's verified identity was reset;
 * - `withheld`: the sender withheld the keys, with the sender's reason;
 * - `unable`: anything else (a malformed or corrupt message).
 */
export type UtdKind =
  | "waiting"
  | "historical"
  | "own_unverified"
  | "not_joined"
  | "unverified_device"
  | "identity_changed"
  | "withheld"
  | "unable";

/** An undecryptable message explained: its category and the technical detail. */
export interface UtdExplanation {
  kind: UtdKind;
  /** The withheld reason, for `withheld`. */
  reason?: string;
  /**
   * For the "Details" disclosure: the message's body, SPEC §8's
   * '** Unable to decrypt: <reason> **' with the engine's reason.
   */
  detail: string;
  /** The failure code (e.g. `missing_room_key`), when the crypto layer classified it. */
  code?: string;
}

interface EventLike {
  readonly event_id?: string;
  readonly type: string;
  readonly sender: string;
  readonly origin_server_ts: number;
  readonly content: Readonly<Record<string, unknown>>;
  readonly unsigned?: Readonly<Record<string, unknown>>;
}

/** What we know of this device; `ownDeviceVerified` undefined when not known. */
export interface UtdContext {
  ownDeviceVerified?: boolean;
}

/** Whether an event is the m.bad.encrypted stand-in of an undecryptable one. */
export function isUndecryptable(event: Pick<EventLike, "type" | "content">): boolean {
  return event.type === "m.room.message" && event.content["msgtype"] === "m.bad.encrypted";
}

/** The category of a failure code (see UtdKind). */
export function kindOf(failure: DecryptionFailure, ctx: UtdContext = {}): UtdKind {
  switch (failure.code) {
    case "missing_room_key":
    case "unknown_message_index":
      return "waiting";
    case "historical_message":
      return ctx.ownDeviceVerified === false ? "own_unverified" : "historical";
    case "not_joined":
      return "not_joined";
    case "withheld":
      return "withheld";
    case "unknown_sender_device":
    case "unsigned_sender_device":
      return "unverified_device";
    case "sender_identity_changed":
      return "identity_changed";
    default:
      return "unable";
  }
}

/**
 * Explains an undecryptable message; null for any other event. Without the
 * crypto layer's failure (an old cached stand-in) it is `unable`, with the
 * body's reason as the detail.
 */
export function explainUtd(event: EventLike, ctx: UtdContext = {}): UtdExplanation | null {
  if (!isUndecryptable(event)) return null;
  const body = event.content["body"];
  const failure = decryptionInfoOf(event as Parameters<typeof decryptionInfoOf>[0])?.failure;
  if (failure === undefined || typeof failure.code !== "string") {
    return { kind: "unable", detail: typeof body === "string" ? body : "" };
  }
  const kind = kindOf(failure, ctx);
  return {
    kind,
    ...(kind === "withheld" ? { reason: failure.withheld ?? failure.reason } : {}),
    detail: typeof body === "string" ? body : failure.reason,
    code: failure.code,
  };
}
