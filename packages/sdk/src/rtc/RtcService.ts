/**
 * MatrixRTC over a running client (`client.rtc`): sessions per room from
 * sync, join and leave with a membership manager, media keys through the
 * key transports, rings and declines, raised hands and reactions. It takes narrow dependencies (the
 * room state, the sync batches, the to-device stream, the server's
 * features, senders) so the facade only wires it.
 */
import type { ClientEventWithoutRoomId, ToDeviceEvent } from "../api/types/events";
import type { HttpApi } from "../http/types";
import type { RoomState } from "../models/room/RoomState";
import type { ProcessedSync } from "../sync/processor/types";
import type { Scheduler } from "../util/scheduler";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import {
  CALL_MEMBER_EVENT,
  CALL_REACTION_EVENT,
  CALL_NOTIFY_EVENT,
  ENCRYPTION_KEYS_EVENT,
  RTC_DECLINE_EVENT,
  RTC_MEMBER_EVENT,
  RTC_NOTIFICATION_EVENT,
  STICKY_EVENTS_FEATURE,
  TO_DEVICE_UNSUPPORTED,
} from "./constants";
import { reactionsIo, stateMembershipIo, stickyMembershipIo } from "./io";
import { CallReactions } from "./reactions/CallReactions";
import { EncryptionManager } from "./keys/EncryptionManager";
import type { OwnKey, RtcParticipant } from "./keys/EncryptionManager";
import type { IdentityMode } from "./keys/identity";
import { KeyTransports } from "./keys/transports";
import type { KeyTarget, KeyTransportMode } from "./keys/transports";
import {
  membershipStateKey,
  stateMembershipContent,
  stickyLeaveContent,
  stickyMembershipContent,
} from "./membership/write";
import type { OwnMembership } from "./membership/write";
import type { FocusSelection, RtcTransport } from "./membership/types";
import { RoomCall } from "./RoomCall";
import {
  callNotifyContent,
  declineContent,
  parseDecline,
  parseRing,
  rtcNotificationContent,
} from "./ring/notification";
import type { NotificationType } from "./ring/notification";
import { IncomingRings } from "./ring/IncomingRings";
import type { IncomingRing } from "./ring/IncomingRings";
import { RingTracker } from "./ring/RingTracker";
import type { TrackedRing } from "./ring/RingTracker";
import { MembershipManager } from "./session/MembershipManager";
import type { RtcSession } from "./session/RtcSession";
import { SessionManager } from "./session/SessionManager";
import type { SessionEvent } from "./session/SessionManager";
import { TransportsDiscovery } from "./transports/discovery";

/** The room events a call's raised hands and reactions read. */
const REACTION_TYPES: ReadonlySet<string> = new Set(["m.reaction", CALL_REACTION_EVENT, "m.room.redaction"]);

/** SPEC §5: a call needs a device id to start. */
export const CALL_NEEDS_DEVICE = "A call needs a device id to start";

/** A refused MatrixRTC request. */
export class RtcError extends Error {
  constructor(
    readonly code: "NO_DEVICE" | "TO_DEVICE_UNSUPPORTED",
    message: string,
  ) {
    super(message);
    this.name = "RtcError";
  }
}

