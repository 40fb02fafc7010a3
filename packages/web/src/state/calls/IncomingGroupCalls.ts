/**
 * The incoming group-call toasts: a mesh group call (MSC3401) running in a
 * room we are in, that someone else is taking part in and that prompts or
 * rings the room (intent m.prompt or m.ring; m.room calls wait quietly in
 * the room header), shows a toast with Join and Dismiss until we join,
 * dismiss it, or the last participant leaves.
 */
import type { GroupCall, ReadonlyObservable } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";

export interface IncomingGroupCallView {
  /** The group call id. */
  readonly id: string;
  readonly roomId: string;
  readonly roomName: string;
  /** A participant who is in the call, to name on the toast. */
  readonly callerId: string;
  readonly callerName: string;
  readonly video: boolean;
}

/** What the toasts read of the client and the app's calls. */
export interface IncomingGroupCallsHost {
  groupCalls: ReadonlyObservable<ReadonlyMap<string, GroupCall>>;
  userId: string;
  roomName(roomId: string): string;
  memberName(roomId: string, userId: string): string;
  /** The group call id of the call we are in, if any. */
  activeCallId(): string | undefined;
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
    this.watch();
  }

  /** Hides a call's toast for good (it comes back for a new call only). */
  dismiss(id: string): void {
    this.dismissed.add(id);
    this.update();
  }

  /** Recomputes the toasts (the active call changed). */
  update(): void {
    const active = this.host.activeCallId();
    const out: IncomingGroupCallView[] = [];
    for (const group of this.host.groupCalls.getSnapshot().values()) {
      const intent = group.content["m.intent"];
      if (intent === "m.room" || group.groupCallId === active || this.dismissed.has(group.groupCallId))
        continue;
      if (group.state.getSnapshot() !== "local_call_feed_uninitialized") continue;
      const caller = group.participants.getSnapshot().find((p) => p.userId !== this.host.userId);
      if (!caller) continue;
      const previous = this.toasts.getSnapshot().find((t) => t.id === group.groupCallId);
      out.push(
        previous ?? {
          id: group.groupCallId,
          roomId: group.roomId,
          roomName: this.host.roomName(group.roomId),
          callerId: caller.userId,
          callerName: this.host.memberName(group.roomId, caller.userId),
          video: group.content["m.type"] === "m.video",
        },
      );
    }
    const now = this.toasts.getSnapshot();
    if (out.length !== now.length || out.some((t, i) => t !== now[i])) this.toasts.set(out);
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
