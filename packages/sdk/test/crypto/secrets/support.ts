/**
 * Test support for recovery: a room of two users with encrypted messages,
 * and a cross-signing bootstrap straight on the engine
 * (OlmMachine.bootstrapCrossSigning, then the key and signature uploads;
 * the test server takes a first cross-signing upload without interactive
 * auth), so these tests do not depend on the verification layer.
 */
import type { OlmMachine, OutgoingRequest } from "@matrix-org/matrix-sdk-crypto-wasm";
import { uploadCrossSigningKeys, uploadSignatures } from "../../../src/api/keys";
import { sendEvent } from "../../../src/api/send";
import type { Engine } from "../../../src/crypto/load";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { call } from "../helpers";

interface EngineHandles {
  engine: Engine;
  machine: OlmMachine;
  outgoing: { send(request: OutgoingRequest): Promise<void> };
}

function handles(device: TestDevice): EngineHandles {
  // Test-only reach into the adapter; the product goes through the verification layer's bootstrap.
  return device.crypto as unknown as EngineHandles;
}

/** Creates, uploads and self-signs cross-signing keys for the device's user. */
export async function bootstrapCrossSigning(device: TestDevice): Promise<void> {
  const { engine, machine, outgoing } = handles(device);
  const requests = await machine.bootstrapCrossSigning(true);
  try {
    if (requests.uploadKeysRequest) await outgoing.send(requests.uploadKeysRequest as OutgoingRequest);
    await uploadCrossSigningKeys(device.http, JSON.parse(requests.uploadSigningKeysRequest.body) as never);
    await uploadSignatures(device.http, JSON.parse(requests.uploadSignaturesRequest.body) as never);
  } finally {
    requests.free();
  }
  await outgoing.send(machine.queryKeysForUsers([new engine.UserId(device.account.userId)]));
}

/** Creates an encrypted room of `owner` with `members` joined; extra initial state optional. */
export async function encryptedRoom(
  server: TestServerHandle,
  owner: Account,
  members: Account[],
  state: Array<Record<string, unknown>> = [],
): Promise<string> {
  const roomId = String(
    (
      await call(server, owner, "POST", "/createRoom", {
        invite: members.map((m) => m.userId),
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
          ...state,
        ],
      })
    )["room_id"],
  );
  for (const m of members) await call(server, m, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  return roomId;
}

let txn = 0;

/** Encrypts and sends a text message from `device`; returns the event id. */
export async function say(device: TestDevice, roomId: string, text: string): Promise<string> {
  const encrypted = await device.crypto.encryptRoomEvent(roomId, "m.room.message", {
    msgtype: "m.text",
    body: text,
  });
  return (await sendEvent(device.http, roomId, encrypted.type, `rec${++txn}`, encrypted.content)).event_id;
}