export interface RtcServiceOptions {
  http: HttpApi;
  userId: string;
  deviceId: string;
  scheduler: Scheduler;
  /** The room's current state, as the room model holds it. */
  roomState: (roomId: string) => RoomState | undefined;
  /** Processed sync batches (after the room model applied them). */
  onSyncBatch: (listener: (batch: ProcessedSync) => void) => () => void;
  /** Decrypted to-device events. */
  onToDevice: (listener: (events: readonly ToDeviceEvent[]) => void) => () => void;
  /** Optional server features: MSC4140 delayed events, and the unstable flags (MSC4354 sticky events). */
  serverFeatures: () => Promise<{ delayedEvents: boolean; unstableFeatures: ReadonlySet<string> }>;
  /**
   * Olm-encrypted to-device send; absent when crypto is off (to-device is then unsupported).
   * Resolves with the targets it could not encrypt for (no device keys, no Olm session), or
   * nothing when all were reached (a host that encrypts itself).
   */
  sendToDevice?: (
    type: string,
    targets: readonly KeyTarget[],
    content: Record<string, unknown>,
  ) => Promise<readonly KeyTarget[] | void>;
  /** Sends a room event (encrypted in encrypted rooms); resolves with its event id. */
  sendRoomEvent: (
    roomId: string,
    type: string,
    content: Record<string, unknown>,
  ) => Promise<string | undefined>;
  /** Decrypts room events again (the one retry of an undecryptable room key); absent without crypto. */
  redecrypt?: (
    roomId: string,
    event: ClientEventWithoutRoomId,
  ) => Promise<ClientEventWithoutRoomId | undefined>;
  /**
   * Room events that decrypt once their Megolm key arrives, however late (the crypto layer's late
   * decryptions); absent without crypto. A room key event whose one retry came too early is read here.
   */
  onLateDecrypted?: (listener: (roomId: string, event: ClientEventWithoutRoomId) => void) => () => void;
  /** Transports from configuration, the discovery's last resort. */
  transports?: readonly RtcTransport[];
  warn?: (message: string, error?: unknown) => void;
}

/** How to join. */
export interface JoinOptions {
  callIntent?: string;
  /** The identity keys are bound to: legacy `userId:deviceId` (default) or hashed. */
  identityMode?: IdentityMode;
  /** Start on the room key transport instead of to-device. */
  keyTransport?: KeyTransportMode;
  /** Write the sticky form when the server supports MSC4354 (default: the state form). */
  membershipForm?: "state" | "sticky";
  /**
   * The state form's focus_selection: where we say we publish. A LiveKit call publishes on its
   * own focus and says "multi_sfu", as Element Call does; the default is "oldest_membership".
   */
  focusSelection?: FocusSelection;
  /**
   * Test-only: the delayed leave's delay in ms, how long after our last restart the server sends
   * our leave (MSC4140). Leave it unset in the product: the default, DELAYED_LEAVE_MS (30 000), is
   * the margin a starved client needs. A test that kills a client to see the server's leave passes
   * a short one so it need not wait 30 s; the restarts then come four times within the delay.
   */
  delayedLeaveMs?: number;
}

export interface RingOptions {
  userIds: readonly string[];
  room?: boolean;
  type?: NotificationType;
  callIntent?: string;
  /** How long it rings (default CALL_NOTIFICATION_LIFETIME_MS). */
  lifetimeMs?: number;
}

export class RtcService {
  readonly sessions: SessionManager;
  readonly discovery: TransportsDiscovery;
  private readonly calls = new Map<string, RoomCall>();
  private readonly rings = new Map<string, RingTracker>();
  private readonly incoming: IncomingRings;
  private readonly sticky = new Map<string, Map<string, ClientEventWithoutRoomId>>();
  private readonly unsubscribes: Array<() => void> = [];
  private readonly callsValue = new ObservableValue<ReadonlyMap<string, RoomCall>>(new Map());

  constructor(private readonly options: RtcServiceOptions) {
    const { userId, deviceId, scheduler, http } = options;
    this.sessions = new SessionManager({ userId, deviceId, scheduler });
    this.incoming = new IncomingRings(userId, scheduler);
    this.discovery = new TransportsDiscovery({
      http,
      scheduler,
      ...(options.transports ? { configured: options.transports } : {}),
    });
    this.unsubscribes.push(
      options.onSyncBatch((batch) => this.onBatch(batch)),
      options.onToDevice((events) => {
        for (const call of this.calls.values())
          for (const e of events)
            call.parts.transports.receiveToDevice({
              type: e.type,
              sender: e.sender,
              content: e.content,
              ...(e.senderDevice !== undefined ? { senderDevice: e.senderDevice } : {}),
              ...(e.hostDecrypted === true ? { hostDecrypted: true } : {}),
            });
      }),
      this.sessions.onSessionEvent((e) => this.onSessionEvent(e)),
    );
    if (options.onLateDecrypted)
      this.unsubscribes.push(
        options.onLateDecrypted((roomId, event) => {
          if (event.type !== ENCRYPTION_KEYS_EVENT) return;
          this.calls
            .get(roomId)
            ?.parts.transports.receiveLateDecrypted({ ...event, roomId, eventId: event.event_id });
        }),
      );
  }

