/**
 * The pre-call check of Settings › Voice & video, also the call's
 * troubleshooting page: runs the SDK's check (a throw-away peer connection
 * gathering candidates with the call's ICE servers) and publishes what it
 * found: STUN and TURN configured and reachable, and the candidate types.
 */
import type { LiveKitCheckResult, PreCallCheckResult, VoipService } from "../../sdk";
import { ObservableValue } from "../observables";

export interface PreCallView {
  stun: "reachable" | "unreachable" | "not_configured";
  turn: "reachable" | "unreachable" | "not_configured";
  candidates: { host: number; srflx: number; relay: number };
  timedOut: boolean;
  error: string | undefined;
  /** The LiveKit focus (token service and SFU), when the server offers one. */
  livekit?: LiveKitCheckResult;
}

export function preCallView(r: PreCallCheckResult): PreCallView {
  const state = (configured: boolean, reachable: boolean): PreCallView["stun"] =>
    reachable ? "reachable" : configured ? "unreachable" : "not_configured";
  return {
    stun: state(r.stunConfigured, r.stunReachable),
    turn: state(r.turnConfigured, r.turnReachable),
    candidates: { host: r.candidateTypes.host, srflx: r.candidateTypes.srflx, relay: r.candidateTypes.relay },
    timedOut: r.timedOut,
    error: r.error,
  };
}

export class PreCallViewModel {
  readonly result = new ObservableValue<PreCallView | null>(null);
  readonly running = new ObservableValue(false);

  constructor(
    private readonly voip: Pick<VoipService, "preCallCheck" | "hasPlatform">,
    /** The LiveKit part (group calls on an SFU); undefined when the server offers no focus. */
    private readonly livekit?: () => Promise<LiveKitCheckResult | undefined>,
  ) {}

  get available(): boolean {
    return this.voip.hasPlatform;
  }

  async run(): Promise<void> {
    if (this.running.getSnapshot()) return;
    this.running.set(true);
    try {
      const [ice, livekit] = await Promise.all([
        this.voip.preCallCheck(),
        this.livekit?.().catch(() => undefined),
      ]);
      this.result.set({ ...preCallView(ice), ...(livekit ? { livekit } : {}) });
    } catch (e) {
      this.result.set({
        stun: "not_configured",
        turn: "not_configured",
        candidates: { host: 0, srflx: 0, relay: 0 },
        timedOut: false,
        error: e instanceof Error ? e.message : String(e),
      });
    } finally {
      this.running.set(false);
    }
  }
}
