/**
 * Builds `client.voip` from the client's parts: room events go through the
 * send queue as hidden signalling (encrypted in encrypted rooms, no local
 * echo, no store write before the send) and are awaited until settled,
 * to-device messages go Olm-encrypted when crypto is on (a device the
 * engine does not know is reported as unknown_device) and plain otherwise,
 * an encrypted room gets its room key shared while the caller's media is
 * captured, state events go through the state service, and room state is read from
 * the room model. Kept here so the facade stays one line.
 */
import { getTurnServer } from "../api/voip";
import type { ToDeviceQueue } from "../send/ToDeviceQueue";
import { GroupCallError, unknownDeviceMessage } from "../voip/group/types";
import { VoipService } from "../voip/VoipService";
import type { VoipOptions, VoipRoomView } from "../voip/VoipService";
import { sendSignalling } from "./call-wiring";
import type { CallWiringBase } from "./call-wiring";
import type { CryptoService } from "./services/CryptoService";
import type { StateService } from "./services/StateService";

export interface VoipWiring extends CallWiringBase {
  toDevice: ToDeviceQueue;
  crypto: CryptoService;
  state: StateService;
  options: VoipOptions | undefined;
  /** Changed room ids (held from the client's creation until the service loads: lazy-services.ts). */
  roomsChanged: (listener: (roomIds: ReadonlySet<string>) => void) => () => void;
}

export function createVoip(w: VoipWiring): VoipService {
  const room = (roomId: string): VoipRoomView | undefined => {
    const r = w.rooms.find(roomId);
    if (!r) return undefined;
    const state = () => r.getSnapshot().state;
    return {
      joinedMembers: () =>
        [...state().members.values()].filter((m) => m.membership === "join").map((m) => m.userId),
      isJoined: (userId) => state().membershipOf(userId) === "join",
      stateOfType: (type) => {
        const out = new Map<string, Record<string, unknown>>();
        for (const [key, event] of state().ofType(type)) out.set(key, event.content);
        return out;
      },
    };
  };
  return new VoipService({
    ...w.options,
    userId: w.userId,
    deviceId: w.deviceId,
    scheduler: w.scheduler,
    ports: {
      async sendRoomEvent(roomId, type, content) {
        await sendSignalling(w.sendQueue, roomId, type, { ...content });
      },
      async sendToDevice(userId, deviceId, type, content) {
        if (w.crypto.enabled) {
          const result = await w.crypto.sendToDevice(type, [{ userId, deviceId }], content);
          if (result.sent.length === 0)
            throw new GroupCallError("unknown_device", unknownDeviceMessage(userId));
          return;
        }
        await w.toDevice.queue(type, [{ userId, deviceId, payload: content }]);
      },
      async sendState(roomId, type, stateKey, content) {
        await w.state.setState(roomId, type, stateKey, content);
      },
      fetchTurn: () => getTurnServer(w.http),
      async prepareRoom(roomId) {
        if (!w.crypto.enabled || w.rooms.find(roomId)?.getSnapshot().state.isEncrypted !== true) return;
        await (await w.crypto.machine()).prepareRoom(roomId);
      },
      room,
      onSyncBatch: (listener) => w.batches?.subscribe((batch) => listener(batch)) ?? (() => undefined),
      onRoomsChanged: (listener) => w.roomsChanged(listener),
    },
  });
}
