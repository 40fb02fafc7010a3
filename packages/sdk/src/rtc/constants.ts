/**
 * MatrixRTC names and numbers in one place: the event types both membership
 * forms and both key transports use, SPEC §9's key and call constants, and
 * SPEC §8's messages. Everything else in `rtc/` imports them from here so a
 * test can assert the literal once.
 */

/** The state form of a call membership (MSC3401 as Element Call writes it). */
export const CALL_MEMBER_EVENT = "org.matrix.msc3401.call.member";
/** The sticky form of a call membership (MSC4143 over MSC4354 sticky events). */
export const RTC_MEMBER_EVENT = "org.matrix.msc4143.rtc.member";
/** Media keys, as a room event and as an Olm-encrypted to-device message. */
export const ENCRYPTION_KEYS_EVENT = "io.element.call.encryption_keys";
/** The current ring / notification event (MSC4075). */
export const RTC_NOTIFICATION_EVENT = "org.matrix.msc4075.rtc.notification";
/** The deprecated ring event older peers still send and read. */
export const CALL_NOTIFY_EVENT = "org.matrix.msc4075.call.notify";
/** A callee's decline of a ring (MSC4310). */
export const RTC_DECLINE_EVENT = "org.matrix.msc4310.rtc.decline";

/** A reaction in a call (Element Call's form): an m.reference to the sender's membership event. */
export const CALL_REACTION_EVENT = "io.element.call.reaction";

/** The application of a call, and the scope of a room-wide session. */
export const CALL_APPLICATION = "m.call";
export const ROOM_SCOPE = "m.room";
/** The slot id part of a room's call in the sticky form (state form: call_id ""). */
export const ROOM_SLOT = "ROOM";

/** /versions unstable flag of MSC4354 sticky events. */
export const STICKY_EVENTS_FEATURE = "org.matrix.msc4354";
/** Query parameter that makes a send sticky, and how long we ask for. */
export const STICKY_DURATION_PARAM = "org.matrix.msc4354.sticky_duration_ms";
export const STICKY_DURATION_MS = 3_600_000;

/** Leaving a session times out after this long (SPEC §9). */
export const CALL_LEAVE_TIMEOUT_MS = 1000;
/** How long a ring lasts (SPEC §9). */
export const CALL_NOTIFICATION_LIFETIME_MS = 30_000;

/** Key constants (SPEC §9 Keys). */
export const KEY_LENGTH_BYTES = 16;
export const KEY_INDEX_MODULUS = 256;
export const KEY_UPDATE_THROTTLE_MS = 3000;
export const MAKE_KEY_DELAY_MS = 3000;
export const USE_KEY_DELAY_MS = 5000;
export const TO_DEVICE_USE_KEY_DELAY_MS = 1000;
export const TO_DEVICE_KEY_GRACE_PERIOD_MS = 10_000;
/** Key sends back off up to about this long in total (SPEC §8). */
export const KEY_SEND_RETRY_BUDGET_MS = 5000;
/**
 * A member device a key send missed (no device keys or Olm session yet) gets the current key again
 * after this, doubling per miss up to KEY_REDELIVERY_MAX_MS, until it holds it.
 */
export const KEY_REDELIVERY_BASE_MS = 5000;
export const KEY_REDELIVERY_MAX_MS = 60_000;
/** A key that fails to decrypt is tried once more after this (SPEC §8). */
export const KEY_DECRYPT_RETRY_MS = 1000;

/** SPEC §8 messages. */
export { DELAYED_EVENTS_UNSUPPORTED } from "../api/errors";
export const TO_DEVICE_UNSUPPORTED = "The widget driver does not support to-device encryption";
