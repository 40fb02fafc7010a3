/**
 * The verifications of one device: requests we send (to one device of a
 * user, or to all our other devices) and requests that arrive as to-device
 * m.key.verification.request events (seen through the crypto adapter's
 * to-device hook after the engine has taken them in). Each becomes a
 * VerificationFlow; `onRequest` tells the UI about incoming ones.
 */
import type {
  OwnUserIdentity,
  ToDeviceRequest,
  VerificationRequest,
} from "@matrix-org/matrix-sdk-crypto-wasm";
import { sendEvent } from "../../api/send";
import type { ClientEventWithoutRoomId, ToDeviceEvent } from "../../api/types/events";
import { createTxnIdGenerator } from "../../http/txn";
import { roomIdOrUndefined, userIdOrUndefined } from "../ids";
import type { RoomMessageEncryptor } from "../OutgoingRequests";
import type { CryptoInternals } from "./internals";
import { VerificationFlow } from "./VerificationFlow";

/** What Verifications needs of the crypto adapter (a CryptoMachine). */
export interface VerificationHost {
  readonly internals: CryptoInternals;
  onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void;
  /** With both: in-room verification messages in encrypted rooms are sent encrypted. */
  isRoomEncrypted?(roomId: string): boolean;
  encryptRoomEvent?(
    roomId: string,
    type: string,
    content: Record<string, unknown>,
  ): Promise<{ type: string; content: Record<string, unknown> }>;
}

export interface VerificationsOptions {
  /** Time-out of each flow; default VERIFICATION_TIMEOUT_MS (10 minutes). */
  timeoutMs?: number;
}

export type VerificationRequestListener = (flow: VerificationFlow) => void;

const REQUEST_TYPE = "m.key.verification.request";

/** Whether a room event belongs to an in-room verification (the request message or a step). */
function isVerificationRoomEvent(event: ClientEventWithoutRoomId): boolean {
  if (event.type.startsWith("m.key.verification.")) return true;
  return event.type === "m.room.message" && event.content["msgtype"] === REQUEST_TYPE;
}

/** Thrown when asked to verify a device the engine does not know. */
export class UnknownDeviceError extends Error {
  override readonly name = "UnknownDeviceError";
  constructor(userId: string, deviceId?: string) {
    super(
      deviceId === undefined
        ? `No cross-signing identity for ${userId}`
        : `Unknown device ${userId} ${deviceId}`,
    );
  }
}

/** Starts and receives verifications; one per CryptoMachine. */
export class Verifications {
  private readonly crypto: CryptoInternals;
  private readonly flows = new Map<string, VerificationFlow>();
  private readonly listeners = new Set<VerificationRequestListener>();
  private readonly unsubscribe: () => void;
  private readonly txnIds = createTxnIdGenerator();

  constructor(
    host: VerificationHost,
    private readonly options: VerificationsOptions = {},
  ) {
    this.crypto = host.internals;
    this.unsubscribe = host.onToDevice((events) => {
      // Runs inside the sync pipeline: a failure here must not fail the batch.
      try {
        this.onToDevice(events);
      } catch (error) {
        this.crypto.logger.warn("crypto: reading verification requests failed", error);
      }
    });
    if (host.isRoomEncrypted && host.encryptRoomEvent) {
      this.encryptIfNeeded = async (roomId, type, content) =>
        host.isRoomEncrypted?.(roomId) ? host.encryptRoomEvent?.(roomId, type, content) : undefined;
      this.crypto.outgoing.roomEncryptor = this.encryptIfNeeded;
    }
  }

  private readonly encryptIfNeeded: RoomMessageEncryptor = () => Promise.resolve(undefined);

  /** Every flow seen so far, oldest first. */
  get all(): VerificationFlow[] {
    return [...this.flows.values()];
  }

