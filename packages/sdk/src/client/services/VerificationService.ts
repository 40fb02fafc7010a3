/**
 * `client.crypto.verification`: interactive (SAS emoji) verification through
 * the client. It wraps the crypto layer's `Verifications` and creates it on
 * first use or as soon as the engine loads for another reason (so incoming
 * to-device requests are never missed), but never loads the engine itself
 * until asked to: a request, or a sync batch that carries in-room
 * verification events (the client hands every network batch's decrypted
 * timelines to `receiveSyncBatch`).
 *
 * Incoming requests are announced through `onRequest` and listed in
 * `incoming` (an observable of the flows still in progress; a flow leaves
 * the list once done or cancelled).
 */
import type { Logger } from "../../util/logger";
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { CryptoMachine } from "../../crypto/CryptoMachine";
import type { VerificationFlow } from "../../crypto/verification/VerificationFlow";
import { UnknownDeviceError, Verifications } from "../../crypto/verification/Verifications";
import type {
  VerificationRequestListener,
  VerificationsOptions,
} from "../../crypto/verification/Verifications";
import type { ProcessedSync } from "../../sync/processor/types";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";

/** What the verification service needs of the crypto service. */
export interface MachineSource {
  /** Loads the engine if needed and returns the machine. */
  machine(): Promise<CryptoMachine>;
  /** Runs the callback once the machine exists; never loads it. */
  onLoaded(listener: (machine: CryptoMachine) => void): () => void;
}

const REQUEST_MSGTYPE = "m.key.verification.request";
const TERMINAL = new Set(["done", "cancelled"]);

/** Whether a (decrypted) room event belongs to an in-room verification. */
export function isVerificationEvent(event: ClientEventWithoutRoomId): boolean {
  if (event.type.startsWith("m.key.verification.")) return true;
  return event.type === "m.room.message" && event.content["msgtype"] === REQUEST_MSGTYPE;
}

/** How `verifyUser` should reach the other user. */
export interface VerifyUserOptions {
  /**
   * A room shared with them (their DM): used when they have a
   * cross-signing identity, so the verification covers the user.
   */
  roomId?: string;
}

