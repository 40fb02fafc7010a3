/**
 * Routes m.call.* room events to 1:1 calls: creates inbound calls from
 * valid invites, resolves glare, and keeps the list of calls. Invites are
 * ignored when they come from this same device, are older than their
 * lifetime minus 3 s, were already ended (a hangup or reject for the same
 * call id arrived in the same batch or earlier), or name another invitee
 * (SPEC §5). Glare: when an invite from a user we are calling arrives, the
 * call with the lower id wins; our losing outgoing call hands its media to
 * the incoming one, or the losing incoming one is hung up as replaced.
 * Placing a call to someone whose invite already rings here answers it.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { IceServer, MediaPlatform } from "../platform";
import { Emitter } from "../timers";
import { Call } from "./Call";
import type { CallSignaller } from "./Call";
import { CALL_TIMINGS, CallEventType, isCallEventType } from "./types";
import type { IncomingCallEvent } from "./types";

export type InviteIgnoreReason = "own_device" | "expired" | "already_ended" | "other_invitee";

/** Why an invite is ignored, or null when it rings (SPEC §5). */
export function inviteIgnoreReason(
  event: IncomingCallEvent,
  me: { userId: string; deviceId: string | undefined },
  ended: ReadonlySet<string>,
): InviteIgnoreReason | null {
  const c = event.content;
  if (event.sender === me.userId && c.party_id !== undefined && c.party_id === me.deviceId)
    return "own_device";
  const lifetime = c.lifetime ?? CALL_TIMINGS.inviteLifetimeMs;
  if ((event.ageMs ?? 0) > lifetime - CALL_TIMINGS.inviteFreshnessMarginMs) return "expired";
  if (ended.has(c.call_id)) return "already_ended";
  if (typeof c.invitee === "string" && c.invitee !== me.userId) return "other_invitee";
  return null;
}

export interface CallRouterOptions {
  userId: string;
  deviceId: string | undefined;
  platform: MediaPlatform;
  scheduler: Scheduler;
  iceServers: () => IceServer[];
  forceTurn?: () => boolean;
  /** Where a call in `roomId` sends its events. */
  signallerFor(roomId: string): CallSignaller;
}

export interface CallRouterEvents extends Record<string, unknown> {
  /** A valid invite rang: the app shows it. */
  incoming: Call;
}

/** States in which our outgoing call can meet an invite in glare. */
const GLARE_STATES = new Set(["wait_local_media", "create_offer", "invite_sent"]);

export class CallRouter {
  readonly events = new Emitter<CallRouterEvents>();
  private readonly list = new ObservableValue<readonly Call[]>([]);
  private readonly ended = new Set<string>();
  private readonly cleanups = new Map<Call, () => void>();

  constructor(private readonly options: CallRouterOptions) {}

  /** The calls not yet ended. */
  get calls(): ReadonlyObservable<readonly Call[]> {
    return this.list;
  }

  find(callId: string): Call | undefined {
    return this.list.getSnapshot().find((c) => c.callId === callId);
  }

  /** Creates an outbound call to `opponentUserId` in `roomId` and places it. */
  async placeCall(roomId: string, opponentUserId: string, media: { video?: boolean } = {}): Promise<Call> {
    // Calling someone whose call to us rings here answers it: a second call would only cross it (glare, which
    // the lower id, theirs, wins), and the peer would hang ours up as replaced while theirs kept ringing.
    const ringing = this.callWith(roomId, opponentUserId, "inbound", (state) => state === "ringing");
    if (ringing) {
      await ringing.answer({ audio: true, video: media.video ?? false });
      return ringing;
    }
    const call = this.create(roomId, opponentUserId);
    await call.placeCall({ audio: true, video: media.video ?? false });
    return call;
  }

  /**
   * One batch of a room's m.call.* events, in timeline order. Hangups and
   * rejects are looked at first, so an invite ended in the same batch never rings.
   */
  async handleRoomEvents(roomId: string, events: readonly IncomingCallEvent[]): Promise<void> {
    const calls = events.filter((e) => isCallEventType(e.type));
    for (const e of calls)
      if (
        (e.type === CallEventType.Hangup || e.type === CallEventType.Reject) &&
        !this.find(e.content.call_id)
      )
        this.ended.add(e.content.call_id);
    for (const event of calls) {
      if (event.type === CallEventType.Invite) await this.onInvite(roomId, event);
      else await this.find(event.content.call_id)?.handleEvent(event);
    }
  }

  private async onInvite(roomId: string, event: IncomingCallEvent): Promise<void> {
    const { userId, deviceId } = this.options;
    if (this.find(event.content.call_id)) return;
    if (inviteIgnoreReason(event, { userId, deviceId }, this.ended) !== null) return;
    if (deviceId === undefined) return; // a call needs a device id
    const call = this.create(roomId, event.sender, event.content.call_id);
    await call.initWithInvite(event);
    if (call.state.getSnapshot() !== "ringing") return;
    const rival = this.callWith(roomId, event.sender, "outbound", (state) => GLARE_STATES.has(state));
    if (!rival) {
      this.events.emit("incoming", call);
      return;
    }
    if (rival.callId > call.callId) {
      if (!(await rival.replacedBy(call))) this.events.emit("incoming", call);
    } else await call.hangup("replaced");
  }

  /** Our call with `opponentUserId` in `roomId` going in `direction` whose state passes `inState` (glare's two checks). */
  private callWith(
    roomId: string,
    opponentUserId: string,
    direction: Call["direction"],
    inState: (state: ReturnType<Call["state"]["getSnapshot"]>) => boolean,
  ): Call | undefined {
    return this.list
      .getSnapshot()
      .find(
        (c) =>
          c.direction === direction &&
          c.opponentUserId === opponentUserId &&
          c.roomId === roomId &&
          inState(c.state.getSnapshot()),
      );
  }

  private create(roomId: string, opponentUserId: string, callId?: string): Call {
    const call = new Call({
      roomId,
      userId: this.options.userId,
      deviceId: this.options.deviceId,
      opponentUserId,
      platform: this.options.platform,
      scheduler: this.options.scheduler,
      signaller: this.options.signallerFor(roomId),
      iceServers: this.options.iceServers,
      forceTurn: this.options.forceTurn?.() ?? false,
      ...(callId !== undefined ? { callId } : {}),
    });
    this.list.set([...this.list.getSnapshot(), call]);
    this.cleanups.set(
      call,
      call.state.subscribe((state) => {
        if (state !== "ended") return;
        this.ended.add(call.callId);
        this.cleanups.get(call)?.();
        this.cleanups.delete(call);
        this.list.set(this.list.getSnapshot().filter((c) => c !== call));
      }),
    );
    return call;
  }

  /** Hangs up every call and lets go of them. */
  async dispose(): Promise<void> {
    await Promise.all(this.list.getSnapshot().map((c) => c.hangup("user_hangup")));
    for (const stop of this.cleanups.values()) stop();
    this.cleanups.clear();
    this.list.set([]);
    this.events.clear();
  }
}
