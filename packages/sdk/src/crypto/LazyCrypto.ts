/**
 * Crypto on demand: a decrypt hook that keeps the (cheap, pure) room facts
 * from every batch and creates the CryptoMachine, loading the WebAssembly,
 * only when a batch first needs it: an encrypted room (joined or invited),
 * an encrypted timeline event, or an encrypted to-device message. A client
 * whose rooms are all unencrypted never loads the engine. It is also the
 * room model's EventDecryptor (pages fetched outside sync), loading the
 * engine only for a page that holds encrypted events.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import type { DecryptHook } from "../sync/processor/types";
import { decryptPage } from "../models/timeline/decryptor";
import type { ParsedSync } from "../sync/validate/types";
import type { CryptoMachine } from "./CryptoMachine";
import type { EncryptedEvent } from "./RoomEncryptor";
import type { ToDeviceResult, ToDeviceTarget } from "./ToDevice";
import { RoomCryptoState } from "./RoomCryptoState";

/** Creates the machine over the given room facts (CryptoMachine.create with `rooms`). */
export type CryptoMachineFactory = (rooms: RoomCryptoState) => Promise<CryptoMachine>;

/** Whether a batch carries anything only the engine can handle. */
export function batchNeedsCrypto(batch: ParsedSync, rooms: RoomCryptoState): boolean {
  if (rooms.hasEncryptedRooms()) return true;
  if (batch.toDevice.some((e) => e.type === "m.room.encrypted")) return true;
  for (const room of batch.rooms.join.values()) {
    if (room.timeline.events.some((e) => e.type === "m.room.encrypted")) return true;
  }
  return false;
}

/**
 * Decrypts the encrypted latest replies bundled in the thread roots of a
 * batch's joined rooms (the engine's sync pass decrypts timeline events
 * only), so the thread list never shows an encrypted last reply.
 */
async function withBundledRepliesDecrypted(machine: CryptoMachine, batch: ParsedSync): Promise<ParsedSync> {
  let join: ParsedSync["rooms"]["join"] | undefined;
  for (const [roomId, room] of batch.rooms.join) {
    const events = await decryptPage(machine, roomId, room.timeline.events);
    if (events.every((e, i) => e === room.timeline.events[i])) continue;
    join ??= new Map(batch.rooms.join);
    join.set(roomId, { ...room, timeline: { ...room.timeline, events } });
  }
  return join === undefined ? batch : { ...batch, rooms: { ...batch.rooms, join } };
}

/** Owns the machine once created; until then only the room facts. */
export class LazyCrypto {
  readonly rooms = new RoomCryptoState();
  private machine: CryptoMachine | undefined;
  private creating: Promise<CryptoMachine> | undefined;
  private readonly createdListeners = new Set<(machine: CryptoMachine) => void>();

  constructor(private readonly factory: CryptoMachineFactory) {}

  /** The machine, when it exists. */
  get current(): CryptoMachine | undefined {
    return this.machine;
  }

  /** Runs `listener` once the machine exists (at once if it does); never starts loading. */
  onCreated(listener: (machine: CryptoMachine) => void): () => void {
    if (this.machine) {
      listener(this.machine);
      return () => undefined;
    }
    this.createdListeners.add(listener);
    return () => this.createdListeners.delete(listener);
  }

  /** Creates the machine now (e.g. to send the first encrypted to-device message). */
  ensure(): Promise<CryptoMachine> {
    if (this.machine) return Promise.resolve(this.machine);
    this.creating ??= this.factory(this.rooms).then(
      (machine) => {
        this.machine = machine;
        for (const listener of [...this.createdListeners]) listener(machine);
        this.createdListeners.clear();
        return machine;
      },
      (error: unknown) => {
        this.creating = undefined;
        throw error;
      },
    );
    return this.creating;
  }

  /** The decrypt hook: a pass-through until a batch needs the engine. */
  readonly decryptHook: DecryptHook = async (batch) => {
    this.rooms.ingest(batch);
    if (!this.machine && !batchNeedsCrypto(batch, this.rooms)) return batch;
    const machine = await this.ensure();
    return withBundledRepliesDecrypted(machine, await machine.processSync(batch));
  };

  /**
   * The room model's decrypt hook for /messages, /context, /relations and
   * /threads pages: encrypted events come back clear or as stand-ins (and
   * wait for a late key); a page without any never loads the engine.
   */
  readonly decryptEvents = async (
    roomId: string,
    events: readonly ClientEventWithoutRoomId[],
  ): Promise<ClientEventWithoutRoomId[]> => {
    if (!events.some((e) => e.type === "m.room.encrypted")) return [...events];
    return (await this.ensure()).decryptEvents(roomId, events);
  };

  /** Whether the room is encrypted, known without loading the engine (the send queue's isRoomEncrypted). */
  isRoomEncrypted(roomId: string): boolean {
    return this.rooms.isEncrypted(roomId);
  }

  /** The send queue's encrypt function: loads the engine when needed, then encrypts. */
  readonly encrypt = async (
    roomId: string,
    type: string,
    content: Record<string, unknown>,
  ): Promise<EncryptedEvent> => (await this.ensure()).encryptRoomEvent(roomId, type, content);

  /** Olm-encrypted to-device send, loading the engine when needed. */
  async sendToDevice(
    eventType: string,
    targets: readonly ToDeviceTarget[],
    content: Record<string, unknown>,
  ): Promise<ToDeviceResult> {
    return (await this.ensure()).sendToDevice(eventType, targets, content);
  }
}
