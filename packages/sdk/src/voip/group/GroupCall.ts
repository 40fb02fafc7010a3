/**
 * A mesh group call (MSC3401, SPEC §4): one 1:1 Call per pair of member
 * devices, signalled by to-device messages that carry the group call id,
 * our device id and the sender and destination session ids. States:
 * local_call_feed_uninitialized → initializing_local_call_feed →
 * local_call_feed_initialized → entered, back to uninitialised on leave,
 * ended on terminate.
 *
 * Who calls whom: the lower user id, then the lower device id, waits for the
 * other to call. Outgoing calls are retried every 5 s, at most 3 times per
 * device; a call not connected within the participant timeout (15 s) is
 * dropped so a retry can replace it. No media goes to a device without a
 * valid membership (CVE-2023-29529): its call events are held unanswered
 * (held.ts) until its membership arrives, and the call to a device whose
 * membership lapses is hung up.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { Call } from "../call/Call";
import { CallEventType } from "../call/types";
import type { CallContent, CallEventTypeName } from "../call/types";
import type { InputKind } from "../devices";
import { CallFeed } from "../feed";
import type { IceServer, MediaPlatform, MediaStream } from "../platform";
import type { CallStatsSummary } from "../stats";
import { randomString } from "../../util/random";
import { Emitter, OwnedTimers } from "../timers";
import { HeldSignals } from "./held";
import type { HeldSignal } from "./held";
import { GroupLocalMedia } from "./localMedia";
import { ownDevice, participantKey, participantsOf, withOwnDevice } from "./members";
import type { GroupCallRoom } from "./members";
import {
  cannotEnterMessage,
  GROUP_CALL_EVENT,
  GROUP_CALL_MEMBER_EVENT,
  GROUP_CALL_TIMINGS,
  GroupCallError,
  placeCallFailedMessage,
  unknownDeviceMessage,
  wantsOutgoingCall,
} from "./types";
import type { GroupCallContent, GroupCallState, Participant } from "./types";

/** Where a group call's events go. */
export interface GroupCallTransport {
  /** One m.call.* to-device message; rejects with a GroupCallError unknown_device when the device is unknown. */
  sendToDevice(
    userId: string,
    deviceId: string,
    type: CallEventTypeName,
    content: CallContent,
  ): Promise<void>;
  sendState(type: string, stateKey: string, content: Record<string, unknown>): Promise<void>;
}

export interface GroupCallOptions {
  roomId: string;
  groupCallId: string;
  content: GroupCallContent;
  userId: string;
  deviceId: string;
  /** This client's session id; random when omitted. */
  sessionId?: string;
  platform: MediaPlatform;
  scheduler: Scheduler;
  iceServers: () => IceServer[];
  room: GroupCallRoom;
  transport: GroupCallTransport;
}

export interface GroupCallEvents extends Record<string, unknown> {
  error: GroupCallError;
}

export class GroupCall {
  readonly groupCallId: string;
  readonly roomId: string;
  readonly sessionId: string;
  readonly events = new Emitter<GroupCallEvents>();
  private readonly stateValue = new ObservableValue<GroupCallState>("local_call_feed_uninitialized");
  private readonly participantList = new ObservableValue<readonly Participant[]>([]);
  private readonly callMap = new ObservableValue<ReadonlyMap<string, Call>>(new Map());
  private readonly speaker = new ObservableValue<CallFeed | undefined>(undefined);
  private readonly statsValue = new ObservableValue<ReadonlyMap<string, CallStatsSummary>>(new Map());
  private readonly micMuted = new ObservableValue(false);
  private readonly timers: OwnedTimers;
  private readonly sessions = new Map<Call, string>();
  private readonly retries = new Map<string, number>();
  private readonly held = new HeldSignals();
  private feed: CallFeed | undefined;
  private enteredTimers: OwnedTimers;
  private cancelExpiry: () => void = () => undefined;
  private cancelPtt: () => void = () => undefined;
  private readonly local: GroupLocalMedia;

  constructor(private readonly options: GroupCallOptions) {
    this.groupCallId = options.groupCallId;
    this.roomId = options.roomId;
    this.sessionId = options.sessionId ?? randomString(16, () => options.scheduler.random());
    this.timers = new OwnedTimers(options.scheduler);
    this.enteredTimers = new OwnedTimers(options.scheduler);
    this.local = new GroupLocalMedia({
      userId: options.userId,
      deviceId: options.deviceId,
      platform: options.platform,
      scheduler: options.scheduler,
      calls: () => this.callMap.getSnapshot().values(),
    });
  }

