/**
 * One verification as the dialog shows it: a step (starting, waiting for
 * the other side, an incoming request to accept, the 7 emojis to compare,
 * waiting for their confirmation, verified, cancelled), the emojis with
 * their names, and the actions. It drives the SDK's VerificationFlow: the
 * side that sent the request starts SAS once the other accepts, the other
 * side accepts that SAS start, so the user only accepts and compares.
 */
import type { VerificationFlow, VerificationState } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";

/** Where the dialog stands. */
export type VerificationStep =
  | "starting"
  | "waiting"
  | "incoming"
  | "accepting"
  | "emojis"
  | "confirmed"
  | "done"
  | "cancelled"
  | "failed";

/** What the dialog shows. */
export interface VerificationView {
  step: VerificationStep;
  otherUserId: string;
  otherDeviceId?: string;
  /** Verifying another session of our own account. */
  selfVerification: boolean;
  emojis: ReadonlyArray<{ emoji: string; name: string }>;
  /** Why it ended (cancelled) or failed, as one sentence. */
  reason: string | null;
  busy: boolean;
}

function stepOf(state: VerificationState, accepting: boolean): VerificationStep {
  switch (state.phase) {
    case "requested":
      return state.weStarted ? "waiting" : accepting ? "accepting" : "incoming";
    case "ready":
    case "started":
      return state.weStarted ? "waiting" : "accepting";
    case "showing_sas":
      return "emojis";
    case "confirmed":
      return "confirmed";
    case "done":
      return "done";
    case "cancelled":
      return "cancelled";
  }
}

function reasonOf(state: VerificationState): string | null {
  const cancel = state.cancel;
  if (cancel === undefined) return null;
  if (cancel.code === "m.mismatched_sas") return t("verification", "reason_mismatch");
  if (cancel.code === "m.timeout") return t("verification", "reason_timeout");
  if (cancel.code === "m.user")
    return t("verification", cancel.byUs ? "reason_cancelled_by_us" : "reason_cancelled_by_them");
  return t("verification", "reason_other", { reason: cancel.reason || cancel.code });
}

/** The view model of one verification dialog; see the file overview. */
export class VerificationViewModel {
  readonly view: ObservableValue<VerificationView>;
  private flow: VerificationFlow | null = null;
  private accepting = false;
  private sasStarted = false;

  constructor(
    otherUserId: string,
    private readonly scope: Scope,
  ) {
    this.view = new ObservableValue<VerificationView>({
      step: "starting",
      otherUserId,
      selfVerification: false,
      emojis: [],
      reason: null,
      busy: true,
    });
  }

  /** Follows `flow` from now on (a request we sent, or one that arrived). */
  attach(flow: VerificationFlow): void {
    if (this.scope.ended) return;
    this.flow = flow;
    this.scope.add(flow.subscribe((state) => this.update(state)));
    this.update(flow.state);
  }

  /** Starting failed (no device to ask, the engine refused): the dialog says why. */
  fail(message: string): void {
    this.view.set({ ...this.view.getSnapshot(), step: "failed", reason: message, busy: false });
  }

  /** Accepts an incoming request. */
  accept(): Promise<void> {
    this.accepting = true;
    return this.act(async (flow) => {
      await flow.accept();
    });
  }

  /** The emojis match. */
  match(): Promise<void> {
    return this.act((flow) => flow.confirm());
  }

  /** The emojis differ: cancels with m.mismatched_sas. */
  mismatch(): Promise<void> {
    return this.act((flow) => flow.mismatch());
  }

  /** Declines or stops the verification (m.user); nothing to do once it ended. */
  cancel(): Promise<void> {
    const phase = this.flow?.state.phase;
    if (phase === "done" || phase === "cancelled") return Promise.resolve();
    return this.act((flow) => flow.cancel());
  }

  private update(state: VerificationState): void {
    const step = stepOf(state, this.accepting);
    this.view.set({
      step,
      otherUserId: state.otherUserId,
      ...(state.otherDeviceId !== undefined ? { otherDeviceId: state.otherDeviceId } : {}),
      selfVerification: state.selfVerification,
      emojis: (state.emojis ?? []).map((e) => ({ emoji: e.emoji, name: e.name })),
      reason: reasonOf(state),
      busy: step === "accepting" || step === "starting",
    });
    // The requester starts SAS once the other side is ready; the other side accepts that start.
    const shouldStart =
      (state.phase === "ready" && state.weStarted) || (state.phase === "started" && !state.weStarted);
    if (shouldStart && !this.sasStarted) {
      this.sasStarted = true;
      void this.act((flow) => flow.startSas());
    }
  }

  private async act(action: (flow: VerificationFlow) => Promise<void>): Promise<void> {
    const flow = this.flow;
    if (flow === null) return;
    try {
      await action(flow);
    } catch (error) {
      this.fail(
        t("verification", "failed", { message: error instanceof Error ? error.message : String(error) }),
      );
    }
  }
}