  /** Sessions with members, by room id. */
  get active(): ReadonlyObservable<ReadonlyMap<string, RtcSession>> {
    return this.sessions.active;
  }

  /** Rooms we are joined to a call in. */
  get joined(): ReadonlyObservable<ReadonlyMap<string, RoomCall>> {
    return this.callsValue;
  }

  session(roomId: string): RtcSession {
    return this.sessions.session(roomId);
  }

  /** The rings of a room (ringing and ended). */
  ringsOf(roomId: string): ReadonlyObservable<ReadonlyMap<string, TrackedRing>> {
    return this.tracker(roomId).rings;
  }

  /** The rings for us ringing now, in every room (the callee's view: see IncomingRings). */
  get ringingForUs(): ReadonlyObservable<readonly IncomingRing[]> {
    return this.incoming.ringing;
  }

  /** The remote participants of a joined call with their devices, identities and keys; empty when not joined. */
  participants(roomId: string): ReadonlyObservable<readonly RtcParticipant[]> {
    return this.calls.get(roomId)?.participants ?? new ObservableValue<readonly RtcParticipant[]>([]);
  }

  /** Raised hands and reactions of a joined call (raise, lower, react there); undefined when not joined. */
  reactions(roomId: string): CallReactions | undefined {
    return this.calls.get(roomId)?.reactions;
  }

  /** Our key in use in a joined call. */
  ownKey(roomId: string): ReadonlyObservable<OwnKey | undefined> {
    return this.calls.get(roomId)?.ownKey ?? new ObservableValue<OwnKey | undefined>(undefined);
  }

  private tracker(roomId: string): RingTracker {
    let t = this.rings.get(roomId);
    if (t === undefined) {
      t = new RingTracker(this.options.scheduler);
      this.rings.set(roomId, t);
    }
    return t;
  }

  private onBatch(batch: ProcessedSync): void {
    for (const [roomId, room] of batch.rooms.join) {
      // MSC4354: sticky memberships the timeline does not carry come in their own section.
      for (const event of room.sticky ?? [])
        if (event.type === RTC_MEMBER_EVENT) this.onTimelineEvent(roomId, event, batch.fromCache);
      for (const event of room.timeline.events) this.onTimelineEvent(roomId, event, batch.fromCache);
      this.refreshRoom(roomId);
      // After the memberships: a hand raised in the batch that carried its membership event still counts.
      const reactions = batch.fromCache ? undefined : this.calls.get(roomId)?.reactions;
      if (reactions) {
        for (const event of room.timeline.events)
          if (REACTION_TYPES.has(event.type)) reactions.receive(event);
        // A gap: hands raised or lowered in it are read again from the relations.
        if (room.timeline.limited) void reactions.restore();
      }
    }
    for (const roomId of batch.rooms.leave.keys()) this.refreshRoom(roomId);
    // New or changed devices: a member device our key missed may be reachable now.
    if (batch.deviceLists.changed.length > 0)
      for (const call of this.calls.values())
        call.parts.encryption.onDevicesChanged(batch.deviceLists.changed);
  }

  private onTimelineEvent(roomId: string, event: ClientEventWithoutRoomId, fromCache: boolean): void {
    if (event.type === RTC_MEMBER_EVENT && typeof event.sender === "string") {
      const byKey = this.sticky.get(roomId) ?? new Map<string, ClientEventWithoutRoomId>();
      this.sticky.set(roomId, byKey);
      const stickyKey = (event.content as Record<string, unknown>)["msc4354_sticky_key"];
      byKey.set(JSON.stringify([event.sender, typeof stickyKey === "string" ? stickyKey : ""]), event);
      return;
    }
    if (fromCache) return;
    if (event.type === ENCRYPTION_KEYS_EVENT || event.type === "m.room.encrypted") {
      this.calls
        .get(roomId)
        ?.parts.transports.receiveRoomEvent({ ...event, roomId, eventId: event.event_id });
      return;
    }
    if (event.type === RTC_NOTIFICATION_EVENT || event.type === CALL_NOTIFY_EVENT) {
      const ring = parseRing(event);
      // Our own rings are tracked too: the caller sees them answered, declined or expired.
      if (ring && this.tracker(roomId).receive(ring)) this.incoming.receive(roomId, ring);
      return;
    }
    if (event.type === RTC_DECLINE_EVENT) {
      const id = parseDecline(event);
      if (id !== null) this.tracker(roomId).end(id, "declined");
      if (id !== null && typeof event.sender === "string") this.incoming.declined(id, event.sender);
    }
  }

