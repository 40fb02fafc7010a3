/**
 * A MatrixRTC call with its media on LiveKit: `client.rtc` keeps the
 * membership and the keys (Olm-encrypted to-device, or the room
 * transport), and this joins the SFUs the memberships name and feeds them
 * those keys. Joining is: the membership (RtcService.join), then an OpenID
 * token, a LiveKit token from our focus's token service and a connection
 * that publishes our tracks, plus a watch-only connection to every other
 * focus someone publishes on (multi-SFU).
 *
 * What the call view sees is the members, not the SFU's roster: a
 * participant on the SFU without a membership (a non-member, or one whose
 * delayed leave has fired while the SFU still holds its socket) is left
 * out; each shown participant carries its user and device.
 */
import type { OpenIdToken } from "../../api/types/server";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { MediaTrack } from "../../voip/platform";
import type { OwnKey, RtcParticipant } from "../keys/EncryptionManager";
import { hashedIdentity, legacyIdentity } from "../keys/identity";
import type { CallMembership } from "../membership/types";
import type { JoinOptions } from "../RtcService";
import type { DiscoveredTransports } from "../transports/discovery";
import type { LiveKitModule } from "./api";
import { LiveKitConnection } from "./connection";
import type { ConnectionStatus, MediaParticipant } from "./connection";
import type { PublishState } from "./publish";
import { focusesToJoin, livekitFoci, ownPublishFocus } from "./focus";
import type { LiveKitFocus } from "./focus";
import { requestSfuToken, sfuTokenPlan } from "./token";

/** The part of `client.rtc` a LiveKit call uses. */
export interface RtcForLiveKit {
  readonly discovery: { get(): Promise<DiscoveredTransports> };
  join(roomId: string, options?: JoinOptions): Promise<void>;
  leave(roomId: string): Promise<boolean>;
  participants(roomId: string): ReadonlyObservable<readonly RtcParticipant[]>;
  ownKey(roomId: string): ReadonlyObservable<OwnKey | undefined>;
  session(roomId: string): { readonly memberships: ReadonlyObservable<readonly CallMembership[]> };
}

/** No LiveKit focus is offered: the call cannot go on an SFU (the app falls back to mesh). */
export const NO_LIVEKIT_FOCUS = "The server offers no LiveKit call service";

export class LiveKitCallError extends Error {
  constructor(
    readonly code: "no_focus",
    message: string,
  ) {
    super(message);
    this.name = "LiveKitCallError";
  }
}

/** One member in the call as the view shows them: the SFU's media plus whose it is. */
export interface CallParticipant extends MediaParticipant {
  readonly userId: string;
  readonly deviceId: string;
  /** The index of the key their frames use now (ours: the key we encrypt with); rotations raise it. */
  readonly keyIndex: number | undefined;
}

export interface LiveKitCallOptions {
  rtc: RtcForLiveKit;
  roomId: string;
  userId: string;
  deviceId: string;
  /** A fresh OpenID token from our homeserver (asked on every join and re-join). */
  openIdToken: () => Promise<OpenIdToken>;
  /** Makes livekit-client's encryption worker. */
  e2eeWorker: () => unknown;
  /** Our tracks to publish. */
  tracks?: () => Promise<readonly MediaTrack[]>;
  join?: JoinOptions;
  load?: () => Promise<LiveKitModule>;
  fetch?: typeof globalThis.fetch;
}

/** Whether the server offers a LiveKit focus (the feature check for group calls on an SFU). */
export async function offersLiveKit(rtc: Pick<RtcForLiveKit, "discovery">): Promise<boolean> {
  return livekitFoci((await rtc.discovery.get()).transports).length > 0;
}

export class LiveKitCall {
  private readonly statusValue = new ObservableValue<ConnectionStatus>("idle");
  private readonly errorValue = new ObservableValue<Error | undefined>(undefined);
  private readonly participantsValue = new ObservableValue<readonly CallParticipant[]>([]);
  private readonly publishingValue = new ObservableValue<PublishState>("idle");
  private readonly connections = new Map<string, LiveKitConnection>();
  private readonly identities = new Map<string, RtcParticipant>();
  private keyWatches: Array<() => void> = [];
  private readonly unsubscribes: Array<() => void> = [];
  private publishUrl: string | undefined;
  private ended = false;

