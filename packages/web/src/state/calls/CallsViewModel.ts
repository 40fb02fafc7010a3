/**
 * The app's calls over `client.voip`: the incoming calls that ring (with
 * the caller's name and avatar, accept as voice or video, decline), the
 * active call the call view and the picture-in-picture bar show, and the
 * room header's call buttons (a room of two gets a 1:1 call, legacy or
 * MatrixRTC as Settings chose and the other side allows (oneToOne.ts), a
 * bigger room a group call, joined when one is already running), and the group
 * calls we may join (mesh calls, and MatrixRTC calls that ring us: Join on
 * LiveKit, or Decline). A desktop notification announces an incoming call
 * or ring while the tab is hidden.
 *
 * The SDK loads its call services on first use (ADR 0038): this model asks
 * for them at once and follows them from when they arrive (`ready`); the
 * SDK holds the sync batches meanwhile, so a call that came in before they
 * loaded still rings (picked up from the service's ringing calls).
 */
import type { Call, Client, GroupCall, IncomingRing, RtcService, VoipService } from "../../sdk";
import type { JoinChoice } from "./LiveKitCall";
import { ObservableValue } from "../observables";
import { Scope } from "../Scope";
import { MeshCallViewModel, OneToOneCallViewModel } from "./ActiveCall";
import type { ActiveCallViewModel } from "./ActiveCall";
import type { CallSettings } from "./CallSettings";
import { DevicesViewModel } from "./DevicesViewModel";
import { IncomingGroupCalls } from "./IncomingGroupCalls";
import type { IncomingGroupCallView } from "./IncomingGroupCalls";
import { PreCallViewModel } from "./PreCallViewModel";
import type { CallNotice } from "./oneToOne";
import type { BrowserMediaPlatform } from "../../platform";
import type { Subscribable } from "../useObservable";

export interface IncomingCallView {
  readonly id: string;
  readonly roomId: string;
  readonly callerId: string;
  readonly callerName: string;
  /** The caller's avatar mxc URL, if any. */
  readonly avatarUrl: string | undefined;
  /** The caller offers video. */
  readonly video: boolean;
}

/** The browser's side of call announcements. */
export interface CallsHost {
  /** Announces a ringing call with a desktop notification while the tab is hidden. */
  notify?(call: IncomingCallView): void;
  /** Opens a room (returning to the call's room). */
  openRoom(roomId: string): void;
}

/** The lobby before a LiveKit group call: the room, and whether the call was placed as a video call. */
export interface LobbyView {
  readonly roomId: string;
  readonly video: boolean;
  /** A MatrixRTC 1:1 call: the user to ring once joined. */
  readonly ringUserId?: string | undefined;
}

export class CallsViewModel {
  /** Calls ringing here, newest last. */
  readonly incoming = new ObservableValue<readonly IncomingCallView[]>([]);
  /** The call in progress (one at a time), or null. */
  readonly active = new ObservableValue<ActiveCallViewModel | null>(null);
  /** The lobby (device preview before joining a LiveKit call), or null. */
  readonly lobby = new ObservableValue<LobbyView | null>(null);
  /** A failure to place or answer, in the SPEC's words. */
  readonly error = new ObservableValue<string | null>(null);
  /** The 1:1 call's fallback or its ring's end (CallNotice). */
  readonly notice = new ObservableValue<CallNotice | null>(null);
  /** The device pickers, device test and level meter. */
  readonly devices: DevicesViewModel;
  /** The pre-call check (the call's troubleshooting page). */
  readonly preCall: PreCallViewModel;
  /** Group calls running in our rooms that we may join (the Join / Dismiss toasts). */
  readonly incomingGroup: IncomingGroupCalls;
  /** Resolves once the SDK's call services have loaded and this model follows them. */
  readonly ready: Promise<void>;
  private readonly ringing = new Map<string, Call>();
  /** MatrixRTC rings already announced (one desktop notification each). */
  private readonly announcedRings = new Set<string>();
  private readonly scope: Scope;
  private voip: VoipService | undefined;
  private rtc: RtcService | undefined;
  private readonly groupCalls = new ObservableValue<ReadonlyMap<string, GroupCall>>(new Map());
  private readonly rtcActive = new ObservableValue<ReadonlyMap<string, unknown>>(new Map());
  private readonly rtcRings = new ObservableValue<readonly IncomingRing[]>([]);

