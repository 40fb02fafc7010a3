/**
 * The two key message forms, `io.element.call.encryption_keys` as an
 * Olm-encrypted to-device message and as a room event, built and read.
 * Reading drops a message for every case of SPEC §5 Key events: a missing
 * or different room id; missing keys, key or numeric index; a missing
 * claimed device id (to-device: or one other than the Olm sender device);
 * a non-empty call_id; keys not an array (room form); our own device. Keys must be strings with a numeric index.
 */
import { decodeBase64, encodeBase64 } from "../../crypto/attachments/base64";
import { CALL_APPLICATION, KEY_INDEX_MODULUS, ROOM_SCOPE } from "../constants";

/** One media key as it travels: unpadded base64 of the raw bytes. */
export interface WireKey {
  readonly index: number;
  readonly key: string;
}

/** A key that passed every check, with who sent it. */
export interface ReceivedKey {
  readonly userId: string;
  readonly deviceId: string;
  /** The sender's member id when the message names it (to-device member.id). */
  readonly memberId: string | undefined;
  readonly index: number;
  readonly key: Uint8Array;
  readonly sentTs: number | undefined;
  readonly transport: "to-device" | "room";
}

/** Who we are, to drop our own echoes, and the room of the session. */
export interface KeyContext {
  readonly roomId: string;
  readonly userId: string;
  readonly deviceId: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const own = (o: Json, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

export function encodeKey(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/** A wire key's bytes, or null when it is not a string of base64 or the index is not a key index. */
function readKey(entry: unknown): { index: number; key: Uint8Array } | null {
  if (!isObject(entry)) return null;
  const index = own(entry, "index");
  const key = own(entry, "key");
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= KEY_INDEX_MODULUS)
    return null;
  if (typeof key !== "string" || key.length === 0) return null;
  const bytes = decodeBase64(key, "standard");
  return bytes === null || bytes.length === 0 ? null : { index, key: bytes };
}

/** The to-device content for our key. */
export function toDeviceKeyContent(
  ctx: KeyContext,
  key: WireKey,
  sentTs: number,
  memberId?: string,
): Record<string, unknown> {
  return {
    keys: { index: key.index, key: key.key },
    room_id: ctx.roomId,
    member: { claimed_device_id: ctx.deviceId, ...(memberId !== undefined ? { id: memberId } : {}) },
    session: { call_id: "", application: CALL_APPLICATION, scope: ROOM_SCOPE },
    sent_ts: sentTs,
  };
}

/** The room event content for our keys. */
export function roomKeyContent(
  ctx: KeyContext,
  keys: readonly WireKey[],
  sentTs: number,
): Record<string, unknown> {
  return {
    keys: keys.map((k) => ({ index: k.index, key: k.key })),
    device_id: ctx.deviceId,
    call_id: "",
    sent_ts: sentTs,
  };
}

/**
 * Reads a decrypted to-device key message from `sender`'s device
 * `senderDevice`, the device whose Olm session decrypted it (as the crypto
 * layer reports it); null when it must be dropped. The key is bound to
 * that device: a message without one (not Olm-encrypted) or whose
 * `member.claimed_device_id` names another device is dropped, so a device
 * cannot pass its key off as another's. In embedded mode the host is the
 * crypto layer: `hostDecrypted` says it decrypted the message from
 * `sender`, and since the widget API names no device, the claimed one is
 * taken (the host vouches for the user, not the device).
 */
export function readToDeviceKey(
  ctx: KeyContext,
  sender: string,
  senderDevice: string | undefined,
  content: unknown,
  hostDecrypted = false,
): ReceivedKey | null {
  if (!isObject(content) || typeof sender !== "string") return null;
  const roomId = own(content, "room_id");
  if (typeof roomId !== "string" || roomId !== ctx.roomId) return null;
  const keys = own(content, "keys");
  const parsed = readKey(keys);
  if (parsed === null) return null;
  const member = own(content, "member");
  const claimed = isObject(member) ? own(member, "claimed_device_id") : undefined;
  if (typeof claimed !== "string" || claimed.length === 0) return null;
  const device = senderDevice ?? (hostDecrypted ? claimed : undefined);
  if (device === undefined || claimed !== device) return null;
  const session = own(content, "session");
  if (isObject(session)) {
    const callId = own(session, "call_id");
    if (callId !== undefined && callId !== "") return null;
  }
  if (sender === ctx.userId && device === ctx.deviceId) return null;
  const memberId = isObject(member) ? own(member, "id") : undefined;
  const sentTs = own(content, "sent_ts");
  return {
    userId: sender,
    deviceId: device,
    memberId: typeof memberId === "string" ? memberId : undefined,
    index: parsed.index,
    key: parsed.key,
    sentTs: typeof sentTs === "number" ? sentTs : undefined,
    transport: "to-device",
  };
}

/** Reads a room key event of `roomId`; every valid key of it, or [] when it must be dropped. */
export function readRoomKeys(
  ctx: KeyContext,
  roomId: string | undefined,
  sender: string,
  content: unknown,
): ReceivedKey[] {
  if (roomId === undefined || roomId !== ctx.roomId || !isObject(content) || typeof sender !== "string")
    return [];
  const keys = own(content, "keys");
  if (!Array.isArray(keys)) return [];
  const deviceId = own(content, "device_id");
  if (typeof deviceId !== "string" || deviceId.length === 0) return [];
  const callId = own(content, "call_id");
  if (callId !== undefined && callId !== "") return [];
  if (sender === ctx.userId && deviceId === ctx.deviceId) return [];
  const sentTs = own(content, "sent_ts");
  const out: ReceivedKey[] = [];
  for (const entry of keys as unknown[]) {
    const parsed = readKey(entry);
    if (parsed === null) return [];
    out.push({
      userId: sender,
      deviceId,
      memberId: undefined,
      index: parsed.index,
      key: parsed.key,
      sentTs: typeof sentTs === "number" ? sentTs : undefined,
      transport: "room",
    });
  }
  return out;
}
