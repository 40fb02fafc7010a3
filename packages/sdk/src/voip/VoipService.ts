/**
 * `client.voip`: 1:1 calls and mesh group calls over narrow ports the
 * client facade provides (room send, to-device send, state send, TURN,
 * room state, sync batches). m.call.* room events of each sync batch go to
 * the CallRouter; m.call.* to-device events with a conf_id go to the group
 * call they name. The media platform is the host's (the web app's
 * `src/platform/`, fakes in tests); without one, calls cannot start and
 * invites do not ring.
 */
import type { TurnServerResponse } from "../api/types/server";
import type { ProcessedSync } from "../sync/processor/types";
import type { Scheduler } from "../util/scheduler";
import type { ReadonlyObservable } from "../util/observable";
import { ObservableValue } from "../util/observable";
import type { Call } from "./call/Call";
import { CallRouter } from "./call/router";
import { CallError, isCallEventType } from "./call/types";
import type { CallContent, CallEventTypeName, IncomingCallEvent } from "./call/types";
import { GroupCall } from "./group/GroupCall";
import { GROUP_CALL_EVENT, GROUP_CALL_MEMBER_EVENT, parseGroupCallContent } from "./group/types";
import type { DataChannelOptions, GroupCallContent, GroupCallIntent, GroupCallType } from "./group/types";
import type { MediaPlatform } from "./platform";
import { runPreCallCheck } from "./precall";
import type { PreCallCheckResult } from "./precall";
import { newCallId } from "./timers";
import { TurnServers } from "./turn";

/** What voip reads of a room. */
export interface VoipRoomView {
  /** Joined members' user ids. */
  joinedMembers(): string[];
  isJoined(userId: string): boolean;
  /** State contents of one type, by state key. */
  stateOfType(type: string): ReadonlyMap<string, Record<string, unknown>>;
}

/** The client's services voip needs, as functions (the facade builds them). */
export interface VoipPorts {
  sendRoomEvent(roomId: string, type: string, content: CallContent): Promise<void>;
  sendToDevice(userId: string, deviceId: string, type: string, content: CallContent): Promise<void>;
  sendState(roomId: string, type: string, stateKey: string, content: Record<string, unknown>): Promise<void>;
  fetchTurn(): Promise<TurnServerResponse>;
  room(roomId: string): VoipRoomView | undefined;
  onSyncBatch(listener: (batch: ProcessedSync) => void): () => void;
  onRoomsChanged(listener: (roomIds: ReadonlySet<string>) => void): () => void;
  /**
   * Readies an encrypted room for the invite (members loaded, Olm sessions,
   * room key shared) while the caller's media is captured, so none of it
   * waits in front of the invite; nothing in a room without encryption.
   */
  prepareRoom?(roomId: string): Promise<void>;
}

export interface VoipOptions {
  /** The media platform; may also be given later with setPlatform. */
  platform?: MediaPlatform;
  /** Whether the user allowed the fallback STUN server; read at each call. */
  fallbackStunAllowed?: () => boolean;
  /** Relay candidates only (iceTransportPolicy relay). */
  forceTurn?: () => boolean;
}

export interface VoipServiceOptions extends VoipOptions {
  userId: string;
  deviceId: string | undefined;
  scheduler: Scheduler;
  ports: VoipPorts;
}

const NO_PLATFORM = "No media platform: calls need one (createClient's voip.platform)";

export class VoipService {
  readonly turn: TurnServers;
  private readonly router: CallRouter;
  private platformValue: MediaPlatform | undefined;
  private readonly groups = new Map<string, GroupCall>();
  private readonly groupList = new ObservableValue<ReadonlyMap<string, GroupCall>>(new Map());
  private readonly teardown: Array<() => void> = [];