  constructor(
    private readonly client: Client,
    readonly settings: CallSettings,
    private readonly platform: BrowserMediaPlatform | undefined,
    private readonly host: CallsHost,
    scope?: Scope,
  ) {
    this.scope = scope ?? new Scope();
    // A device chosen mid-call is swapped onto the running call's senders.
    this.devices = new DevicesViewModel(platform, settings, (kind, id) => {
      void this.active.getSnapshot()?.switchInput(kind, id);
    });
    const supported = (): boolean => this.supported;
    const voipView = {
      get hasPlatform() {
        return supported();
      },
      preCallCheck: async (timeoutMs?: number) => (await client.voip()).preCallCheck(timeoutMs),
    };
    this.preCall = new PreCallViewModel(voipView, async () => {
      const { checkLiveKit } = await import("./LiveKitCall");
      // A token for the call's room, or for a check-only room when no call is on.
      const roomId =
        this.active.getSnapshot()?.roomId ?? `!precall:${client.userId.split(":").slice(1).join(":")}`;
      return checkLiveKit(client, roomId);
    });
    this.scope.add(() => this.devices.dispose());
    this.incomingGroup = new IncomingGroupCalls(
      {
        groupCalls: this.groupCalls,
        rtcRings: this.rtcRings,
        userId: client.userId,
        roomName: (roomId) => client.rooms.find(roomId)?.getSnapshot().name.name ?? roomId,
        memberName: (roomId, userId) => this.nameOf(roomId, userId),
        activeCallId: () => this.active.getSnapshot()?.id,
        activeRoomId: () => this.active.getSnapshot()?.roomId,
      },
      this.scope,
    );
    this.scope.subscribe(this.incomingGroup.toasts, (toasts) => this.announceRings(toasts));
    this.scope.subscribe(this.active, () => this.incomingGroup.update());
    this.scope.add(() => this.active.getSnapshot()?.dispose());
    this.ready = Promise.all([client.voip(), client.rtc()]).then(
      ([voip, rtc]) => this.follow(voip, rtc),
      (e: unknown) => this.error.set(e instanceof Error ? e.message : String(e)),
    );
  }

  /** The call services have loaded: ring their incoming calls (those already ringing too) and mirror their lists. */
  private follow(voip: VoipService, rtc: RtcService): void {
    if (this.scope.ended) return;
    this.voip = voip;
    this.rtc = rtc;
    this.scope.add(voip.onIncoming((call) => this.onIncoming(call)));
    for (const call of voip.calls.getSnapshot())
      if (call.state.getSnapshot() === "ringing") this.onIncoming(call);
    this.scope.subscribe(voip.groupCalls, (calls) => this.groupCalls.set(calls));
    this.groupCalls.set(voip.groupCalls.getSnapshot());
    this.scope.subscribe(rtc.active, (sessions) => this.rtcActive.set(sessions));
    this.rtcActive.set(rtc.active.getSnapshot());
    this.scope.subscribe(rtc.ringingForUs, (rings) => this.rtcRings.set(rings));
    this.rtcRings.set(rtc.ringingForUs.getSnapshot());
  }

  /** A member's display name in the room (the user id when unknown). */
  nameOf(roomId: string, userId: string): string {
    return this.client.rooms.find(roomId)?.getSnapshot().state.members.get(userId)?.name ?? userId;
  }

  /** Whether this browser can call at all. */
  get supported(): boolean {
    return this.voip?.hasPlatform ?? this.platform !== undefined;
  }

