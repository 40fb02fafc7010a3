/**
 * Room event decryption: turns an m.room.encrypted timeline event into its
 * clear form, or into an m.bad.encrypted message whose body is
 * '** Unable to decrypt: <reason> **' (SPEC §8). Failures are classified so
 * the UI can tell expected ones (the message predates this device, the key
 * was withheld, we were not in the room) from real ones. Either way the
 * result carries a `DecryptionInfo` under unsigned[DECRYPTION_INFO_KEY].
 */
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { ClientEventWithoutRoomId, EventContent } from "../api/types/events";
import { badEncryptedContent } from "../models/replies";
import type { Engine } from "./load";

/** The unsigned key under which decrypted and undecryptable events carry their DecryptionInfo. */
export const DECRYPTION_INFO_KEY = "io.lattice.decryption";

/** Why an event could not be decrypted. */
export type DecryptionFailureCode =
  | "missing_room_key"
  | "unknown_message_index"
  | "historical_message"
  | "not_joined"
  | "withheld"
  | "mismatched_identity_keys"
  | "unknown_sender_device"
  | "unsigned_sender_device"
  | "sender_identity_changed"
  | "unable_to_decrypt";

/** A failed decryption: the code, the reason shown, and whether it is expected. */
export interface DecryptionFailure {
  code: DecryptionFailureCode;
  reason: string;
  /**
   * Expected failures are not bugs: the message predates this device, the
   * sender withheld the key, or we were not a member when it was sent.
   */
  expected: boolean;
  /**
   * When the sender withheld the key: the engine's text for the withheld
   * code (m.blacklisted gives "The sender has blocked you.").
   */
  withheld?: string;
}

/** What the crypto layer attaches to an event it handled. */
export interface DecryptionInfo {
  /** The Megolm session of the event, from its wire content. */
  sessionId?: string;
  senderCurve25519Key?: string;
  senderDevice?: string;
  /** Set when decryption failed. */
  failure?: DecryptionFailure;
}

/** The result of one decryption attempt. */
export interface RoomEventDecryption {
  /** The event to show: clear, or an m.bad.encrypted message. */
  event: ClientEventWithoutRoomId;
  info: DecryptionInfo;
}

/** The DecryptionInfo attached to an event, when the crypto layer handled it. */
export function decryptionInfoOf(event: ClientEventWithoutRoomId): DecryptionInfo | undefined {
  const info = event.unsigned?.[DECRYPTION_INFO_KEY];
  return info !== null && typeof info === "object" ? info : undefined;
}

/** The session id of an encrypted event's wire content, when present. */
export function sessionIdOf(event: ClientEventWithoutRoomId): string | undefined {
  const id = event.content["session_id"];
  return typeof id === "string" ? id : undefined;
}

export const REASON_MISSING_KEY = "The sender's device has not sent us the keys for this message.";
export const REASON_HISTORICAL = "This message was sent before this device signed in.";
export const REASON_NOT_JOINED = "You were not a member of the room when this message was sent.";

const CODE_NAMES: readonly DecryptionFailureCode[] = [
  "missing_room_key",
  "unknown_message_index",
  "mismatched_identity_keys",
  "unknown_sender_device",
  "unsigned_sender_device",
  "sender_identity_changed",
  "unable_to_decrypt",
];

/**
 * Classifies a decryption error. A missing key is expected when the key was
 * withheld, when the event is older than this device (the "historical"
 * case), or when we were not joined at the event: as the server says
 * (MSC4115 `unsigned.membership`), else as `membershipAtEvent` (the room's
 * own state history) says.
 */
