/**
 * One interactive verification (m.key.verification.*, method m.sas.v1) as an
 * observable state machine for the UI:
 *
 *   requested ─► ready ─► started ─► showing_sas ─► confirmed ─► done
 *        └──────────┴─────────┴───────────┴──────────────┴──► cancelled (code, reason)
 *
 * It wraps the engine's VerificationRequest and, once SAS starts, its Sas;
 * every change the engine reports (an event from the other side, our own
 * action) recomputes the state and tells the subscribers. Actions hand the
 * engine's answer (a to-device or room message) to the outgoing processor.
 * A flow with no progress for `timeoutMs` (the timer restarts at each state
 * change, as the spec's "no response within 10 minutes") cancels itself
 * with m.timeout.
 */
import { CryptoError } from "../errors";
import type {
  CancelInfo,
  OutgoingRequest,
  Sas,
  VerificationRequest,
} from "@matrix-org/matrix-sdk-crypto-wasm";
import type { SasEmoji } from "./emoji";
import { sasEmoji } from "./emoji";
import type { CryptoInternals } from "./internals";

/** Where a verification stands. */
export type VerificationPhase =
  "requested" | "ready" | "started" | "showing_sas" | "confirmed" | "done" | "cancelled";

/** Why a verification was cancelled: the spec's code (m.user, m.mismatched_sas, m.timeout...). */
export interface VerificationCancel {
  code: string;
  reason: string;
  /** True when this side cancelled. */
  byUs: boolean;
}

/** A snapshot of a verification, as the UI shows it. */
export interface VerificationState {
  readonly phase: VerificationPhase;
  /** The transaction id (to-device) or request event id (in a room). */
  readonly flowId: string;
  readonly otherUserId: string;
  readonly otherDeviceId?: string;
  /** True when this side sent the request. */
  readonly weStarted: boolean;
  /** True when verifying another device of our own user. */
  readonly selfVerification: boolean;
  /** The 7 emojis to compare, from showing_sas on. */
  readonly emojis?: readonly SasEmoji[];
  readonly cancel?: VerificationCancel;
}

export type VerificationListener = (state: VerificationState) => void;

/** The spec's time-out of a verification request: 10 minutes. */
export const VERIFICATION_TIMEOUT_MS = 10 * 60_000;

const TERMINAL: ReadonlySet<VerificationPhase> = new Set(["done", "cancelled"]);

function cancelOf(info: CancelInfo | undefined): VerificationCancel | undefined {
  if (!info) return undefined;
  try {
    return { code: info.cancelCode(), reason: info.reason(), byUs: info.cancelledbyUs() };
  } finally {
    info.free();
  }
}

/** One verification with another device; create through `Verifications`. */
export class VerificationFlow {
  private sas: Sas | undefined;
  private current: VerificationState;
  private readonly listeners = new Set<VerificationListener>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timeoutCancel: VerificationCancel | undefined;

  constructor(
    private readonly crypto: CryptoInternals,
    private readonly request: VerificationRequest,
    private readonly timeoutMs = VERIFICATION_TIMEOUT_MS,
  ) {
    request.registerChangesCallback(() => this.refreshSoon());
    this.current = this.compute();
    this.attachSas();
    this.restartTimer();
  }

  /** The current state (a fresh object after each change). */
  get state(): VerificationState {
    return this.current;
  }