  /** How a call from this room is placed: 1:1 in a room of two, a group call in a bigger room. */
  kindFor(roomId: string): "one_to_one" | "group" | null {
    const room = this.client.rooms.find(roomId);
    if (!room) return null;
    const joined = room.getSnapshot().state.memberCounts().joined;
    if (joined < 2) return null;
    return joined === 2 ? "one_to_one" : "group";
  }

  /**
   * Places a call in the room (voice, or video with `video`). A group call
   * on LiveKit opens the lobby first when `options.lobby` (the room
   * header's buttons); the join happens from there.
   */
  async place(roomId: string, video: boolean, options: { lobby?: boolean } = {}): Promise<void> {
    if (this.active.getSnapshot()) return;
    this.error.set(null);
    this.notice.set(null);
    const kind = this.kindFor(roomId);
    try {
      const voip = await this.client.voip();
      // The 1:1 route's code loads with the first call placed (the room list does not need it).
      const oneToOne = kind === "one_to_one" ? await import("./oneToOne") : undefined;
      const peer = oneToOne?.peerOf(this.client, roomId);
      const route =
        peer === undefined || oneToOne === undefined
          ? undefined
          : await oneToOne.routeOneToOne(
              this.client,
              await this.client.rtc(),
              roomId,
              peer,
              this.settings.current.oneToOneCalls,
            );
      if (peer !== undefined && route?.route === "matrixrtc") {
        // Ring only for a new call: in a running one the other side is there already.
        const ringUserId = route.reason === "peer-supports" ? peer : undefined;
        if (options.lobby === true) this.lobby.set({ roomId, video, ringUserId });
        else await this.enterLiveKit(roomId, video, {}, ringUserId);
      } else if (kind === "one_to_one") {
        const fallback = route && oneToOne?.fallbackOf(route);
        if (fallback !== undefined && peer !== undefined)
          this.notice.set({ kind: fallback, name: this.nameOf(roomId, peer) });
        const call = await voip.placeCall(roomId, { video });
        this.setActive(new OneToOneCallViewModel(call));
      } else if (kind === "group" && (await this.groupOnLiveKit(roomId))) {
        // The server offers a LiveKit focus: the group call goes on the SFU, end-to-end encrypted.
        if (options.lobby === true) this.lobby.set({ roomId, video });
        else await this.enterLiveKit(roomId, video, {});
      } else if (kind === "group") {
        const group =
          voip.groupCall(roomId) ??
          (await voip.createGroupCall(roomId, {
            type: video ? "m.video" : "m.voice",
            intent: "m.prompt",
          }));
        await this.enterGroup(group);
      }
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
    }
  }

  /** Joins the lobby's call with what was chosen there (microphone muted, camera off). */
  async joinFromLobby(choice: JoinChoice): Promise<void> {
    const lobby = this.lobby.getSnapshot();
    if (lobby === null || this.active.getSnapshot()) return;
    this.leaveLobby();
    this.error.set(null);
    try {
      await this.enterLiveKit(lobby.roomId, lobby.video, choice, lobby.ringUserId);
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
    }
  }

  /** Closes the lobby without joining (its preview stops). */
  leaveLobby(): void {
    this.lobby.set(null);
    this.devices.stopPreview();
  }

  private async enterLiveKit(
    roomId: string,
    video: boolean,
    choice: JoinChoice,
    ringUserId?: string,
  ): Promise<void> {
    const [{ LiveKitCallViewModel }, { followOneToOne, peerOf }] = await Promise.all([
      import("./LiveKitCall"),
      import("./oneToOne"),
    ]);
    const rtc = await this.client.rtc();
    const vm = new LiveKitCallViewModel(this.client, rtc, roomId, this.platform, video, choice);
    const peer = this.kindFor(roomId) === "one_to_one" ? peerOf(this.client, roomId) : undefined;
    vm.opponentUserId = peer;
    this.setActive(vm);
    await vm.enter();
    if (vm.error.getSnapshot() !== null) {
      this.error.set(vm.error.getSnapshot());
      return;
    }
    if (peer === undefined) return;
    // A 1:1 call rings when asked, and ends on a decline, no answer, or the other person leaving.
    await followOneToOne(rtc, vm, peer, ringUserId !== undefined && { video }, (outcome) => {
      if (this.active.getSnapshot() !== vm) return;
      if (outcome !== undefined) this.notice.set({ kind: outcome, name: this.nameOf(roomId, peer) });
      void this.hangup(vm);
    });
  }

