/**
 * Building the engine's id objects from untrusted strings. The engine's
 * UserId, DeviceId and RoomId constructors throw on malformed ids; a user id
 * from a hostile sync (device_lists, a member state key like `__proto__`)
 * must drop out instead of aborting the batch.
 */
import type { RoomId, UserId } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { Engine } from "./load";

/** The engine's UserId, or undefined for a malformed id. */
export function userIdOrUndefined(engine: Pick<Engine, "UserId">, userId: string): UserId | undefined {
  try {
    return new engine.UserId(userId);
  } catch {
    return undefined;
  }
}

/** The engine's UserIds of the well-formed ids in a list; the rest are skipped. */
export function userIds(engine: Pick<Engine, "UserId">, list: readonly string[]): UserId[] {
  const out: UserId[] = [];
  for (const id of list) {
    const userId = userIdOrUndefined(engine, id);
    if (userId) out.push(userId);
  }
  return out;
}

/** The engine's RoomId, or undefined for a malformed id. */
export function roomIdOrUndefined(engine: Pick<Engine, "RoomId">, roomId: string): RoomId | undefined {
  try {
    return new engine.RoomId(roomId);
  } catch {
    return undefined;
  }
}
