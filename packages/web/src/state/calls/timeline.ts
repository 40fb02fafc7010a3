/**
 * Calls in the timeline, as one line each: a call started (m.call.invite,
 * voice or video from its offer), ended with its duration (m.call.hangup
 * after an m.call.answer), missed (a hangup that was never answered) and
 * declined (m.call.reject); and a mesh group call started or ended (its
 * state event). The other call events (candidates, answers, negotiation)
 * show nothing. Content is untrusted JSON: every field is checked.
 */
import { t } from "../../i18n/i18n";
import { GROUP_CALL_EVENT } from "../../sdk";
import type { TimelineItem } from "../../sdk";
import type { NameOf } from "../timeline/summaries";

function callIdOf(item: TimelineItem): string | undefined {
  const id = item.content["call_id"];
  return typeof id === "string" ? id : undefined;
}

/** "1:05", "1:02:05": a call's duration. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The invite and answer of each call id among the items, found once per timeline build. */
export class CallIndex {
  private readonly invites = new Map<string, TimelineItem>();
  private readonly answers = new Map<string, TimelineItem>();

  constructor(items: readonly TimelineItem[]) {
    for (const item of items) {
      if (item.type !== "m.call.invite" && item.type !== "m.call.answer") continue;
      const id = callIdOf(item);
      if (id === undefined) continue;
      const map = item.type === "m.call.invite" ? this.invites : this.answers;
      if (!map.has(id)) map.set(id, item);
    }
  }

  inviteOf(callId: string): TimelineItem | undefined {
    return this.invites.get(callId);
  }
  answerOf(callId: string): TimelineItem | undefined {
    return this.answers.get(callId);
  }
}

/** Whether the timeline shows `type` as a call line (so its rows builder treats it as a summary). */
export function isCallLineType(type: string): boolean {
  return (
    type === "m.call.invite" ||
    type === "m.call.hangup" ||
    type === "m.call.reject" ||
    type === GROUP_CALL_EVENT
  );
}

/** The line of one call event, or null when the event shows nothing. */
export function callSummary(item: TimelineItem, nameOf: NameOf, index: CallIndex): string | null {
  const name = nameOf(item.sender);
  switch (item.type) {
    case "m.call.invite": {
      const offer = item.content["offer"];
      const sdp =
        typeof offer === "object" && offer !== null ? (offer as Record<string, unknown>)["sdp"] : undefined;
      const video = typeof sdp === "string" && /^m=video /m.test(sdp);
      return t("timeline", video ? "call_started_video" : "call_started", { name });
    }
    case "m.call.hangup": {
      const id = callIdOf(item);
      if (id === undefined) return null;
      const answer = index.answerOf(id);
      if (answer !== undefined)
        return t("timeline", "call_ended", { duration: formatDuration(item.ts - answer.ts) });
      const invite = index.inviteOf(id);
      return t("timeline", "call_missed", { name: nameOf(invite?.sender ?? item.sender) });
    }
    case "m.call.reject":
      return t("timeline", "call_declined", { name });
    case GROUP_CALL_EVENT:
      return item.content["m.terminated"] !== undefined
        ? t("timeline", "call_group_ended")
        : t("timeline", "call_group_started", { name });
    default:
      return null;
  }
}