  /**
   * Joins the group call of an incoming group-call toast and opens its room
   * (a call in progress is hung up first).
   */
  async joinGroup(id: string): Promise<void> {
    const group = [...this.groupCalls.getSnapshot().values()].find((g) => g.groupCallId === id);
    if (!group) return;
    this.error.set(null);
    this.host.openRoom(group.roomId);
    const previous = this.active.getSnapshot();
    if (previous) await this.hangup(previous);
    await this.enterGroup(group);
  }

  /**
   * Joins the MatrixRTC call that rang us (an rtc toast) on LiveKit, with
   * video unless the ring's intent is audio, and opens its room (a call in
   * progress is hung up first).
   */
  async joinRing(id: string): Promise<void> {
    const incoming = this.incomingGroup.ring(id);
    if (!incoming) return;
    this.incomingGroup.dismiss(id);
    this.error.set(null);
    this.host.openRoom(incoming.roomId);
    const previous = this.active.getSnapshot();
    if (previous) await this.hangup(previous);
    try {
      await this.enterLiveKit(incoming.roomId, incoming.ring.callIntent !== "audio", {});
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
    }
  }

  /** Declines a MatrixRTC ring (the decline event tells the caller and our other devices). */
  async declineRing(id: string): Promise<void> {
    const incoming = this.incomingGroup.ring(id);
    this.incomingGroup.dismiss(id);
    if (incoming) await (await this.client.rtc()).decline(incoming.roomId, id).catch(() => undefined);
  }

  /** A desktop notification for each new MatrixRTC ring (the host shows it only while the tab is hidden). */
  private announceRings(toasts: readonly IncomingGroupCallView[]): void {
    for (const toast of toasts) {
      if (toast.kind !== "rtc" || this.announcedRings.has(toast.id)) continue;
      this.announcedRings.add(toast.id);
      this.host.notify?.({
        id: toast.id,
        roomId: toast.roomId,
        callerId: toast.callerId,
        callerName: toast.callerName,
        avatarUrl: this.client.rooms.find(toast.roomId)?.getSnapshot().state.members.get(toast.callerId)
          ?.avatarUrl,
        video: toast.video,
      });
    }
  }

  private async enterGroup(group: GroupCall): Promise<void> {
    const vm = new MeshCallViewModel(group);
    this.setActive(vm);
    await vm.enter();
    if (vm.error.getSnapshot() !== null) this.error.set(vm.error.getSnapshot());
  }

  /** MatrixRTC sessions with members, by room: the header's buttons follow it (join a running call). */
  get rtcSessions(): Subscribable<unknown> {
    return this.rtcActive;
  }

  /** Whether a group call is running in the room, mesh or MatrixRTC (the header offers to join it). */
  hasGroupCall(roomId: string): boolean {
    if (!this.supported) return false;
    const rtcMembers = this.rtc?.session(roomId).memberships.getSnapshot().length ?? 0;
    return this.voip?.groupCall(roomId) !== undefined || rtcMembers > 0;
  }

  /**
   * Whether the room's call buttons join a running call (the header says
   * "Join…"): a group call in a bigger room; in a room of two, a MatrixRTC
   * call the other person is in, which the 1:1 route joins whatever the
   * preference.
   */
  joinsRunningCall(roomId: string): boolean {
    const kind = this.kindFor(roomId);
    if (kind === "group") return this.hasGroupCall(roomId);
    if (kind === null || !this.supported) return false;
    const me = this.client.userId;
    return (
      this.rtc
        ?.session(roomId)
        .memberships.getSnapshot()
        .some((m) => m.sender !== me) ?? false
    );
  }