  get flowId(): string {
    return this.current.flowId;
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  subscribe(listener: VerificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the state once the phase is one of `phases` (or the flow ends). */
  whenPhase(...phases: VerificationPhase[]): Promise<VerificationState> {
    const wanted = new Set<VerificationPhase>([...phases, ...TERMINAL]);
    if (wanted.has(this.current.phase)) return Promise.resolve(this.current);
    return new Promise((resolve) => {
      const off = this.subscribe((state) => {
        if (!wanted.has(state.phase)) return;
        off();
        resolve(state);
      });
    });
  }

  /** Accepts an incoming request (requested → ready), offering m.sas.v1. */
  async accept(): Promise<void> {
    const { engine } = this.crypto;
    await this.send(this.request.acceptWithMethods([engine.VerificationMethod.SasV1]));
  }

  /**
   * Starts SAS from ready, or accepts the SAS the other side started: either
   * way both sides go on to show the emojis.
   */
  async startSas(): Promise<void> {
    this.attachSas();
    if (this.sas) {
      if (!this.sas.hasBeenAccepted() && !this.sas.weStarted()) await this.send(this.sas.accept());
      return;
    }
    const started = (await this.request.startSas()) as [Sas, OutgoingRequest] | undefined;
    if (!started)
      throw new CryptoError(
        "engine_failure",
        `The verification cannot start SAS in phase ${this.current.phase}`,
      );
    const [sas, request] = started;
    this.adoptSas(sas);
    await this.send(request);
  }

  /** The user says the emojis match (showing_sas → confirmed, then done when the other side agrees). */
  async confirm(): Promise<void> {
    if (!this.sas) throw new CryptoError("engine_failure", "No SAS to confirm");
    const requests = (await this.sas.confirm()) as OutgoingRequest[];
    for (const request of requests) await this.send(request);
    // Marking the other side verified may queue signature uploads in the engine.
    void this.crypto.outgoing.run();
  }

  /** The user says the emojis differ: cancels with m.mismatched_sas. */
  mismatch(): Promise<void> {
    return this.cancel("m.mismatched_sas");
  }

  /** Cancels the verification (m.user unless another spec code is given). */
  async cancel(code = "m.user"): Promise<void> {
    if (TERMINAL.has(this.current.phase)) return;
    const request = (this.sas ? this.sas.cancelWithCode(code) : this.request.cancel()) as
      OutgoingRequest | undefined;
    await this.send(request);
  }

  /** Stops the time-out timer and drops the listeners (the engine's objects stay with the engine). */
  dispose(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  private restartTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.timeOut(), this.timeoutMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async timeOut(): Promise<void> {
    if (TERMINAL.has(this.current.phase)) return;
    // A request not yet in SAS can only cancel with m.user on the wire; locally it is a time-out.
    if (!this.sas)
      this.timeoutCancel = { code: "m.timeout", reason: "The verification timed out", byUs: true };
    try {
      await this.cancel("m.timeout");
    } catch (error) {
      this.crypto.logger.warn("crypto: cancelling a timed-out verification failed", error);
    }
    this.refresh();
  }

  private async send(request: OutgoingRequest | undefined): Promise<void> {
    if (request) await this.crypto.outgoing.send(request);
    this.refresh();
  }

  private attachSas(): void {
    if (this.sas) return;
    const verification: unknown = this.request.getVerification();
    if (verification instanceof this.crypto.engine.Sas) this.adoptSas(verification);
    else (verification as { free?: () => void } | undefined)?.free?.();
  }

  private adoptSas(sas: Sas): void {
    this.sas = sas;
    sas.registerChangesCallback(() => this.refreshSoon());
  }

  private refreshQueued = false;
  /**
   * The engine's change callback: it must answer with a promise, and it
   * runs while the engine holds its own objects, so reading them waits a tick.
   */
  private refreshSoon(): Promise<void> {
    if (this.refreshQueued) return Promise.resolve();
    this.refreshQueued = true;
    setTimeout(() => {
      this.refreshQueued = false;
      this.refresh();
    }, 0);
    return Promise.resolve();
  }

  private refresh(): void {
    this.attachSas();
    const next = this.compute();
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    if (TERMINAL.has(next.phase)) clearTimeout(this.timer);
    else this.restartTimer();
    for (const listener of [...this.listeners]) {
      try {
        listener(next);
      } catch (error) {
        this.crypto.logger.warn("crypto: a verification listener threw", error);
      }
    }
  }

  private compute(): VerificationState {
    const r = this.request;
    const otherDevice = r.otherDeviceId;
    const base = {
      flowId: r.flowId,
      otherUserId: r.otherUserId.toString(),
      ...(otherDevice ? { otherDeviceId: otherDevice.toString() } : {}),
      weStarted: r.weStarted(),
      selfVerification: r.isSelfVerification(),
    };
    if (this.timeoutCancel) return { ...base, phase: "cancelled", cancel: this.timeoutCancel };
    const P = this.crypto.engine.VerificationRequestPhase;
    const phase = r.phase();
    if (phase === P.Cancelled || r.isCancelled()) {
      const cancel = cancelOf(r.cancelInfo) ?? cancelOf(this.sas?.cancelInfo());
      return { ...base, phase: "cancelled", ...(cancel ? { cancel } : {}) };
    }
    if (phase === P.Done) return { ...base, phase: "done", ...this.emojis() };
    if (phase === P.Created || phase === P.Requested) return { ...base, phase: "requested" };
    if (phase === P.Ready || !this.sas) return { ...base, phase: "ready" };
    const sas = this.sas;
    if (sas.isCancelled()) {
      const cancel = cancelOf(sas.cancelInfo());
      return { ...base, phase: "cancelled", ...(cancel ? { cancel } : {}) };
    }
    if (sas.isDone()) return { ...base, phase: "done", ...this.emojis() };
    if (sas.haveWeConfirmed()) return { ...base, phase: "confirmed", ...this.emojis() };
    if (sas.canBePresented()) return { ...base, phase: "showing_sas", ...this.emojis() };
    return { ...base, phase: "started" };
  }

  private emojis(): { emojis?: readonly SasEmoji[] } {
    const indexes = this.sas?.emojiIndex();
    return indexes ? { emojis: Array.from(indexes, (i) => sasEmoji(i)) } : {};
  }
}
