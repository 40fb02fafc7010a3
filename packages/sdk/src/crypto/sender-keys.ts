/**
 * Fetching the device keys of Olm senders before their messages reach the
 * engine. The engine rejects an Olm-encrypted to-device message (other than
 * a room key) whose sending device it does not know: it cannot check the
 * sender's signing key. With lazy-loaded members (sync v2's filter, sliding
 * sync's $LAZY) the sender is often no member the client has seen, so it was
 * never tracked and its keys never queried. This step looks at each
 * m.room.encrypted to-device event's sender and sender_key (both in the
 * clear), and for a device the engine does not know it tracks the user, marks
 * the list stale and runs the outgoing processor (the keys query) first.
 */
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { ToDeviceEvent } from "../api/types/events";
import { userIdOrUndefined, userIds } from "./ids";
import type { Engine } from "./load";
import type { OutgoingRequests } from "./OutgoingRequests";

/** What the step needs of the crypto machine. */
export interface SenderKeysDeps {
  engine: Engine;
  machine: OlmMachine;
  outgoing: OutgoingRequests;
}

/** Whether the engine knows a device of `userId` with the curve25519 key `senderKey`. */
async function knowsDevice(deps: SenderKeysDeps, userId: string, senderKey: string): Promise<boolean> {
  const id = userIdOrUndefined(deps.engine, userId);
  if (!id) return true; // A malformed sender: nothing to query, the engine rejects it.
  const devices = await deps.machine.getUserDevices(id, null);
  try {
    return devices.devices().some((device) => {
      try {
        return device.curve25519Key?.toBase64() === senderKey;
      } finally {
        device.free();
      }
    });
  } finally {
    devices.free();
  }
}

/** The senders of Olm messages in `events` whose sending device the engine does not know. */
export async function unknownOlmSenders(
  deps: SenderKeysDeps,
  events: readonly ToDeviceEvent[],
): Promise<string[]> {
  const unknown = new Set<string>();
  const checked = new Set<string>();
  for (const event of events) {
    if (event.type !== "m.room.encrypted") continue;
    const senderKey = event.content["sender_key"];
    if (typeof senderKey !== "string" || typeof event.sender !== "string") continue;
    const key = `${event.sender}\u0000${senderKey}`;
    if (checked.has(key) || unknown.has(event.sender)) continue;
    checked.add(key);
    if (!(await knowsDevice(deps, event.sender, senderKey))) unknown.add(event.sender);
  }
  return [...unknown];
}

/**
 * Queries the keys of the unknown Olm senders of a batch's to-device events,
 * so the engine can decrypt them; returns the users queried. A failed query
 * is the outgoing processor's (logged); the messages then fail as before.
 */
export async function fetchOlmSenderKeys(
  deps: SenderKeysDeps,
  events: readonly ToDeviceEvent[],
): Promise<string[]> {
  const users = await unknownOlmSenders(deps, events);
  if (users.length === 0) return users;
  const { engine, machine, outgoing } = deps;
  await machine.updateTrackedUsers(userIds(engine, users));
  // A user tracked already has a list the engine thinks is fresh: mark it stale.
  const stale = new engine.DeviceLists(userIds(engine, users), []);
  // No key counts: the engine leaves one-time keys alone when it is told none.
  await machine.receiveSyncChanges("[]", stale, new Map());
  await outgoing.run();
  return users;
}