  constructor(private readonly options: LiveKitCallOptions) {}

  get roomId(): string {
    return this.options.roomId;
  }

  /** Our publishing connection's status (idle before join, disconnected after leave). */
  get status(): ReadonlyObservable<ConnectionStatus> {
    return this.statusValue;
  }

  /** Where our own tracks are on our SFU: publishing, published, retrying after a failed or stalled publish, failed. */
  get publishing(): ReadonlyObservable<PublishState> {
    return this.publishingValue;
  }

  /** The last failure in words: the token service, the SFU, our media's publish, or the membership. */
  get error(): ReadonlyObservable<Error | undefined> {
    return this.errorValue;
  }

  /** Us first, then every member on the SFUs with their media and encryption state. */
  get participants(): ReadonlyObservable<readonly CallParticipant[]> {
    return this.participantsValue;
  }

  /** Joins: membership and keys, then our focus (publishing) and the others' (watching). Rejects in words. */
  async join(): Promise<void> {
    const { rtc, roomId } = this.options;
    this.statusValue.set("connecting");
    try {
      const discovered = await rtc.discovery.get();
      if (livekitFoci(discovered.transports).length === 0)
        throw new LiveKitCallError("no_focus", NO_LIVEKIT_FOCUS);
      // We publish on our own focus (multi-SFU), and the membership says so: a peer that reads
      // "oldest_membership" looks for us on the oldest member's SFU instead.
      await rtc.join(roomId, { focusSelection: "multi_sfu", ...this.options.join });
      const memberships = rtc.session(roomId).memberships;
      const others = (): CallMembership[] =>
        memberships
          .getSnapshot()
          .filter((m) => !(m.sender === this.options.userId && m.deviceId === this.options.deviceId));
      const own = ownPublishFocus(discovered.transports, "multi_sfu", others());
      if (own === undefined) throw new LiveKitCallError("no_focus", NO_LIVEKIT_FOCUS);
      this.publishUrl = own.serviceUrl;
      this.unsubscribes.push(
        rtc.participants(roomId).subscribe((list) => void this.mapIdentities(list)),
        rtc.ownKey(roomId).subscribe(() => this.refresh()),
        () => this.keyWatches.splice(0).forEach((u) => u()),
        memberships.subscribe(() => this.followFoci(own, others())),
      );
      await this.mapIdentities(rtc.participants(roomId).getSnapshot());
      await this.connect(own, true);
      this.followFoci(own, others());
    } catch (error) {
      this.errorValue.set(error instanceof Error ? error : new Error(String(error)));
      this.statusValue.set("failed");
      await this.leave().catch(() => undefined);
      this.statusValue.set("failed");
      throw error;
    }
  }

  private followFoci(own: LiveKitFocus, others: readonly CallMembership[]): void {
    if (this.ended) return;
    for (const focus of focusesToJoin(own, others))
      if (!this.connections.has(focus.serviceUrl)) void this.connect(focus, false).catch(() => undefined); // its error shows on the connection
  }

  private async connect(focus: LiveKitFocus, publish: boolean): Promise<void> {
    const { rtc, roomId, userId, deviceId } = this.options;
    const connection = new LiveKitConnection({
      focus,
      token: async () =>
        requestSfuToken({
          serviceUrl: focus.serviceUrl,
          roomId,
          openIdToken: await this.options.openIdToken(),
          // The endpoint follows our membership's form, so peers find us under the identity they expect.
          ...sfuTokenPlan(this.ownMembership(), userId, deviceId),
          ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        }),
      keys: { ownKey: rtc.ownKey(roomId), participants: rtc.participants(roomId) },
      e2eeWorker: this.options.e2eeWorker,
      ...(publish && this.options.tracks ? { tracks: this.options.tracks } : {}),
      ...(this.options.load ? { load: this.options.load } : {}),
    });
    this.connections.set(focus.serviceUrl, connection);
    this.unsubscribes.push(
      connection.participants.subscribe(() => this.refresh()),
      connection.error.subscribe((e) => {
        if (e) this.errorValue.set(e);
        else if (publish) this.errorValue.set(undefined);
      }),
    );
    if (publish)
      this.unsubscribes.push(
        connection.status.subscribe((s) => this.statusValue.set(s)),
        connection.publishing.subscribe((s) => this.publishingValue.set(s)),
      );
    await connection.connect();
  }

