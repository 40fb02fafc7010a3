/**
 * The call's connectivity rules (SPEC §4, §9): ICE connected or completed
 * gives connected; disconnected gives connecting, restarts ICE after 2 s and
 * hangs up with ice_failed after 30 s; failed restarts ICE, or hangs up when
 * the platform or the peer (version 0) cannot. Once connected, the call
 * length ticks every second.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { IceConnectionState, PeerConnection } from "../platform";
import type { OwnedTimers } from "../timers";
import { CALL_TIMINGS } from "./types";
import type { CallState, HangupReason } from "./types";

export interface ConnectivityHost {
  readonly peer: PeerConnection | undefined;
  readonly canRenegotiate: boolean;
  readonly ended: boolean;
  readonly timers: OwnedTimers;
  readonly scheduler: Scheduler;
  hangup(reason: HangupReason): Promise<void>;
}

export class Connectivity {
  private readonly lengthValue = new ObservableValue(0);
  private cancelDisconnect: Array<() => void> = [];
  private iceConnectedEarly = false;
  private connectedAt: number | undefined;

  constructor(
    private readonly call: ConnectivityHost,
    private readonly state: ObservableValue<CallState>,
  ) {}

  /** Milliseconds since connected, ticking every second. */
  get length(): ReadonlyObservable<number> {
    return this.lengthValue;
  }

  onIceState(ice: IceConnectionState): void {
    const call = this.call;
    if (call.ended) return;
    if (ice === "connected" || ice === "completed") {
      for (const cancel of this.cancelDisconnect.splice(0)) cancel();
      if (this.state.getSnapshot() === "connecting") this.enterConnected();
      else this.iceConnectedEarly = true;
    } else if (ice === "disconnected") {
      if (this.state.getSnapshot() === "connected") this.state.set("connecting");
      for (const cancel of this.cancelDisconnect.splice(0)) cancel();
      this.cancelDisconnect.push(
        call.timers.after(CALL_TIMINGS.iceRestartDelayMs, () => this.restartIce()),
        call.timers.after(CALL_TIMINGS.iceDisconnectHangupMs, () => void call.hangup("ice_failed")),
      );
    } else if (ice === "failed") {
      if (!this.restartIce()) void call.hangup("ice_failed");
    }
  }

  /** Restarts ICE when both the platform and the peer can; false when unsupported. */
  restartIce(): boolean {
    const peer = this.call.peer;
    if (!peer?.restartIce || !this.call.canRenegotiate || this.call.ended) return false;
    peer.restartIce();
    return true;
  }

  /** The answer is out (callee) or in (caller): connecting, or connected if ICE already is. */
  enterConnecting(): void {
    this.state.set("connecting");
    if (this.iceConnectedEarly) this.enterConnected();
  }

  private enterConnected(): void {
    this.state.set("connected");
    if (this.connectedAt !== undefined) return;
    const { scheduler, timers } = this.call;
    const since = scheduler.now();
    this.connectedAt = since;
    timers.every(CALL_TIMINGS.callLengthTickMs, () => this.lengthValue.set(scheduler.now() - since));
  }
}
