/**
 * A group call on LiveKit (docs/architecture/0030), in the same shape the
 * call view shows for the other kinds (ActiveCallViewModel): `client.rtc()`
 * keeps our membership and the media keys (Olm-encrypted to-device), the
 * SDK's LiveKitCall joins the SFUs and decrypts each member's frames with
 * their key. One tile per member, with speaking, mute and the encryption
 * state ("waiting for keys" until their key has come, never a silently
 * black tile). Loaded lazily with livekit-client's encryption worker, so
 * the chat screen pays for neither. Raised hands and reactions
 * (state/calls/reactions.ts) follow the joined call's SDK tracker.
 */
import { createE2eeWorker } from "../../platform/livekit";
import type { BrowserMediaPlatform } from "../../platform";
import {
  checkLiveKitFocus,
  LiveKitCall,
  livekitFoci,
  offersLiveKit,
  requestOpenIdToken,
  requestSfuToken,
} from "../../sdk";
import type { CallParticipant, Client, LiveKitCheckResult, MediaTrack, RtcService } from "../../sdk";
import { ObservableValue } from "../observables";
import { Scope } from "../Scope";
import type { ActiveCallViewModel, CallStatus, HoldView } from "./ActiveCall";
import type { FeedMute, FeedView, TileEncryption } from "./feeds";
import { CallReactionsViewModel } from "./reactions";

export { offersLiveKit };

/**
 * The pre-call check's LiveKit part: the server's first LiveKit focus, a
 * token for `roomId` from its token service (the OpenID flow a join
 * takes), then the SFU it names; undefined when the server offers none.
 */
export async function checkLiveKit(client: Client, roomId: string): Promise<LiveKitCheckResult | undefined> {
  const { transports } = await (await client.rtc()).discovery.get();
  const serviceUrl = livekitFoci(transports)[0]?.serviceUrl;
  if (serviceUrl === undefined) return undefined;
  const deviceId = client.deviceId ?? "";
  return checkLiveKitFocus({
    serviceUrl,
    token: async () =>
      requestSfuToken({
        serviceUrl,
        roomId,
        openIdToken: await requestOpenIdToken(client.http, client.userId),
        member: { id: `${client.userId}:${deviceId}`, userId: client.userId, deviceId },
      }),
  });
}

/** What the lobby chose before joining: the microphone muted, the camera off. */
export interface JoinChoice {
  microphoneMuted?: boolean;
  cameraOff?: boolean;
}

interface TileState {
  view: FeedView;
  audio: MediaTrack | undefined;
  video: MediaTrack | undefined;
  mute: ObservableValue<FeedMute>;
  speaking: ObservableValue<boolean>;
  encryption: ObservableValue<TileEncryption>;
  keyIndex: ObservableValue<number | undefined>;
}

function asDom(track: MediaTrack): MediaStreamTrack {
  return track as unknown as MediaStreamTrack;
}

export class LiveKitCallViewModel implements ActiveCallViewModel {
  readonly kind = "group";
  readonly id: string;
  /** The other person of a MatrixRTC 1:1 call (the view's title names them); undefined in a group call. */
  opponentUserId: string | undefined = undefined;
  /** A MatrixRTC 1:1 call rings the other side: "Calling…" while it rings and nobody else is in. */
  readonly ringingOut = new ObservableValue(false);
  readonly status = new ObservableValue<CallStatus>("connecting");
  readonly length = new ObservableValue(0);
  readonly feeds = new ObservableValue<readonly FeedView[]>([]);
  readonly microphoneMuted = new ObservableValue(false);
  readonly cameraOff = new ObservableValue(true);
  readonly screensharing = new ObservableValue(false);
  readonly hold = new ObservableValue<HoldView>({ remoteOnHold: false, localOnHold: false });
  readonly error = new ObservableValue<string | null>(null);
  readonly canHold = false;
  readonly canScreenshare: boolean;
  readonly call: LiveKitCall;
  readonly reactions: CallReactionsViewModel;
  private readonly scope = new Scope();
  private readonly tiles = new Map<string, TileState>();
  private tracks: MediaTrack[] = [];
  private screenTracks: MediaTrack[] = [];
  /** The screen share's starts and stops, run one after another. */
  private screenQueue: Promise<void> = Promise.resolve();
  private connectedAt: number | undefined;

