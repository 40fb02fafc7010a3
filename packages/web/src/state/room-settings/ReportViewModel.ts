/**
 * The "report message" flow the timeline's action bar calls:
 * `reportEvent(roomId, eventId)` opens the dialog (the `target`), and
 * `submit(reason, score)` sends the report to the server's admins. Score is
 * the spec's -100 (most offensive) to 0.
 */
import type { Client } from "../../sdk";
import { t } from "../../i18n/i18n";
import { ObservableValue } from "../observables";
import { describeFailure } from "../rooms/failure";

/** The message being reported, and the dialog's state. */
export interface ReportState {
  roomId: string;
  eventId: string;
  busy: boolean;
  error: string | null;
  sent: string | null;
}

export class ReportViewModel {
  readonly target = new ObservableValue<ReportState | null>(null);

  constructor(private readonly client: Pick<Client, "moderation">) {}

  /** Opens the report dialog for a message (the action bar's "Report"). */
  reportEvent(roomId: string, eventId: string): void {
    this.target.set({ roomId, eventId, busy: false, error: null, sent: null });
  }

  close(): void {
    this.target.set(null);
  }

  /** Sends the report; `score` from -100 (worst) to 0. */
  async submit(reason: string, score?: number): Promise<boolean> {
    const now = this.target.getSnapshot();
    if (now === null) return false;
    this.target.set({ ...now, busy: true, error: null });
    try {
      const s = score === undefined ? undefined : Math.max(-100, Math.min(0, Math.round(score)));
      await this.client.moderation.reportEvent(now.roomId, now.eventId, reason.trim(), s);
      this.target.set({ ...now, busy: false, sent: t("roomSettings", "report_sent") });
      return true;
    } catch (error) {
      this.target.set({ ...now, busy: false, error: describeFailure(error) });
      return false;
    }
  }
}