  constructor(private readonly options: VoipServiceOptions) {
    this.platformValue = options.platform;
    this.turn = new TurnServers({
      scheduler: options.scheduler,
      fetchTurn: () => options.ports.fetchTurn(),
      fallbackAllowed: options.fallbackStunAllowed ?? (() => false),
    });
    const platformOf = (): MediaPlatform => this.platform;
    this.router = new CallRouter({
      userId: options.userId,
      deviceId: options.deviceId,
      platform: {
        createPeerConnection: (config, handlers) => this.platform.createPeerConnection(config, handlers),
        get mediaDevices() {
          return platformOf().mediaDevices;
        },
        createAudioAnalyser: (stream, o) => {
          const p = this.platform;
          if (!p.createAudioAnalyser) throw new CallError("not_supported", "No audio analyser");
          return p.createAudioAnalyser(stream, o);
        },
      },
      scheduler: options.scheduler,
      iceServers: () => this.turn.iceServers(),
      forceTurn: () => options.forceTurn?.() ?? false,
      signallerFor: (roomId) => ({
        send: (type: CallEventTypeName, content: CallContent) =>
          options.ports.sendRoomEvent(roomId, type, content),
      }),
    });
    this.teardown.push(
      options.ports.onSyncBatch((batch) => void this.receive(batch)),
      options.ports.onRoomsChanged((ids) => this.onRoomsChanged(ids)),
    );
  }

  /** The 1:1 calls not yet ended. */
  get calls(): ReadonlyObservable<readonly Call[]> {
    return this.router.calls;
  }

  /** Mesh group calls this client knows, by room id. */
  get groupCalls(): ReadonlyObservable<ReadonlyMap<string, GroupCall>> {
    return this.groupList;
  }

  get hasPlatform(): boolean {
    return this.platformValue !== undefined;
  }

  /** Gives the media platform after creation (then call start() for TURN). */
  setPlatform(platform: MediaPlatform): void {
    this.platformValue = platform;
  }

  private get platform(): MediaPlatform {
    if (!this.platformValue) throw new CallError("not_supported", NO_PLATFORM);
    return this.platformValue;
  }

  /** Calls `listener` with each incoming call that rings; returns the unsubscribe. */
  onIncoming(listener: (call: Call) => void): () => void {
    return this.router.events.on("incoming", listener);
  }

  /** Places a 1:1 call in a room of two. */
  placeCall(roomId: string, media: { video?: boolean } = {}): Promise<Call> {
    const room = this.options.ports.room(roomId);
    const others = (room?.joinedMembers() ?? []).filter((u) => u !== this.options.userId);
    if (others.length !== 1 || !others[0])
      return Promise.reject(new CallError("invalid_state", "A 1:1 call needs a room with one other member"));
    if (!this.platformValue) return Promise.reject(new CallError("not_supported", NO_PLATFORM));
    // Not awaited: the invite's own encryption waits for it under the room's lock if it is still running.
    this.options.ports.prepareRoom?.(roomId).catch(() => undefined);
    return this.router.placeCall(roomId, others[0], media);
  }

  /** The room's active (not terminated) mesh group call, from its state. */
  groupCall(roomId: string): GroupCall | undefined {
    const known = this.groups.get(roomId);
    if (known && known.state.getSnapshot() !== "ended") return known;
    const room = this.options.ports.room(roomId);
    for (const [groupCallId, raw] of room?.stateOfType(GROUP_CALL_EVENT) ?? []) {
      if (raw["m.terminated"] !== undefined) continue;
      try {
        return this.adopt(roomId, groupCallId, parseGroupCallContent(raw));
      } catch {
        continue; // invalid type or intent: not a call we join
      }
    }
    return undefined;
  }

  /** Starts a mesh group call in the room: its state event is sent, the call is returned (not yet entered). */
  async createGroupCall(
    roomId: string,
    kind: {
      type: GroupCallType;
      intent: GroupCallIntent;
      ptt?: boolean;
      dataChannelsEnabled?: boolean;
      dataChannelOptions?: DataChannelOptions;
    },
  ): Promise<GroupCall> {
    const content = parseGroupCallContent({
      "m.type": kind.type,
      "m.intent": kind.intent,
      ...(kind.ptt ? { "io.element.ptt": true } : {}),
      ...(kind.dataChannelsEnabled ? { dataChannelsEnabled: true } : {}),
      ...(kind.dataChannelOptions ? { dataChannelOptions: { ...kind.dataChannelOptions } } : {}),
    });
    const groupCallId = newCallId(this.options.scheduler);
    await this.options.ports.sendState(roomId, GROUP_CALL_EVENT, groupCallId, { ...content });
    return this.adopt(roomId, groupCallId, content);
  }