  get state(): ReadonlyObservable<GroupCallState> {
    return this.stateValue;
  }
  get participants(): ReadonlyObservable<readonly Participant[]> {
    return this.participantList;
  }
  /** The 1:1 calls to each participant device, by "user|device". */
  get calls(): ReadonlyObservable<ReadonlyMap<string, Call>> {
    return this.callMap;
  }
  get activeSpeaker(): ReadonlyObservable<CallFeed | undefined> {
    return this.speaker;
  }
  get stats(): ReadonlyObservable<ReadonlyMap<string, CallStatsSummary>> {
    return this.statsValue;
  }
  get microphoneMuted(): ReadonlyObservable<boolean> {
    return this.micMuted;
  }
  get localFeed(): CallFeed | undefined {
    return this.feed;
  }
  /** The group call state event's content (type, intent, push-to-talk...). */
  get content(): GroupCallContent {
    return this.options.content;
  }
  get isPtt(): boolean {
    return this.options.content["io.element.ptt"] === true;
  }

  /** Captures the local media (video for m.video calls); errors leave the call uninitialised. */
  async initLocalCallFeed(): Promise<void> {
    const state = this.stateValue.getSnapshot();
    if (state !== "local_call_feed_uninitialized")
      throw new GroupCallError("invalid_state", `Cannot initialise the local feed in the ${state} state`);
    this.stateValue.set("initializing_local_call_feed");
    let stream: MediaStream;
    try {
      stream = await this.options.platform.mediaDevices.getUserMedia({
        audio: true,
        video: this.options.content["m.type"] === "m.video",
      });
    } catch (cause) {
      this.stateValue.set("local_call_feed_uninitialized");
      const error = new GroupCallError("no_user_media", "Failed to get user media", { cause });
      this.events.emit("error", error);
      throw error;
    }
    this.feed = new CallFeed({
      stream,
      userId: this.options.userId,
      deviceId: this.options.deviceId,
      purpose: "m.usermedia",
      isLocal: true,
      scheduler: this.options.scheduler,
      platform: this.options.platform,
    });
    this.setMuted(this.isPtt);
    this.stateValue.set("local_call_feed_initialized");
  }

  /** Enters: announces our device and calls the participants we are to call. */
  async enter(): Promise<void> {
    const state = this.stateValue.getSnapshot();
    if (state === "local_call_feed_uninitialized") await this.initLocalCallFeed();
    else if (state !== "local_call_feed_initialized")
      throw new GroupCallError("invalid_state", cannotEnterMessage(state));
    this.stateValue.set("entered");
    this.enteredTimers = new OwnedTimers(this.options.scheduler);
    const t = this.enteredTimers;
    t.every((GROUP_CALL_TIMINGS.deviceExpiryMs * 3) / 4, () => void this.sendMemberState());
    t.every(GROUP_CALL_TIMINGS.retryCallIntervalMs, () => this.retryCalls());
    t.every(GROUP_CALL_TIMINGS.activeSpeakerIntervalMs, () => this.pickActiveSpeaker());
    t.every(GROUP_CALL_TIMINGS.statsIntervalMs, () => void this.collectStats());
    await this.sendMemberState();
    this.onMemberStateChanged();
  }

  /** Leaves: hangs up every call, removes our device, releases the media; back to uninitialised. */
  async leave(): Promise<void> {
    const wasEntered = this.stateValue.getSnapshot() === "entered";
    this.enteredTimers.clear();
    this.cancelPtt();
    await Promise.all([...this.callMap.getSnapshot().values()].map((c) => c.hangup("user_hangup")));
    this.callMap.set(new Map());
    this.retries.clear();
    this.held.clear();
    this.local.dispose();
    this.feed?.dispose();
    this.feed = undefined;
    this.speaker.set(undefined);
    this.stateValue.set("local_call_feed_uninitialized");
    if (wasEntered) await this.sendMemberState().catch(() => undefined);
  }

  /** Ends the call for everyone: ended, and with `emitStateEvent` the state event says m.terminated. */
  async terminate(emitStateEvent = true): Promise<void> {
    await this.leave();
    this.cancelExpiry();
    this.timers.clear();
    this.stateValue.set("ended");
    if (emitStateEvent)
      await this.options.transport.sendState(GROUP_CALL_EVENT, this.groupCallId, {
        ...this.options.content,
        "m.terminated": "call_ended",
      });
  }

  /** Leaves and lets go of every timer (the client is disposed). */
  async dispose(): Promise<void> {
    await this.leave().catch(() => undefined);
    this.cancelExpiry();
    this.timers.clear();
    this.events.clear();
  }