  private refreshRoom(roomId: string): void {
    const state = this.options.roomState(roomId);
    if (state === undefined) return;
    const events: ClientEventWithoutRoomId[] = [];
    for (const entry of state.ofType(CALL_MEMBER_EVENT).values()) if ("event_id" in entry) events.push(entry);
    events.push(...(this.sticky.get(roomId)?.values() ?? []));
    this.sessions.updateRoom(roomId, events, (u) => state.membershipOf(u) === "join");
    // A ring is answered when one of the mentioned users joins; cancelled when the ringer is gone.
    const members = new Set(
      this.sessions
        .session(roomId)
        .memberships.getSnapshot()
        .map((m) => m.sender),
    );
    this.incoming.membersChanged(roomId, members);
    const tracker = this.rings.get(roomId);
    for (const r of tracker?.ringing() ?? []) {
      if (r.ring.userIds.some((u) => members.has(u))) tracker?.end(r.ring.eventId, "answered");
      else if (!members.has(r.ring.sender)) tracker?.end(r.ring.eventId, "cancelled");
    }
  }

  private onSessionEvent(e: SessionEvent): void {
    // Nobody is left in the call: whatever still rings there was cancelled.
    if (e.kind === "ended") this.incoming.membersChanged(e.session.roomId, new Set());
    const tracker = e.kind === "ended" ? this.rings.get(e.session.roomId) : undefined;
    for (const r of tracker?.ringing() ?? []) tracker?.end(r.ring.eventId, "cancelled");
  }

  /** Joins the room's call; ignored while joined. */
  async join(roomId: string, join: JoinOptions = {}): Promise<void> {
    if (this.calls.has(roomId)) return;
    const { http, userId, deviceId, scheduler } = this.options;
    if (deviceId === "") throw new RtcError("NO_DEVICE", CALL_NEEDS_DEVICE);
    const state = this.options.roomState(roomId);
    const session = this.sessions.session(roomId);
    const [features, discovered] = await Promise.all([this.options.serverFeatures(), this.discovery.get()]);
    const sticky = join.membershipForm === "sticky" && features.unstableFeatures.has(STICKY_EVENTS_FEATURE);
    const own: OwnMembership = {
      userId,
      deviceId,
      session: session.description,
      fociPreferred: discovered.transports,
      ...(join.callIntent !== undefined ? { callIntent: join.callIntent } : {}),
      ...(join.focusSelection !== undefined ? { focusSelection: join.focusSelection } : {}),
    };
    const memberId = `${userId}:${deviceId}`;
    const version = state?.rules.version ?? "1";
    const membership = new MembershipManager({
      io: sticky
        ? stickyMembershipIo(http, roomId)
        : stateMembershipIo(http, roomId, membershipStateKey(userId, deviceId, version, session.description)),
      scheduler,
      delayedEvents: features.delayedEvents,
      joinContent: (createdTs, expires) =>
        sticky ? stickyMembershipContent(own) : stateMembershipContent(own, createdTs, expires),
      leaveContent: () => (sticky ? stickyLeaveContent(memberId) : {}),
      ...(this.options.warn ? { warn: this.options.warn } : {}),
      ...(join.delayedLeaveMs !== undefined ? { delayedLeaveMs: join.delayedLeaveMs } : {}),
    });
    const send = this.options.sendToDevice;
    const transports = new KeyTransports({
      scheduler,
      context: { roomId, userId, deviceId },
      mode: join.keyTransport ?? "to-device",
      onKey: (key) => encryption.onKey(key),
      ...(this.options.warn ? { warn: this.options.warn } : {}),
      io: {
        sendToDevice: (targets, content) =>
          send
            ? send(ENCRYPTION_KEYS_EVENT, targets, content)
            : Promise.reject(new RtcError("TO_DEVICE_UNSUPPORTED", TO_DEVICE_UNSUPPORTED)),
        sendRoomEvent: async (content) => {
          await this.options.sendRoomEvent(roomId, ENCRYPTION_KEYS_EVENT, content);
        },
        redecrypt: async (event) => {
          const again =
            event.source && this.options.redecrypt
              ? await this.options.redecrypt(roomId, event.source)
              : undefined;
          return (
            again && {
              type: again.type,
              sender: again.sender,
              content: again.content,
              eventId: again.event_id,
            }
          );
        },
      },
    });
    const encryption = new EncryptionManager({
      transports,
      scheduler,
      userId,
      deviceId,
      ...(join.identityMode ? { identityMode: join.identityMode } : {}),
    });
    const reactions = new CallReactions({
      scheduler,
      userId,
      deviceId,
      memberships: session.memberships,
      io: reactionsIo(http, roomId, {
        send: (type, content) => this.options.sendRoomEvent(roomId, type, content),
        ...(this.options.redecrypt
          ? { decrypt: (e) => this.options.redecrypt?.(roomId, e) ?? Promise.resolve(undefined) }
          : {}),
      }),
      ...(this.options.warn ? { warn: this.options.warn } : {}),
    });
    const call = new RoomCall({ session, membership, transports, encryption, scheduler, reactions });
    this.setCall(roomId, call);
    // The call owns this watch: its end (leave, unload, eviction) releases it.
    call.own(
      session.joined.subscribe((joined) => {
        if (!joined && this.calls.get(roomId) === call) {
          // Evicted, or the membership could not be kept: nothing of the call stays running.
          this.setCall(roomId, undefined);
          call.end();
        }
      }),
    );
    try {
      await call.start();
    } catch (error) {
      if (this.calls.get(roomId) === call) this.setCall(roomId, undefined);
      call.end();
      throw error;
    }
  }

