/**
 * The incoming group-call toasts, of two kinds:
 *   - mesh: a mesh group call (MSC3401) running in a room we are in, that
 *     someone else is taking part in and that prompts or rings the room
 *     (intent m.prompt or m.ring; m.room calls wait quietly in the room
 *     header), shows Join and Dismiss until we join, dismiss it, or the
 *     last participant leaves;
 *   - rtc: a MatrixRTC (LiveKit, Element Call) call that rang us (the RTC
 *     notification of type "ring", or the deprecated call.notify) shows Join
 *     and Decline while the SDK says it rings for us (`client.rtc.ringingForUs`:
 *     until its lifetime passes, we join on any device, we decline on any
 *     device, or the ringer leaves the call), and not while our active call
 *     is in its room.
 */
import type { GroupCall, IncomingRing, ReadonlyObservable } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";

export interface IncomingGroupCallView {
  /** mesh: the group call id; rtc: the ring's notification event id. */
  readonly id: string;
  readonly kind: "mesh" | "rtc";
  readonly roomId: string;
  readonly roomName: string;
  /** A participant who is in the call (the ringer for rtc), to name on the toast. */
  readonly callerId: string;
  readonly callerName: string;
  readonly video: boolean;
}

/** What the toasts read of the client and the app's calls. */
export interface IncomingGroupCallsHost {
  groupCalls: ReadonlyObservable<ReadonlyMap<string, GroupCall>>;
  /** MatrixRTC rings for us, ringing now. */
  rtcRings: ReadonlyObservable<readonly IncomingRing[]>;
  userId: string;
  roomName(roomId: string): string;
  memberName(roomId: string, userId: string): string;
  /** The group call id of the call we are in, if any. */
  activeCallId(): string | undefined;
  /** The room of the call we are in, if any. */
  activeRoomId(): string | undefined;
}

export class IncomingGroupCalls {
  readonly toasts = new ObservableValue<readonly IncomingGroupCallView[]>([]);
  private readonly dismissed = new Set<string>();
  private watching: Scope;

  constructor(
    private readonly host: IncomingGroupCallsHost,
    private readonly scope: Scope,
  ) {
    this.watching = scope.child();
    scope.subscribe(host.groupCalls, () => this.watch());
    scope.subscribe(host.rtcRings, () => this.update());
    this.watch();
  }

  /** Hides a toast for good (a mesh call's comes back for a new call only). */
  dismiss(id: string): void {
    this.dismissed.add(id);
    this.update();
  }

  /** The ring behind an rtc toast, while it rings. */
  ring(id: string): IncomingRing | undefined {
    return this.host.rtcRings.getSnapshot().find((r) => r.ring.eventId === id);
  }

  /** Recomputes the toasts (the active call changed). */
  update(): void {
    const out = [...this.meshToasts(), ...this.rtcToasts()].map(
      (view) => this.toasts.getSnapshot().find((t) => t.id === view.id && t.kind === view.kind) ?? view,
    );
    const now = this.toasts.getSnapshot();
    if (out.length !== now.length || out.some((t, i) => t !== now[i])) this.toasts.set(out);
  }

  private meshToasts(): IncomingGroupCallView[] {
    const active = this.host.activeCallId();
    const out: IncomingGroupCallView[] = [];
    for (const group of this.host.groupCalls.getSnapshot().values()) {
      const intent = group.content["m.intent"];
      if (intent === "m.room" || group.groupCallId === active || this.dismissed.has(group.groupCallId))
        continue;
      if (group.state.getSnapshot() !== "local_call_feed_uninitialized") continue;
      const caller = group.participants.getSnapshot().find((p) => p.userId !== this.host.userId);
      if (!caller) continue;
      out.push(
        this.view(
          "mesh",
          group.groupCallId,
          group.roomId,
          caller.userId,
          group.content["m.type"] === "m.video",
        ),
      );
    }
    return out;
  }

  private rtcToasts(): IncomingGroupCallView[] {
    const activeRoom = this.host.activeRoomId();
    return this.host.rtcRings
      .getSnapshot()
      .filter(({ roomId, ring }) => roomId !== activeRoom && !this.dismissed.has(ring.eventId))
      .map(({ roomId, ring }) =>
        this.view("rtc", ring.eventId, roomId, ring.sender, ring.callIntent !== "audio"),
      );
  }

  private view(
    kind: IncomingGroupCallView["kind"],
    id: string,
    roomId: string,
    callerId: string,
    video: boolean,
  ): IncomingGroupCallView {
    return {
      id,
      kind,
      roomId,
      roomName: this.host.roomName(roomId),
      callerId,
      callerName: this.host.memberName(roomId, callerId),
      video,
    };
  }

  private watch(): void {
    this.watching.end();
    this.watching = this.scope.child();
    for (const group of this.host.groupCalls.getSnapshot().values()) {
      this.watching.subscribe(group.participants, () => this.update());
      this.watching.subscribe(group.state, () => this.update());
    }
    this.update();
  }
}
