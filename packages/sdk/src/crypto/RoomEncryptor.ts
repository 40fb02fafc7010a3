/**
 * Megolm encryption on send. For an encrypted room it tracks the users who
 * should get the room key (joined members, and invited ones unless the
 * history visibility is "joined"), makes sure their device lists are fresh
 * and Olm sessions exist (keys query and claim), shares the room key with
 * their devices (blocked devices, verification value -1, get none: the
 * engine skips blacklisted devices and tells them m.blacklisted), rotates
 * the session per the room's rotation_period_ms and rotation_period_msgs,
 * and finally encrypts the content. The send queue calls `encryptEvent`
 * while the event's status is "encrypting".
 */
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { EventContent } from "../api/types/events";
import { CryptoError } from "./errors";
import { userIds } from "./ids";
import type { Engine } from "./load";
import type { KeyedLock } from "./lock";
import type { OutgoingRequests } from "./OutgoingRequests";
import type { RoomCryptoState, RoomEncryptionSettings } from "./RoomCryptoState";
import { MEGOLM_ALGORITHM } from "./RoomCryptoState";

/** An encrypted event ready to send: always m.room.encrypted. */
export interface EncryptedEvent {
  type: "m.room.encrypted";
  content: EventContent;
}

/** The lock key for the engine's session claims, shared by room and to-device encryption. */
export const SESSIONS_LOCK_KEY = "\u0000sessions";

/** What the encryptor needs from the crypto machine. */
export interface EncryptorDeps {
  engine: Engine;
  machine: OlmMachine;
  outgoing: OutgoingRequests;
  rooms: RoomCryptoState;
  locks: KeyedLock;
}

/**
 * Makes sure the engine knows the devices of `users` and has Olm sessions
 * with them: tracks them, sends the resulting key queries, then claims
 * one-time keys for devices without a session.
 */
export async function ensureOlmSessions(deps: EncryptorDeps, users: readonly string[]): Promise<void> {
  const { engine, machine, outgoing } = deps;
  await machine.updateTrackedUsers(userIds(engine, users));
  await outgoing.run();
  await deps.locks.run(SESSIONS_LOCK_KEY, async () => {
    const claim = await machine.getMissingSessions(userIds(engine, users));
    if (claim) await sendOrThrow(outgoing, claim, "keys claim");
  });
}

async function sendOrThrow(
  outgoing: OutgoingRequests,
  request: Parameters<OutgoingRequests["send"]>[0],
  what: string,
): Promise<void> {
  try {
    await outgoing.send(request);
  } catch (error) {
    throw new CryptoError("request_failed", `Sending the ${what} request failed`, { cause: error });
  }
}

function historyVisibility(engine: Engine, value: string): number {
  const H = engine.HistoryVisibility;
  switch (value) {
    case "invited":
      return H.Invited;
    case "joined":
      return H.Joined;
    case "world_readable":
      return H.WorldReadable;
    default:
      return H.Shared;
  }
}

/** The engine's settings for a room: algorithm, rotation, history visibility, recipients. */
export function encryptionSettings(
  engine: Engine,
  settings: RoomEncryptionSettings,
  visibility: string,
): InstanceType<Engine["EncryptionSettings"]> {
  const out = new engine.EncryptionSettings();
  out.algorithm = engine.EncryptionAlgorithm.MegolmV1AesSha2;
  // The engine counts in microseconds; the room state in milliseconds.
  if (settings.rotationPeriodMs !== undefined)
    out.rotationPeriod = BigInt(Math.floor(settings.rotationPeriodMs)) * 1000n;
  if (settings.rotationPeriodMsgs !== undefined)
    out.rotationPeriodMessages = BigInt(settings.rotationPeriodMsgs);
  out.historyVisibility = historyVisibility(engine, visibility);
  // Every device except blocked ones; verification is shown, not enforced.
  out.sharingStrategy = engine.CollectStrategy.deviceBasedStrategy(false, false);
  return out;
}

/** Encrypts room events, one key share at a time per room. */
export class RoomEncryptor {
  constructor(private readonly deps: EncryptorDeps) {}

  /**
   * Shares the room key with the recipients' devices (a no-op when nothing
   * changed since the last share). Call it early, e.g. while the user types.
   */
  prepare(roomId: string): Promise<void> {
    return this.deps.locks.run(roomId, () => this.share(roomId));
  }

  /** Encrypts `content` of `type` for the room, sharing the key first. */
  encryptEvent(roomId: string, type: string, content: EventContent): Promise<EncryptedEvent> {
    return this.deps.locks.run(roomId, async () => {
      await this.share(roomId);
      const { engine, machine } = this.deps;
      let encrypted: string;
      try {
        encrypted = await machine.encryptRoomEvent(new engine.RoomId(roomId), type, JSON.stringify(content));
      } catch (error) {
        throw new CryptoError("engine_failure", "Encrypting the event failed", { cause: error });
      }
      return { type: "m.room.encrypted", content: JSON.parse(encrypted) as EventContent };
    });
  }

  /** Forgets the room's outbound session, so the next message starts a new one. */
  async rotate(roomId: string): Promise<boolean> {
    return this.deps.machine.invalidateGroupSession(new this.deps.engine.RoomId(roomId));
  }

  private async share(roomId: string): Promise<void> {
    const { engine, machine, outgoing, rooms } = this.deps;
    const settings = rooms.encryption(roomId);
    if (!settings) throw new CryptoError("room_not_encrypted", `Room ${roomId} is not encrypted`);
    if (settings.algorithm !== MEGOLM_ALGORITHM) {
      throw new CryptoError(
        "unsupported_algorithm",
        `Unsupported room encryption algorithm ${settings.algorithm}`,
      );
    }
    const users = rooms.recipients(roomId);
    await ensureOlmSessions(this.deps, users);
    const requests = await machine.shareRoomKey(
      new engine.RoomId(roomId),
      userIds(engine, users),
      encryptionSettings(engine, settings, rooms.historyVisibility(roomId)),
    );
    for (const request of requests as Array<Parameters<OutgoingRequests["send"]>[0]>) {
      await sendOrThrow(outgoing, request, "room key");
    }
  }
}