  /**
   * Feature detection: a group call goes on LiveKit when the server offers
   * a LiveKit focus (MSC4143 rtc transports) and no mesh call is running
   * in the room; otherwise it is a mesh call.
   */
  private async groupOnLiveKit(roomId: string): Promise<boolean> {
    if ((await this.client.voip()).groupCall(roomId) !== undefined) return false;
    const { offersLiveKit } = await import("./LiveKitCall");
    return offersLiveKit(await this.client.rtc());
  }

  /** Answers a ringing call with audio, and video when asked. */
  async accept(id: string, video: boolean): Promise<void> {
    const call = this.ringing.get(id);
    if (!call) return;
    this.forget(id);
    const previous = this.active.getSnapshot();
    if (previous) await previous.hangup();
    const vm = new OneToOneCallViewModel(call);
    this.setActive(vm);
    try {
      await call.answer({ audio: true, video });
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
    }
  }

  /** Declines a ringing call (m.call.reject). */
  async decline(id: string): Promise<void> {
    const call = this.ringing.get(id);
    this.forget(id);
    await call?.reject().catch(() => undefined);
  }

  /** Hangs up (or, for a group call, leaves) the call. */
  async hangup(call: ActiveCallViewModel): Promise<void> {
    await call.hangup();
    if (call.kind === "group" && this.active.getSnapshot() === call) {
      call.dispose();
      this.active.set(null);
    }
  }

  /** Hides the last failure's message. */
  dismissError(): void {
    this.error.set(null);
  }

  /** Hides the 1:1 call's notice. */
  dismissNotice(): void {
    this.notice.set(null);
  }

  /** Opens the active call's room (the picture-in-picture bar's return). */
  returnToCall(): void {
    const active = this.active.getSnapshot();
    if (active) this.host.openRoom(active.roomId);
  }

  dispose(): void {
    this.scope.end();
  }

  private setActive(vm: ActiveCallViewModel): void {
    this.active.getSnapshot()?.dispose();
    this.active.set(vm);
    const unsubscribe = vm.status.subscribe((status) => {
      if (status !== "ended" || this.active.getSnapshot() !== vm) return;
      unsubscribe();
      // A call that failed (the call service down, the SFU lost for good) says why after its view is gone.
      const failure = vm.error.getSnapshot();
      if (failure !== null) this.error.set(failure);
      vm.dispose();
      this.active.set(null);
    });
    if (vm instanceof OneToOneCallViewModel)
      vm.call.events.on("replaced", (successor) => {
        // Glare: the call we placed lost to theirs, which carries on as ours.
        if (this.active.getSnapshot() === vm) this.setActive(new OneToOneCallViewModel(successor));
      });
  }

  private onIncoming(call: Call): void {
    if (this.ringing.has(call.callId)) return;
    const room = this.client.rooms.find(call.roomId);
    const member = room?.getSnapshot().state.members.get(call.opponentUserId);
    const view: IncomingCallView = {
      id: call.callId,
      roomId: call.roomId,
      callerId: call.opponentUserId,
      callerName: member?.name ?? call.opponentUserId,
      avatarUrl: member?.avatarUrl,
      video: call.media.remoteOffersVideo(),
    };
    this.ringing.set(call.callId, call);
    this.incoming.set([...this.incoming.getSnapshot(), view]);
    const stop = call.state.subscribe((state) => {
      if (state === "ringing") return;
      stop();
      this.forget(call.callId);
    });
    this.host.notify?.(view);
  }

  private forget(id: string): void {
    this.ringing.delete(id);
    this.incoming.set(this.incoming.getSnapshot().filter((c) => c.id !== id));
  }
}