export function classifyFailure(
  engine: Pick<Engine, "MegolmDecryptionError" | "DecryptionErrorCode">,
  error: unknown,
  event: ClientEventWithoutRoomId,
  deviceCreatedAtMs: number,
  membershipAtEvent?: string,
): DecryptionFailure {
  if (!(error instanceof engine.MegolmDecryptionError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: "unable_to_decrypt", reason: message, expected: false };
  }
  const C = engine.DecryptionErrorCode;
  const code = CODE_NAMES[error.code] ?? "unable_to_decrypt";
  if (error.code === C.MissingRoomKey || error.code === C.UnknownMessageIndex) {
    const withheld = error.maybe_withheld;
    if (withheld !== undefined && withheld !== "") {
      return { code: "withheld", reason: withheld, expected: true, withheld };
    }
    if (event.origin_server_ts < deviceCreatedAtMs) {
      return { code: "historical_message", reason: REASON_HISTORICAL, expected: true };
    }
    const told = event.unsigned?.membership;
    const membership = typeof told === "string" ? told : membershipAtEvent;
    if (typeof membership === "string" && membership !== "join") {
      return { code: "not_joined", reason: REASON_NOT_JOINED, expected: true };
    }
    return { code, reason: REASON_MISSING_KEY, expected: false };
  }
  return { code, reason: error.description, expected: false };
}

/** Whether a failure could be cured by a key arriving later (to-device, forwarded, backup). */
export function waitsForKey(failure: DecryptionFailure): boolean {
  return (
    failure.code === "missing_room_key" ||
    failure.code === "unknown_message_index" ||
    failure.code === "historical_message" ||
    failure.code === "not_joined" ||
    failure.code === "withheld"
  );
}

function withInfo(
  event: ClientEventWithoutRoomId,
  info: DecryptionInfo,
): ClientEventWithoutRoomId["unsigned"] {
  return { ...event.unsigned, [DECRYPTION_INFO_KEY]: info };
}

/** The m.bad.encrypted stand-in for an undecryptable event: same id, sender and time. */
export function undecryptableEvent(
  event: ClientEventWithoutRoomId,
  failure: DecryptionFailure,
): RoomEventDecryption {
  const sessionId = sessionIdOf(event);
  const info: DecryptionInfo = { ...(sessionId !== undefined ? { sessionId } : {}), failure };
  return {
    event: {
      ...event,
      type: "m.room.message",
      content: badEncryptedContent(failure.reason),
      unsigned: withInfo(event, info),
    },
    info,
  };
}

function objectOrEmpty(value: unknown): EventContent {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as EventContent) : {};
}

/**
 * Decrypts one room event with the engine. Never throws: a failure gives the
 * m.bad.encrypted stand-in with its classified reason.
 */
export async function decryptRoomEvent(
  engine: Engine,
  machine: OlmMachine,
  roomId: string,
  event: ClientEventWithoutRoomId,
  /** The viewer's membership at the event from the room's history, for servers without MSC4115. */
  membershipAt?: (event: ClientEventWithoutRoomId) => string | undefined,
): Promise<RoomEventDecryption> {
  let decrypted;
  try {
    const settings = new engine.DecryptionSettings(engine.TrustRequirement.Untrusted);
    decrypted = await machine.decryptRoomEvent(
      JSON.stringify({ ...event, room_id: roomId }),
      new engine.RoomId(roomId),
      settings,
    );
  } catch (error) {
    return undecryptableEvent(
      event,
      classifyFailure(engine, error, event, machine.deviceCreationTimeMs, membershipAt?.(event)),
    );
  }
  try {
    const clear = objectOrEmpty(JSON.parse(decrypted.event));
    const type = clear["type"];
    const content = { ...objectOrEmpty(clear["content"]) };
    // Relations stay in the clear on the wire (so servers can aggregate them): keep them when the payload has none.
    const relation = event.content["m.relates_to"];
    if (content["m.relates_to"] === undefined && relation !== undefined) content["m.relates_to"] = relation;
    const sessionId = sessionIdOf(event);
    const info: DecryptionInfo = {
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(decrypted.senderCurve25519Key !== undefined
        ? { senderCurve25519Key: decrypted.senderCurve25519Key }
        : {}),
      ...(decrypted.senderDevice !== undefined ? { senderDevice: decrypted.senderDevice.toString() } : {}),
    };
    if (typeof type !== "string") throw new TypeError("decrypted payload has no type");
    return { event: { ...event, type, content, unsigned: withInfo(event, info) }, info };
  } catch (error) {
    return undecryptableEvent(event, {
      code: "unable_to_decrypt",
      reason: error instanceof Error ? error.message : String(error),
      expected: false,
    });
  } finally {
    decrypted.free();
  }
}
