/**
 * Crypto on demand: a decrypt hook that keeps the (cheap, pure) room facts
 * from every batch and creates the CryptoMachine, loading the WebAssembly,
 * only when a batch first needs it: an encrypted room (joined or invited),
 * an encrypted timeline event, or an encrypted to-device message. It is
 * also the room model's EventDecryptor (pages fetched outside sync), loading
 * the engine only for a page that holds encrypted events.
 *
 * One more reason loads it, in the background: a batch saying this device
 * has no signed_curve25519 one-time key on the server (a device at its
 * first sign-in, which never uploaded keys, or one whose keys ran out).
 * Without its device and one-time keys on the server, room keys others send
 * meanwhile would miss this device (the key race); the batch is not held
 * for it. So a returning device whose rooms are all unencrypted still never
 * loads the engine, and a brand-new one loads it once, at sign-in.
 *
 * Catch-up: batches that passed while the engine did not exist carried
 * device-list changes it never saw (a persistent engine store still holds
 * the device lists of an earlier session). When the engine then processes
 * its first batch, the span it missed goes to GET /keys/changes
 * (`CryptoMachine.catchUpDeviceChanges`) first, so those users are queried
 * again. Sliding sync positions are no /keys/changes tokens: there every
 * tracked user is marked for a new query instead.
 */
import { CryptoError } from "./errors";
import type { Logger } from "../util/logger";
import { silentLogger } from "../util/logger";
import type { ClientEventWithoutRoomId } from "../api/types/events";
import type { DecryptHook } from "../sync/processor/types";
import { decryptPage } from "../models/timeline/decryptor";
import { isSlidingToken } from "../sync/sliding/token";
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
 * Whether the batch says this device has no one-time key on the server: it
 * reports the counts (sync always does for a device) and signed_curve25519
 * is missing or 0. A new device that never uploaded keys reads so.
 */
export function deviceNeedsKeys(batch: ParsedSync): boolean {
  const counts = batch.oneTimeKeysCount;
  if (counts === undefined) return false;
  return (counts.get("signed_curve25519") ?? 0) === 0;
}

/** Options of `LazyCrypto`. */
export interface LazyCryptoOptions {
  /** Where a failed background load or catch-up is reported. */
  logger?: Pick<Logger, "warn">;
  /** The own user: its membership history answers "not joined" without MSC4115. */
  userId?: string;
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
  readonly rooms: RoomCryptoState;
  private machine: CryptoMachine | undefined;
  private creating: Promise<CryptoMachine> | undefined;
  private readonly createdListeners = new Set<(machine: CryptoMachine) => void>();
  private readonly logger: Pick<Logger, "warn">;
  private closed = false;
  /** next_batch of the last batch the hook saw: the next batch's since. */
  private lastToken: string | undefined;
  /** The since of the first batch that passed without the engine (its device lists were missed). */
  private missedFrom: string | undefined;

  constructor(
    private readonly factory: CryptoMachineFactory,
    options: LazyCryptoOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.rooms = new RoomCryptoState(options.userId !== undefined ? { ownUserId: options.userId } : {});
  }

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
    if (this.closed) return Promise.reject(new CryptoError("engine_failure", "Crypto is closed"));
    this.creating ??= this.factory(this.rooms).then(
      async (machine) => {
        if (this.closed) {
          // Disposed while loading: nothing may keep running against the server.
          await machine.close();
          throw new CryptoError("crypto_disabled", "Crypto is closed");
        }
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

  /**
   * The decrypt hook: a pass-through until a batch needs the engine (see the
   * file overview); a device without one-time keys starts loading it in the
   * background, and the engine's first batch catches up what it missed.
   */
  readonly decryptHook: DecryptHook = async (batch) => {
    this.rooms.ingest(batch);
    const since = this.lastToken;
    this.lastToken = batch.nextBatch;
    if (!this.machine && !batchNeedsCrypto(batch, this.rooms)) {
      // An initial or restored batch carries no device-list changes: nothing is missed before one.
      if (since !== undefined) this.missedFrom ??= since;
      if (deviceNeedsKeys(batch)) this.loadInBackground();
      return batch;
    }
    const machine = await this.ensure();
    await this.catchUp(machine, since);
    return withBundledRepliesDecrypted(machine, await machine.processSync(batch));
  };

  /** Starts creating the machine without waiting (its creation uploads the device's keys). */
  private loadInBackground(): void {
    if (this.creating || this.closed) return;
    this.ensure().catch((error: unknown) => {
      if (!this.closed) this.logger.warn("crypto: loading the engine to upload keys failed", error);
    });
  }

  /** Hands the engine the device-list changes of the span it missed (from the first missed since to `since`). */
  private async catchUp(machine: CryptoMachine, since: string | undefined): Promise<void> {
    const from = this.missedFrom;
    if (from === undefined || since === undefined) return;
    this.missedFrom = undefined;
    if (from === since) return;
    try {
      if (isSlidingToken(from) || isSlidingToken(since)) {
        // A sliding position is no /keys/changes token: every tracked user is queried again instead.
        const { machine: olm, outgoing } = machine.internals;
        await olm.markAllTrackedUsersAsDirty();
        void outgoing.run();
      } else {
        await machine.catchUpDeviceChanges(from, since);
      }
    } catch (error) {
      // The batch still goes through; the users changed meanwhile stay as the engine knew them.
      this.logger.warn("crypto: device list catch-up (/keys/changes) failed", error);
    }
  }

  /** Closes the machine, waiting for one being created; nothing loads afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.createdListeners.clear();
    if (this.machine) await this.machine.close();
    else await this.creating?.catch(() => undefined);
  }

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