  constructor(
    client: Client,
    /** The client's MatrixRTC service (`await client.rtc()`). */
    private readonly rtc: RtcService,
    readonly roomId: string,
    private readonly platform: BrowserMediaPlatform | undefined,
    private readonly video: boolean,
    private readonly choice: JoinChoice = {},
    private readonly now: () => number = Date.now,
  ) {
    this.id = `livekit:${roomId}`;
    this.canScreenshare = platform !== undefined;
    const deviceId = client.deviceId ?? "";
    this.reactions = new CallReactionsViewModel({ userId: client.userId, deviceId }, (message) =>
      this.error.set(message),
    );
    this.call = new LiveKitCall({
      rtc,
      roomId,
      userId: client.userId,
      deviceId,
      openIdToken: () => requestOpenIdToken(client.http, client.userId),
      e2eeWorker: createE2eeWorker,
      tracks: () => this.capture(),
    });
    this.scope.subscribe(this.call.participants, (list) => this.update(list));
    this.scope.subscribe(this.call.status, () => this.update(this.call.participants.getSnapshot()));
    this.scope.subscribe(this.ringingOut, () => this.update(this.call.participants.getSnapshot()));
    this.scope.subscribe(this.call.error, (e) => this.error.set(e ? e.message : null));
    // A closed tab leaves at once (the delayed leave is sent now); only a crash waits for its delay.
    const onPageHide = (): void => rtc.unload();
    globalThis.addEventListener?.("pagehide", onPageHide);
    this.scope.add(() => globalThis.removeEventListener?.("pagehide", onPageHide));
    const tick = setInterval(() => {
      if (this.connectedAt !== undefined) this.length.set(this.now() - this.connectedAt);
    }, 1000);
    this.scope.add(() => clearInterval(tick));
  }

  private async capture(): Promise<readonly MediaTrack[]> {
    if (!this.platform) return [];
    const camera = this.video && this.choice.cameraOff !== true;
    const stream = await this.platform.mediaDevices.getUserMedia({ audio: true, video: camera });
    this.tracks = [...stream.getTracks()];
    // Muted in the lobby: not a sound leaves before the SFU is told (enter() mutes the publication).
    if (this.choice.microphoneMuted === true)
      for (const t of this.tracks) if (t.kind === "audio") t.enabled = false;
    this.cameraOff.set(!camera);
    return this.tracks;
  }

  private update(list: readonly CallParticipant[]): void {
    const s = this.call.status.getSnapshot();
    const others = list.filter((p) => !p.isLocal).length;
    let status: CallStatus;
    if (s === "connected")
      status = others > 0 ? "connected" : this.ringingOut.getSnapshot() ? "calling" : "waiting";
    else if (s === "disconnected" || s === "failed") status = "ended";
    // Lost after being in: the SDK rejoins by itself (livekit-client's resume, then a new token).
    else if (s === "reconnecting") status = "reconnecting";
    else status = "connecting";
    if (status === "connected" && this.connectedAt === undefined) this.connectedAt = this.now();
    this.status.set(status);
    const present = new Set<string>();
    const views: FeedView[] = [];
    for (const p of list) {
      const key = `livekit:${p.isLocal ? "local" : "remote"}:${p.userId}:${p.deviceId}`;
      present.add(key);
      views.push(this.tile(key, p).view);
      if (p.isLocal) this.microphoneMuted.set(p.audioMuted);
      if (p.screen !== undefined) {
        // A shared screen is a tile of its own, with its sound, beside the member's camera.
        const screenKey = `${key}:screen`;
        present.add(screenKey);
        views.push(
          this.tile(
            screenKey,
            { ...p, video: p.screen, audio: p.screenAudio, videoMuted: false },
            "m.screenshare",
          ).view,
        );
      }
    }
    for (const key of [...this.tiles.keys()]) if (!present.has(key)) this.tiles.delete(key);
    this.feeds.set(views);
  }

  /** One stable tile per member; a new stream only when their tracks change (a re-join, a new camera). */
  private tile(key: string, p: CallParticipant, purpose: FeedView["purpose"] = "m.usermedia"): TileState {
    let t = this.tiles.get(key);
    const mute = {
      audioMuted: p.audio === undefined || p.audioMuted,
      videoMuted: p.video === undefined || p.videoMuted,
    };
    if (t === undefined || t.audio !== p.audio || t.video !== p.video) {
      const tracks = [p.video, p.audio].filter((x): x is MediaTrack => x !== undefined).map(asDom);
      const muteValue = t?.mute ?? new ObservableValue<FeedMute>(mute);
      const speaking = t?.speaking ?? new ObservableValue(false);
      const encryption = t?.encryption ?? new ObservableValue<TileEncryption>(p.encryption);
      const keyIndex = t?.keyIndex ?? new ObservableValue<number | undefined>(p.keyIndex);
      t = {
        audio: p.audio,
        video: p.video,
        mute: muteValue,
        speaking,
        encryption,
        keyIndex,
        view: {
          key,
          userId: p.userId,
          isLocal: p.isLocal,
          purpose,
          stream: new MediaStream(tracks),
          mute: muteValue,
          speaking,
          encryption,
          keyIndex,
          ...(purpose === "m.usermedia" ? { reactions: this.reactions.tile(p.userId, p.deviceId) } : {}),
        },
      };
      this.tiles.set(key, t);
    }
    const before = t.mute.getSnapshot();
    if (before.audioMuted !== mute.audioMuted || before.videoMuted !== mute.videoMuted) t.mute.set(mute);
    t.speaking.set(p.speaking);
    t.encryption.set(p.encryption);
    t.keyIndex.set(p.keyIndex);
    return t;
  }