  /** Gathers ICE candidates with the current ICE servers (the call's troubleshooting page). */
  preCallCheck(timeoutMs?: number): Promise<PreCallCheckResult> {
    return runPreCallCheck({
      platform: this.platform,
      scheduler: this.options.scheduler,
      iceServers: this.turn.iceServers(),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  }

  /** Starts TURN polling. */
  async start(): Promise<void> {
    await this.turn.start();
  }

  /** Hangs up everything and stops listening. */
  async dispose(): Promise<void> {
    for (const stop of this.teardown.splice(0)) stop();
    this.turn.stop();
    await Promise.all([...this.groups.values()].map((g) => g.dispose()));
    await this.router.dispose();
  }

  private adopt(roomId: string, groupCallId: string, content: GroupCallContent): GroupCall {
    const { deviceId, userId, scheduler, ports } = this.options;
    if (!deviceId) throw new CallError("no_device_id", "A call needs a device id");
    const call = new GroupCall({
      roomId,
      groupCallId,
      content,
      userId,
      deviceId,
      platform: this.platform,
      scheduler,
      iceServers: () => this.turn.iceServers(),
      room: {
        memberStates: () => ports.room(roomId)?.stateOfType(GROUP_CALL_MEMBER_EVENT) ?? new Map(),
        isJoined: (u) => ports.room(roomId)?.isJoined(u) ?? false,
      },
      transport: {
        sendToDevice: (u, d, type, c) => ports.sendToDevice(u, d, type, c),
        sendState: (type, key, c) => ports.sendState(roomId, type, key, c),
      },
    });
    this.groups.set(roomId, call);
    this.groupList.set(new Map(this.groups));
    call.onMemberStateChanged();
    return call;
  }

  private async receive(batch: ProcessedSync): Promise<void> {
    if (batch.fromCache) return;
    const now = this.options.scheduler.now();
    for (const [roomId, room] of batch.rooms.join) {
      const events: IncomingCallEvent[] = [];
      for (const e of room.timeline.events) {
        if (!isCallEventType(e.type) || typeof e.content.call_id !== "string") continue;
        const ageMs = e.unsigned?.age ?? Math.max(0, now - e.origin_server_ts);
        events.push({ type: e.type, sender: e.sender, content: e.content as CallContent, ageMs });
      }
      if (events.length > 0 && this.platformValue) await this.router.handleRoomEvents(roomId, events);
    }
    for (const e of batch.toDevice) {
      const content = e.content as CallContent;
      if (!isCallEventType(e.type) || typeof content.conf_id !== "string") continue;
      for (const group of this.groups.values())
        if (group.groupCallId === content.conf_id) await group.onToDevice(e.sender, e.type, content);
    }
  }

  /**
   * A room's state changed: its known group call re-reads the members, or
   * ends when its state event says m.terminated; a call started there is
   * adopted now (not first when the room is opened), so the app can
   * announce it to members who are elsewhere.
   */
  private onRoomsChanged(roomIds: ReadonlySet<string>): void {
    for (const roomId of roomIds) {
      const known = this.groups.get(roomId);
      if (known && known.state.getSnapshot() !== "ended") {
        const raw = this.options.ports.room(roomId)?.stateOfType(GROUP_CALL_EVENT).get(known.groupCallId);
        if (raw?.["m.terminated"] === undefined) {
          known.onMemberStateChanged();
          continue;
        }
        void known.terminate(false).finally(() => this.forget(roomId, known));
      }
      if (this.platformValue && this.options.deviceId) this.groupCall(roomId);
    }
  }

  private forget(roomId: string, call: GroupCall): void {
    if (this.groups.get(roomId) !== call) return;
    this.groups.delete(roomId);
    this.groupList.set(new Map(this.groups));
  }
}