  /** Subscribes to incoming requests; returns the unsubscribe function. */
  onRequest(listener: VerificationRequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks one device (ours or another user's) to verify with us, over
   * to-device messages. The flow starts in "requested".
   */
  async requestDevice(userId: string, deviceId: string): Promise<VerificationFlow> {
    const { engine, machine } = this.crypto;
    const user = userIdOrUndefined(engine, userId);
    const device = user ? await machine.getDevice(user, new engine.DeviceId(deviceId)) : undefined;
    if (!device) throw new UnknownDeviceError(userId, deviceId);
    try {
      const [request, toDevice] = device.requestVerification([engine.VerificationMethod.SasV1]);
      return await this.startOutgoing(request, toDevice);
    } finally {
      device.free();
    }
  }

  /** Asks all our other devices at once; the first to accept takes part, the others are told. */
  async requestOwnDevices(): Promise<VerificationFlow> {
    const { engine, machine, userId } = this.crypto;
    const identity = (await machine.getIdentity(new engine.UserId(userId))) as OwnUserIdentity | undefined;
    if (!identity) throw new UnknownDeviceError(userId);
    try {
      const [request, toDevice] = (await identity.requestVerification([engine.VerificationMethod.SasV1])) as [
        VerificationRequest,
        ToDeviceRequest,
      ];
      return await this.startOutgoing(request, toDevice);
    } finally {
      identity.free();
    }
  }

  /**
   * Asks another user to verify in a room we share with them (their DM):
   * the request is an m.room.message, the steps are room events. Feed the
   * room's timeline to `receiveRoomEvents` for the answers to arrive. In
   * an encrypted room the request and the steps are sent encrypted.
   */
  async requestUserInRoom(userId: string, roomId: string): Promise<VerificationFlow> {
    const { engine, machine, http } = this.crypto;
    const user = userIdOrUndefined(engine, userId);
    const room = roomIdOrUndefined(engine, roomId);
    const identity = user ? await machine.getIdentity(user) : undefined;
    if (!identity || !room || !(identity instanceof engine.OtherUserIdentity)) {
      identity?.free();
      throw new UnknownDeviceError(userId);
    }
    try {
      const methods = [engine.VerificationMethod.SasV1];
      const content = JSON.parse(identity.verificationRequestContent(methods)) as Record<string, unknown>;
      const encrypted = await this.encryptIfNeeded(roomId, "m.room.message", content);
      const { event_id } = await sendEvent(
        http,
        roomId,
        encrypted?.type ?? "m.room.message",
        `${this.txnIds()}v`,
        encrypted?.content ?? content,
      );
      return this.track(identity.requestVerification(room, new engine.EventId(event_id), methods));
    } finally {
      identity.free();
    }
  }

  /**
   * Hands a room's (decrypted) timeline events to the engine: in-room
   * verification requests from others become flows (told to `onRequest`),
   * the steps move the flows along.
   */
  async receiveRoomEvents(roomId: string, events: readonly ClientEventWithoutRoomId[]): Promise<void> {
    const { engine, machine, userId } = this.crypto;
    for (const event of events) {
      if (!isVerificationRoomEvent(event)) continue;
      const room = roomIdOrUndefined(engine, roomId);
      const sender = userIdOrUndefined(engine, event.sender);
      if (!room || !sender) continue;
      await machine.receiveVerificationEvent(JSON.stringify({ ...event, room_id: roomId }), room);
      if (event.type !== "m.room.message" || event.sender === userId) continue;
      if (this.flows.has(`${event.sender}|${event.event_id}`)) continue;
      const request = machine.getVerificationRequest(sender, event.event_id);
      if (request) this.announce(this.track(request));
    }
  }

  /** Stops listening and disposes every flow's timer. */
  dispose(): void {
    this.unsubscribe();
    for (const flow of this.flows.values()) flow.dispose();
    this.listeners.clear();
  }

  private async startOutgoing(
    request: VerificationRequest,
    toDevice: ToDeviceRequest,
  ): Promise<VerificationFlow> {
    const flow = this.track(request);
    await this.crypto.outgoing.send(toDevice);
    return flow;
  }

  private track(request: VerificationRequest): VerificationFlow {
    const key = `${request.otherUserId.toString()}|${request.flowId}`;
    const known = this.flows.get(key);
    if (known) {
      request.free();
      return known;
    }
    const flow = new VerificationFlow(this.crypto, request, this.options.timeoutMs);
    this.flows.set(key, flow);
    return flow;
  }

  private onToDevice(events: readonly ToDeviceEvent[]): void {
    for (const event of events) {
      if (event.type !== REQUEST_TYPE) continue;
      const txnId = event.content["transaction_id"];
      const sender = userIdOrUndefined(this.crypto.engine, event.sender);
      if (typeof txnId !== "string" || !sender) continue;
      if (this.flows.has(`${event.sender}|${txnId}`)) continue;
      // The engine drops requests it will not honour (stale, from an unknown device); so do we.
      const request = this.crypto.machine.getVerificationRequest(sender, txnId);
      if (!request) continue;
      this.announce(this.track(request));
    }
  }

  private announce(flow: VerificationFlow): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(flow);
      } catch (error) {
        this.crypto.logger.warn("crypto: a verification request listener threw", error);
      }
    }
  }
}