/** The client's verification service; see the file overview. */
export class VerificationService {
  private manager: Verifications | undefined;
  private readonly listeners = new Set<VerificationRequestListener>();
  private readonly doneListeners = new Set<VerificationRequestListener>();
  private readonly watched = new WeakSet<VerificationFlow>();
  private readonly incomingFlows = new ObservableValue<readonly VerificationFlow[]>([]);
  private readonly stopWatching: () => void;
  private feeding: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly source: MachineSource,
    private readonly options: VerificationsOptions & { logger?: Pick<Logger, "warn"> } = {},
  ) {
    this.stopWatching = source.onLoaded((machine) => this.attach(machine));
  }

  /** Incoming requests still in progress, oldest first. */
  get incoming(): ReadonlyObservable<readonly VerificationFlow[]> {
    return this.incomingFlows.readonly();
  }

  /** Every flow seen so far (ours and theirs); empty before the engine loads. */
  get all(): VerificationFlow[] {
    return this.manager?.all ?? [];
  }

  /** Subscribes to incoming requests (to-device or in a room); returns the unsubscribe function. */
  onRequest(listener: VerificationRequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with each flow (ours or theirs) that reaches done; returns the unsubscribe function. */
  onFlowDone(listener: VerificationRequestListener): () => void {
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
  }

  /** Asks one device (ours or another user's) to verify with us, over to-device messages. */
  async requestDevice(userId: string, deviceId: string): Promise<VerificationFlow> {
    return this.watch(await (await this.verifications()).requestDevice(userId, deviceId));
  }

  /** Asks all our other devices; the first to accept takes part. Needs our cross-signing identity. */
  async requestOwnDevices(): Promise<VerificationFlow> {
    return this.watch(await (await this.verifications()).requestOwnDevices());
  }

  /** Asks another user in a room shared with them (needs their cross-signing identity). */
  async requestUserInRoom(userId: string, roomId: string): Promise<VerificationFlow> {
    return this.watch(await (await this.verifications()).requestUserInRoom(userId, roomId));
  }

  /**
   * Verifies another user the best way available: in `roomId` when they
   * have a cross-signing identity (the whole user is verified), otherwise
   * one of their devices over to-device messages (an unverified one first).
   * Throws `UnknownDeviceError` when we know no device of theirs.
   */
  async verifyUser(userId: string, options: VerifyUserOptions = {}): Promise<VerificationFlow> {
    const verifications = await this.verifications();
    const machine = await this.source.machine();
    if (options.roomId !== undefined) {
      try {
        return this.watch(await verifications.requestUserInRoom(userId, options.roomId));
      } catch (error) {
        if (!(error instanceof UnknownDeviceError)) throw error;
      }
    }
    const devices = await machine.getUserDevices(userId);
    const device = devices.find((d) => d.verification === 0) ?? devices.find((d) => d.verification >= 0);
    if (!device) throw new UnknownDeviceError(userId);
    return this.watch(await verifications.requestDevice(userId, device.deviceId));
  }

  /**
   * Feeds the in-room verification events of a network batch (already
   * decrypted) to the engine. Loads the engine only when there are some;
   * runs in the background, batches in order.
   */
  receiveSyncBatch(batch: ProcessedSync): void {
    if (batch.fromCache || this.disposed) return;
    const found: Array<[string, ClientEventWithoutRoomId[]]> = [];
    for (const [roomId, room] of batch.rooms.join) {
      const events = room.timeline.events.filter(isVerificationEvent);
      if (events.length > 0) found.push([roomId, events]);
    }
    if (found.length === 0) return;
    this.feeding = this.feeding.then(async () => {
      try {
        const verifications = await this.verifications();
        for (const [roomId, events] of found) await verifications.receiveRoomEvents(roomId, events);
      } catch (error) {
        this.options.logger?.warn("verification: reading in-room events failed", error);
      }
    });
  }

  /** Resolves once the batches handed to `receiveSyncBatch` so far are read (tests). */
  settled(): Promise<void> {
    return this.feeding;
  }

  /** Stops listening; the flows' timers are cleared. */
  dispose(): void {
    this.disposed = true;
    this.stopWatching();
    this.manager?.dispose();
    this.listeners.clear();
    this.doneListeners.clear();
  }

  /** Tells the done listeners when the flow completes. */
  private watch(flow: VerificationFlow): VerificationFlow {
    if (this.watched.has(flow)) return flow;
    this.watched.add(flow);
    void flow.whenPhase("done").then((state) => {
      if (state.phase !== "done" || this.disposed) return;
      for (const listener of [...this.doneListeners]) listener(flow);
    });
    return flow;
  }

  private async verifications(): Promise<Verifications> {
    const machine = await this.source.machine();
    return this.attach(machine);
  }

  private attach(machine: CryptoMachine): Verifications {
    if (this.manager) return this.manager;
    const { logger: _logger, ...options } = this.options;
    const manager = new Verifications(machine, options);
    this.manager = manager;
    manager.onRequest((flow) => this.announce(flow));
    return manager;
  }

  private announce(flow: VerificationFlow): void {
    if (this.disposed) return;
    this.watch(flow);
    this.incomingFlows.set([...this.incomingFlows.getSnapshot(), flow]);
    const stop = flow.subscribe((state) => {
      if (!TERMINAL.has(state.phase)) return;
      stop();
      this.incomingFlows.set(this.incomingFlows.getSnapshot().filter((f) => f !== flow));
    });
    for (const listener of [...this.listeners]) {
      try {
        listener(flow);
      } catch (error) {
        this.options.logger?.warn("verification: a request listener threw", error);
      }
    }
  }
}