  /** Mutes the microphone everywhere; in push-to-talk an unmute lasts at most 20 s. */
  setMicrophoneMuted(muted: boolean): void {
    this.setMuted(muted);
    for (const call of this.callMap.getSnapshot().values())
      void call.media.setMicrophoneMuted(muted).catch(() => undefined);
  }

  /**
   * Switches our microphone or camera to `deviceId` mid-call: one capture,
   * swapped into the shared stream and onto every call's sender
   * (replaceTrack), so no peer renegotiates.
   */
  switchInputDevice(kind: InputKind, deviceId: string | undefined): Promise<void> {
    return this.local.switchInput(this.feed, () => this.feed, kind, deviceId);
  }

  /** Our screen-share feed while sharing. */
  get localScreenshareFeed(): ReadonlyObservable<CallFeed | undefined> {
    return this.local.screenshareFeed;
  }

  /**
   * Shares the screen with every peer (one capture, a second stream with
   * purpose m.screenshare on each call), or stops; the member state lists
   * the m.screenshare feed while it runs.
   */
  async setScreensharing(enabled: boolean): Promise<void> {
    const state = this.stateValue.getSnapshot();
    if (enabled && state !== "entered")
      throw new GroupCallError("invalid_state", `Cannot share the screen in the ${state} state`);
    const changed = enabled
      ? await this.local.startScreenshare(() => this.stateValue.getSnapshot() === "entered")
      : await this.local.stopScreenshare();
    if (changed) await this.sendMemberState();
  }

  private setMuted(muted: boolean): void {
    this.feed?.setMuted({ audioMuted: muted });
    this.micMuted.set(muted);
    this.cancelPtt();
    if (!muted && this.isPtt)
      this.cancelPtt = this.timers.after(GROUP_CALL_TIMINGS.pttMaxTransmitMs, () =>
        this.setMicrophoneMuted(true),
      );
  }

  /** The room's member state changed (or a device expired): recompute participants and calls. */
  onMemberStateChanged(): void {
    if (this.stateValue.getSnapshot() === "ended") return;
    const now = this.options.scheduler.now();
    const participants = participantsOf(this.options.room, this.groupCallId, this.me, now);
    this.participantList.set(participants);
    const bySession = new Map(participants.map((p) => [participantKey(p), p.sessionId]));
    for (const [key, call] of this.callMap.getSnapshot()) {
      const session = bySession.get(key);
      if (session === undefined || session !== this.sessions.get(call))
        void call.hangup(session ? "new_session" : "user_hangup");
    }
    this.cancelExpiry();
    const next = Math.min(...participants.map((p) => p.expiresTs));
    if (Number.isFinite(next))
      this.cancelExpiry = this.timers.after(next - now, () => this.onMemberStateChanged());
    if (this.stateValue.getSnapshot() !== "entered") return;
    // Call events that came before the sender's membership, in order, before we place our own calls.
    const known = (s: HeldSignal): boolean =>
      participants.some(
        (p) =>
          p.userId === s.sender &&
          p.deviceId === s.content.device_id &&
          p.sessionId === s.content.sender_session_id,
      );
    // A held invite that fails ends its own call, as one that came in time would.
    void this.replay(this.held.take(now, known)).catch(() => undefined);
    this.placeOutgoingCalls();
  }

  private async replay(signals: readonly HeldSignal[]): Promise<void> {
    for (const s of signals) await this.onToDevice(s.sender, s.type, s.content);
  }

  /** A to-device m.call.* event; dropped unless it is for this call, from a device with a valid membership. */
  async onToDevice(sender: string, type: string, content: CallContent): Promise<void> {
    if (this.stateValue.getSnapshot() !== "entered" || content.conf_id !== this.groupCallId) return;
    if (typeof content.device_id !== "string" || content.dest_session_id !== this.sessionId) return;
    const participant = this.participantList
      .getSnapshot()
      .find(
        (p) =>
          p.userId === sender &&
          p.deviceId === content.device_id &&
          p.sessionId === content.sender_session_id,
      );
    if (!participant) {
      this.held.hold({ sender, type, content, at: this.options.scheduler.now() });
      return;
    }
    const key = participantKey(participant);
    const existing = this.callMap.getSnapshot().get(key);
    if (type !== CallEventType.Invite) {
      if (existing?.callId === content.call_id) await existing.handleEvent({ type, sender, content });
      return;
    }
    if (existing?.callId === content.call_id) return;
    if (existing) await existing.hangup("replaced");
    const call = this.newCall(participant, content.call_id);
    await call.initWithInvite({ type, sender, content });
    const stream = this.feed?.stream;
    if (stream && call.state.getSnapshot() === "ringing") await call.answerWithStream(stream);
  }