  /** Our own membership as the session holds it (undefined before the join lands). */
  private ownMembership(): CallMembership | undefined {
    const { rtc, roomId, userId, deviceId } = this.options;
    return rtc
      .session(roomId)
      .memberships.getSnapshot()
      .find((m) => m.sender === userId && m.deviceId === deviceId);
  }

  /** Both SFU names of each member (legacy and hashed), so whichever their token gave maps back to them. */
  private async mapIdentities(list: readonly RtcParticipant[]): Promise<void> {
    const next = new Map<string, RtcParticipant>();
    for (const p of list) {
      next.set(p.identity, p);
      next.set(legacyIdentity(p.userId, p.deviceId), p);
      next.set(await hashedIdentity(p.userId, p.deviceId, p.memberId), p);
    }
    this.identities.clear();
    for (const [k, v] of next) this.identities.set(k, v);
    for (const u of this.keyWatches.splice(0)) u();
    // A rotation (a new index from them) shows on their tile.
    this.keyWatches = list.map((p) => p.keys.subscribe(() => this.refresh()));
    this.refresh();
  }

  private refresh(): void {
    const { userId, deviceId } = this.options;
    const out: CallParticipant[] = [];
    const seen = new Set<string>();
    for (const [url, connection] of this.connections) {
      for (const p of connection.participants.getSnapshot()) {
        if (p.isLocal) {
          const keyIndex = this.options.rtc.ownKey(this.options.roomId).getSnapshot()?.index;
          if (url === this.publishUrl) out.unshift({ ...p, userId, deviceId, keyIndex });
          continue;
        }
        const member = this.identities.get(p.identity);
        // Not a member (or no longer one): never shown, whatever the SFU still holds.
        if (member === undefined) continue;
        const key = `${member.userId}|${member.deviceId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const keyIndex = member.keys.getSnapshot().latestIndex;
        out.push({ ...p, userId: member.userId, deviceId: member.deviceId, keyIndex });
      }
    }
    this.participantsValue.set(out);
  }

  private get publisher(): LiveKitConnection | undefined {
    return this.publishUrl !== undefined ? this.connections.get(this.publishUrl) : undefined;
  }

  /** Mutes or unmutes our microphone or camera on the SFU. */
  async setMuted(kind: "audio" | "video", muted: boolean): Promise<void> {
    await this.publisher?.setMuted(kind, muted);
  }

  /** Publishes one more track of ours (the camera, turned on in a voice call). */
  async addTrack(track: MediaTrack): Promise<void> {
    await this.publisher?.addTrack(track);
  }

  /** Swaps a published track of ours for a new one of the same kind (a device switch mid-call). */
  async replaceTrack(old: MediaTrack, next: MediaTrack): Promise<void> {
    await this.publisher?.replaceTrack(old, next);
  }

  /** Shares our screen on our SFU (a separate screen_share publication the others show as its own tile). */
  async shareScreen(tracks: readonly MediaTrack[]): Promise<void> {
    await this.publisher?.publishScreen(tracks);
  }

  /** Stops sharing our screen. */
  async stopScreenShare(): Promise<void> {
    await this.publisher?.unpublishScreen();
  }

  /** Leaves the SFUs and the session (the membership is removed, the others rotate their keys). */
  async leave(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    for (const u of this.unsubscribes.splice(0)) u();
    await Promise.all([...this.connections.values()].map((c) => c.disconnect().catch(() => undefined)));
    this.connections.clear();
    this.participantsValue.set([]);
    this.publishingValue.set("idle");
    await this.options.rtc.leave(this.options.roomId);
    this.statusValue.set("disconnected");
  }
}
