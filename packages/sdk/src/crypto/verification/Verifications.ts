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
import type { ToDeviceEvent } from "../../api/types/events";
import { userIdOrUndefined } from "../ids";
import type { CryptoInternals } from "./internals";
import { VerificationFlow } from "./VerificationFlow";

/** What Verifications needs of the crypto adapter (a CryptoMachine). */
export interface VerificationHost {
  readonly internals: CryptoInternals;
  onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void;
}

export interface VerificationsOptions {
  /** Time-out of each flow; default VERIFICATION_TIMEOUT_MS (10 minutes). */
  timeoutMs?: number;
}

export type VerificationRequestListener = (flow: VerificationFlow) => void;

const REQUEST_TYPE = "m.key.verification.request";

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

  constructor(
    host: VerificationHost,
    private readonly options: VerificationsOptions = {},
  ) {
    this.crypto = host.internals;
    this.unsubscribe = host.onToDevice((events) => this.onToDevice(events));
  }

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
      const [request, toDevice] = device.requestVerification([engine.VerificationMethod.SasV1]) as [
        VerificationRequest,
        ToDeviceRequest,
      ];
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
      const flow = this.track(request);
      for (const listener of [...this.listeners]) {
        try {
          listener(flow);
        } catch (error) {
          this.crypto.logger.warn("crypto: a verification request listener threw", error);
        }
      }
    }
  }
}