  private get me(): { userId: string; deviceId: string } {
    return { userId: this.options.userId, deviceId: this.options.deviceId };
  }

  private placeOutgoingCalls(): void {
    for (const p of this.participantList.getSnapshot()) {
      if (!wantsOutgoingCall(this.me, p)) continue;
      const existing = this.callMap.getSnapshot().get(participantKey(p));
      if (existing && this.sessions.get(existing) === p.sessionId) continue;
      this.placeCall(p);
    }
  }

  private retryCalls(): void {
    for (const p of this.participantList.getSnapshot()) {
      const key = participantKey(p);
      const existing = this.callMap.getSnapshot().get(key);
      if (!wantsOutgoingCall(this.me, p) || (existing && this.sessions.get(existing) === p.sessionId))
        continue;
      const tries = this.retries.get(key) ?? 0;
      if (tries >= GROUP_CALL_TIMINGS.maxRetriesPerDevice) continue;
      this.retries.set(key, tries + 1);
      this.placeCall(p);
    }
  }

  private placeCall(p: Participant): void {
    const stream = this.feed?.stream;
    if (!stream) return;
    const call = this.newCall(p);
    call.events.on("error", (error) => {
      const unknown = error.cause instanceof GroupCallError && error.cause.code === "unknown_device";
      this.events.emit(
        "error",
        unknown
          ? new GroupCallError("unknown_device", unknownDeviceMessage(p.userId), { cause: error })
          : new GroupCallError("place_call_failed", placeCallFailedMessage(p.userId), { cause: error }),
      );
    });
    call.timers.after(GROUP_CALL_TIMINGS.participantTimeoutMs, () => {
      if (call.state.getSnapshot() !== "connected") void call.hangup("invite_timeout");
    });
    void call.placeWithStream(stream);
  }

  private newCall(p: Participant, callId?: string): Call {
    const { transport } = this.options;
    const call = new Call({
      roomId: this.roomId,
      userId: this.options.userId,
      deviceId: this.options.deviceId,
      opponentUserId: p.userId,
      platform: this.options.platform,
      scheduler: this.options.scheduler,
      iceServers: this.options.iceServers,
      ownsLocalMedia: false,
      ...(callId !== undefined ? { callId } : {}),
      signaller: {
        send: (type, content) =>
          transport.sendToDevice(p.userId, p.deviceId, type, {
            ...content,
            conf_id: this.groupCallId,
            device_id: this.options.deviceId,
            sender_session_id: this.sessionId,
            dest_session_id: p.sessionId,
          }),
      },
    });
    const key = participantKey(p);
    this.sessions.set(call, p.sessionId);
    this.callMap.set(new Map([...this.callMap.getSnapshot(), [key, call]]));
    const stop = call.state.subscribe((state) => {
      if (state === "connected") {
        this.retries.delete(key);
        void this.local.shareWith(call);
      }
      if (state !== "ended") return;
      stop();
      this.sessions.delete(call);
      if (this.callMap.getSnapshot().get(key) !== call) return;
      const next = new Map(this.callMap.getSnapshot());
      next.delete(key);
      this.callMap.set(next);
    });
    return call;
  }

  private async sendMemberState(): Promise<void> {
    const { userId, deviceId, room, scheduler } = this.options;
    const entered = this.stateValue.getSnapshot() === "entered";
    const device = entered
      ? ownDevice(deviceId, this.sessionId, scheduler.now(), this.local.purposes())
      : undefined;
    const content = withOwnDevice(room.memberStates().get(userId), this.groupCallId, device, deviceId);
    await this.options.transport.sendState(GROUP_CALL_MEMBER_EVENT, userId, { ...content });
  }

  /** Every second: the speaking remote feed, keeping the current one while it still speaks. */
  private pickActiveSpeaker(): void {
    const feeds: CallFeed[] = [];
    for (const call of this.callMap.getSnapshot().values()) {
      const feed = call.media.remoteFeed();
      if (!feed) continue;
      feed.measureVolume(true);
      feeds.push(feed);
    }
    const current = this.speaker.getSnapshot();
    if (current && feeds.includes(current) && current.speaking.getSnapshot()) return;
    const next = feeds.find((f) => f.speaking.getSnapshot());
    if (next) this.speaker.set(next);
    else if (current && !feeds.includes(current)) this.speaker.set(undefined);
  }

  private async collectStats(): Promise<void> {
    const out = new Map<string, CallStatsSummary>();
    for (const [key, call] of this.callMap.getSnapshot()) {
      const stats = await call.getStats();
      if (stats) out.set(key, stats);
    }
    this.statsValue.set(out);
  }
}
