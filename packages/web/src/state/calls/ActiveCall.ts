/**
 * The call the call view shows, one shape over the SDK's two kinds: a 1:1
 * Call (OneToOneCallViewModel) or a mesh GroupCall (MeshCallViewModel).
 * Exposes the status, the call length, the feeds, the local mute, camera,
 * screen share and hold state, the last error in the SPEC's words, and the
 * actions the call view's buttons take. No SDK type crosses to the views.
 */
import type { Call, CallState, GroupCall } from "../../sdk";
import { ObservableValue } from "../observables";
import { Scope } from "../Scope";
import { feedView } from "./feeds";
import type { FeedView } from "./feeds";
import type { CallReactionsView } from "./reactions";

/** What the call view says the call is doing. */
/** `reconnecting`: the media connection was lost and is being restored by itself (an SFU restart, a network loss). */
export type CallStatus =
  "calling" | "ringing" | "connecting" | "reconnecting" | "waiting" | "connected" | "ended";

export interface HoldView {
  /** We put the other side on hold. */
  remoteOnHold: boolean;
  /** The other side put us on hold. */
  localOnHold: boolean;
}

export interface ActiveCallViewModel {
  readonly kind: "one_to_one" | "group";
  readonly id: string;
  readonly roomId: string;
  /** The other user of a 1:1 call. */
  readonly opponentUserId: string | undefined;
  readonly status: ObservableValue<CallStatus>;
  /** Milliseconds since the call connected (ticks each second). */
  readonly length: ObservableValue<number>;
  readonly feeds: ObservableValue<readonly FeedView[]>;
  readonly microphoneMuted: ObservableValue<boolean>;
  readonly cameraOff: ObservableValue<boolean>;
  readonly screensharing: ObservableValue<boolean>;
  readonly hold: ObservableValue<HoldView>;
  /** The last failure, in the SPEC's words; null when none. */
  readonly error: ObservableValue<string | null>;
  readonly canHold: boolean;
  readonly canScreenshare: boolean;
  /** Raise hand and reactions (LiveKit calls only). */
  readonly reactions?: CallReactionsView;
  /** DTMF is available (1:1, and the browser has a DTMF sender). */
  canDtmf(): boolean;
  setMicrophoneMuted(muted: boolean): Promise<void>;
  setCameraOff(off: boolean): Promise<void>;
  setScreensharing(on: boolean): Promise<void>;
  setHold(onHold: boolean): void;
  /** Swaps the microphone or camera mid-call (the picker's choice; undefined: the default), no renegotiation. */
  switchInput(kind: "audio" | "video", deviceId: string | undefined): Promise<void>;
  sendDtmf(digit: string): void;
  hangup(): Promise<void>;
  dispose(): void;
}