  /** Joins: membership, keys, SFU; a failure is the error in words and the call ends. */
  async enter(): Promise<void> {
    try {
      await this.call.join();
      const tracker = this.rtc.reactions(this.roomId);
      if (tracker) this.reactions.attach(tracker);
      if (this.choice.microphoneMuted === true) await this.setMicrophoneMuted(true);
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
      this.stopTracks();
    }
  }

  canDtmf(): boolean {
    return false;
  }

  private async attempt(action: () => Promise<void>): Promise<void> {
    try {
      this.error.set(null);
      await action();
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
    }
  }

  setMicrophoneMuted(muted: boolean): Promise<void> {
    return this.attempt(async () => {
      await this.call.setMuted("audio", muted);
      this.microphoneMuted.set(muted);
    });
  }

  setCameraOff(off: boolean): Promise<void> {
    return this.attempt(async () => {
      const hasCamera = this.tracks.some((t) => t.kind === "video");
      if (!off && !hasCamera && this.platform) {
        const stream = await this.platform.mediaDevices.getUserMedia({ audio: false, video: true });
        for (const track of stream.getTracks()) {
          this.tracks.push(track);
          await this.call.addTrack(track);
        }
      } else await this.call.setMuted("video", off);
      this.cameraOff.set(off);
    });
  }

  /** A microphone or camera chosen mid-call: captured, swapped under our publication, the old one stopped. */
  switchInput(kind: "audio" | "video", deviceId: string | undefined): Promise<void> {
    return this.attempt(async () => {
      const old = this.tracks.find((t) => t.kind === kind);
      if (!this.platform || !old) return;
      const wanted = deviceId === undefined ? true : { deviceId };
      const stream = await this.platform.mediaDevices.getUserMedia(
        kind === "audio" ? { audio: wanted, video: false } : { audio: false, video: wanted },
      );
      const next = stream.getTracks().find((t) => t.kind === kind);
      if (!next) return;
      await this.call.replaceTrack(old, next);
      this.tracks = this.tracks.map((t) => (t === old ? next : t));
      old.stop();
    });
  }

  /**
   * Shares the screen the user picks (with its sound where the browser gives
   * it), or stops sharing. One at a time, in the order pressed: a stop pressed
   * while the share is still being published waits for it and then takes it
   * down, instead of finding no capture yet and doing nothing.
   */
  setScreensharing(on: boolean): Promise<void> {
    const next = this.screenQueue.then(() => this.attempt(() => this.applyScreensharing(on)));
    this.screenQueue = next;
    return next;
  }

  private async applyScreensharing(on: boolean): Promise<void> {
    if (!on || !this.platform) {
      await this.call.stopScreenShare();
      this.stopScreen();
      return;
    }
    if (this.screenTracks.length > 0) return;
    const stream = await this.platform.mediaDevices.getDisplayMedia({ audio: true });
    this.screenTracks = [...stream.getTracks()];
    // Sharing from the moment the capture is ours: the button says "Stop sharing" while it is published.
    this.screensharing.set(true);
    // The browser's own "Stop sharing" ends the video track.
    const video = this.screenTracks.find((t) => t.kind === "video");
    if (video)
      asDom(video).addEventListener("ended", () => void this.setScreensharing(false), { once: true });
    try {
      await this.call.shareScreen(this.screenTracks);
    } catch (error) {
      await this.call.stopScreenShare().catch(() => undefined);
      this.stopScreen();
      throw error;
    }
  }

  private stopScreen(): void {
    for (const t of this.screenTracks.splice(0)) t.stop();
    this.screensharing.set(false);
  }
  setHold(): void {
    // Hold is a 1:1 feature (canHold is false).
  }
  sendDtmf(): void {
    // DTMF is a 1:1 feature.
  }

  /** Leaves: the SFU, then our membership (the others rotate their keys). */
  hangup(): Promise<void> {
    return this.attempt(async () => {
      await this.call.leave();
      this.stopTracks();
      this.status.set("ended");
    });
  }

  private stopTracks(): void {
    for (const t of this.tracks.splice(0)) t.stop();
    this.stopScreen();
  }

  dispose(): void {
    this.scope.end();
    this.reactions.dispose();
    void this.call.leave().catch(() => undefined);
    this.stopTracks();
  }
}