  private setCall(roomId: string, call: RoomCall | undefined): void {
    if (call) this.calls.set(roomId, call);
    else this.calls.delete(roomId);
    this.callsValue.set(new Map(this.calls));
  }

  /** Leaves the room's call: false when not joined, or when the leave outlasted 1000 ms. */
  async leave(roomId: string): Promise<boolean> {
    const call = this.calls.get(roomId);
    if (call === undefined) return false;
    this.setCall(roomId, undefined);
    return call.leave();
  }

  /** Rings (or notifies) in a joined call: the RTC notification, and the deprecated form for older peers. */
  async ring(roomId: string, ring: RingOptions): Promise<string | undefined> {
    const own = this.sessions.session(roomId).ownMembership();
    // The reference is to our membership event; before its echo there is none to name.
    const membershipEventId = own?.eventId ?? "";
    const request = {
      userIds: ring.userIds,
      type: ring.type ?? "ring",
      membershipEventId,
      ...(ring.room !== undefined ? { room: ring.room } : {}),
      ...(ring.callIntent !== undefined ? { callIntent: ring.callIntent } : {}),
      ...(ring.lifetimeMs !== undefined ? { lifetimeMs: ring.lifetimeMs } : {}),
    };
    const [id] = await Promise.all([
      this.options.sendRoomEvent(
        roomId,
        RTC_NOTIFICATION_EVENT,
        rtcNotificationContent(request, this.options.scheduler.now()),
      ),
      this.options.sendRoomEvent(roomId, CALL_NOTIFY_EVENT, callNotifyContent(request)),
    ]);
    return id;
  }

  /** Declines a ring and ends it here. */
  async decline(roomId: string, notificationEventId: string): Promise<void> {
    this.tracker(roomId).end(notificationEventId, "declined");
    this.incoming.stop(notificationEventId);
    await this.options.sendRoomEvent(roomId, RTC_DECLINE_EVENT, declineContent(notificationEventId));
  }

  /** The page is unloading: every joined call leaves without waiting. */
  unload(): void {
    for (const [roomId, call] of this.calls) {
      this.setCall(roomId, undefined);
      call.unload();
    }
  }

  dispose(): void {
    this.unload();
    for (const u of this.unsubscribes.splice(0)) u();
    for (const t of this.rings.values()) t.dispose();
    this.incoming.dispose();
    this.sessions.dispose();
  }
}