function statusOf(state: CallState): CallStatus {
  switch (state) {
    case "invite_sent":
      return "calling";
    case "ringing":
      return "ringing";
    case "connected":
      return "connected";
    case "ended":
      return "ended";
    default:
      return "connecting";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The observables both kinds of call publish, and the scope that owns their
 * subscriptions (ended by each kind's dispose).
 */
abstract class CallObservables {
  /** Milliseconds since the call connected (ticks each second). */
  readonly length = new ObservableValue(0);
  readonly feeds = new ObservableValue<readonly FeedView[]>([]);
  readonly microphoneMuted = new ObservableValue(false);
  readonly cameraOff = new ObservableValue(true);
  readonly screensharing = new ObservableValue(false);
  readonly hold = new ObservableValue<HoldView>({ remoteOnHold: false, localOnHold: false });
  readonly error = new ObservableValue<string | null>(null);
  protected readonly scope = new Scope();
}

/** A 1:1 call. */
export class OneToOneCallViewModel extends CallObservables implements ActiveCallViewModel {
  readonly kind = "one_to_one";
  readonly id: string;
  readonly roomId: string;
  readonly opponentUserId: string;
  readonly status: ObservableValue<CallStatus>;
  readonly canHold = true;
  readonly canScreenshare = true;
  private watchedLocal: unknown;

  constructor(readonly call: Call) {
    super();
    this.id = call.callId;
    this.roomId = call.roomId;
    this.opponentUserId = call.opponentUserId;
    this.status = new ObservableValue(statusOf(call.state.getSnapshot()));
    this.scope.subscribe(call.state, (s) => this.status.set(statusOf(s)));
    this.scope.subscribe(call.length, (ms) => this.length.set(ms));
    this.scope.subscribe(call.feeds, () => this.updateFeeds());
    this.scope.subscribe(call.media.holdState, (h) => this.hold.set({ ...h }));
    this.scope.add(call.events.on("error", (e) => this.error.set(e.message)));
    this.updateFeeds();
  }

  private updateFeeds(): void {
    const feeds = this.call.feeds.getSnapshot();
    this.feeds.set(feeds.map(feedView));
    const local = feeds.find((f) => f.isLocal && f.purpose === "m.usermedia");
    if (local && local !== this.watchedLocal) {
      this.watchedLocal = local;
      this.microphoneMuted.set(local.audioMuted);
      this.cameraOff.set(local.videoMuted);
      this.scope.subscribe(local.muteState, (m) => {
        this.microphoneMuted.set(m.audioMuted);
        this.cameraOff.set(m.videoMuted);
      });
    }
    this.screensharing.set(feeds.some((f) => f.isLocal && f.purpose === "m.screenshare"));
  }

  canDtmf(): boolean {
    return this.call.media.supportsDtmf();
  }

  private async attempt(action: () => Promise<void> | void): Promise<void> {
    try {
      this.error.set(null);
      await action();
    } catch (e) {
      this.error.set(messageOf(e));
    }
  }

  setMicrophoneMuted(muted: boolean): Promise<void> {
    return this.attempt(() => this.call.media.setMicrophoneMuted(muted));
  }
  setCameraOff(off: boolean): Promise<void> {
    return this.attempt(() => this.call.media.setVideoMuted(off));
  }
  setScreensharing(on: boolean): Promise<void> {
    return this.attempt(() => this.call.media.setScreensharing(on));
  }
  setHold(onHold: boolean): void {
    void this.attempt(() => this.call.media.setRemoteOnHold(onHold));
  }
  switchInput(kind: "audio" | "video", deviceId: string | undefined): Promise<void> {
    return this.attempt(() => this.call.media.switchInputDevice(kind, deviceId));
  }
  sendDtmf(digit: string): void {
    void this.attempt(() => this.call.media.sendDtmf(digit));
  }
  hangup(): Promise<void> {
    const ringing = this.call.state.getSnapshot() === "ringing";
    return this.attempt(() => (ringing ? this.call.reject() : this.call.hangup("user_hangup")));
  }
  dispose(): void {
    this.scope.end();
  }
}

function groupStatus(group: GroupCall): CallStatus {
  switch (group.state.getSnapshot()) {
    case "ended":
    case "local_call_feed_uninitialized":
      return "ended";
    case "entered":
      for (const call of group.calls.getSnapshot().values())
        if (call.state.getSnapshot() === "connected") return "connected";
      return "waiting";
    default:
      return "connecting";
  }
}

/** A mesh group call: our feed and one 1:1 call per participant device. */
export class MeshCallViewModel extends CallObservables implements ActiveCallViewModel {
  readonly kind = "group";
  readonly id: string;
  readonly roomId: string;
  readonly opponentUserId = undefined;
  readonly status: ObservableValue<CallStatus>;
  readonly canHold = false;
  readonly canScreenshare = true;
  private callScope = this.scope.child();
  private connectedAt: number | undefined;

  constructor(
    readonly group: GroupCall,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.id = group.groupCallId;
    this.roomId = group.roomId;
    this.status = new ObservableValue(groupStatus(group));
    this.scope.subscribe(group.state, () => this.update());
    this.scope.subscribe(group.calls, () => this.watchCalls());
    this.scope.subscribe(group.microphoneMuted, (m) => this.microphoneMuted.set(m));
    this.scope.subscribe(group.localScreenshareFeed, () => this.update());
    this.scope.add(group.events.on("error", (e) => this.error.set(e.message)));
    const tick = setInterval(() => {
      if (this.connectedAt !== undefined) this.length.set(this.now() - this.connectedAt);
    }, 1000);
    this.scope.add(() => clearInterval(tick));
    this.watchCalls();
  }

  private watchCalls(): void {
    this.callScope.end();
    this.callScope = this.scope.child();
    for (const call of this.group.calls.getSnapshot().values()) {
      this.callScope.subscribe(call.feeds, () => this.update());
      this.callScope.subscribe(call.state, () => this.update());
    }
    this.update();
  }

  private update(): void {
    const status = groupStatus(this.group);
    if (status === "connected" && this.connectedAt === undefined) this.connectedAt = this.now();
    this.status.set(status);
    const local = this.group.localFeed;
    const remote = [...this.group.calls.getSnapshot().values()].flatMap((c) =>
      c.state.getSnapshot() === "ended" ? [] : c.feeds.getSnapshot().filter((f) => !f.isLocal),
    );
    const screen = this.group.localScreenshareFeed.getSnapshot();
    this.feeds.set([...(local ? [local] : []), ...(screen ? [screen] : []), ...remote].map(feedView));
    if (local) this.cameraOff.set(local.videoMuted);
    this.screensharing.set(screen !== undefined);
  }

  canDtmf(): boolean {
    return false;
  }

  private async attempt(action: () => Promise<void> | void): Promise<void> {
    try {
      this.error.set(null);
      await action();
    } catch (e) {
      this.error.set(messageOf(e));
    }
  }

  /** Enters the call (captures media, announces our device, calls the others). */
  enter(): Promise<void> {
    return this.attempt(() => this.group.enter());
  }

  setMicrophoneMuted(muted: boolean): Promise<void> {
    return this.attempt(() => this.group.setMicrophoneMuted(muted));
  }
  setCameraOff(off: boolean): Promise<void> {
    return this.attempt(async () => {
      const local = this.group.localFeed;
      if (!local || local.stream.getVideoTracks().length === 0) return;
      local.setMuted({ videoMuted: off });
      this.cameraOff.set(off);
      await Promise.all([...this.group.calls.getSnapshot().values()].map((c) => c.media.setVideoMuted(off)));
    });
  }
  /** Shares the screen with every peer of the mesh, or stops. */
  setScreensharing(on: boolean): Promise<void> {
    return this.attempt(() => this.group.setScreensharing(on));
  }
  setHold(): void {
    // Hold is a 1:1 feature (canHold is false).
  }
  switchInput(kind: "audio" | "video", deviceId: string | undefined): Promise<void> {
    return this.attempt(() => this.group.switchInputDevice(kind, deviceId));
  }
  sendDtmf(): void {
    // DTMF is a 1:1 feature (canDtmf is false).
  }
  /** Leaves the group call; the others carry on. */
  hangup(): Promise<void> {
    return this.attempt(() => this.group.leave());
  }
  dispose(): void {
    this.scope.end();
  }
}
