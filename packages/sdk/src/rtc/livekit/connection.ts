/**
 * One connection to one LiveKit SFU (a focus): join with a token from the
 * focus's token service, publish the tracks the platform hands us, and
 * encrypt and decrypt every frame with LiveKit's frame encryption, keyed by
 * the MatrixRTC encryption manager through the key feed (keys.ts) and an
 * external key provider. It publishes what the call view needs as
 * observables: the status and error, and the participants with their
 * tracks, speaking, mute, connection quality and encryption state.
 *
 * livekit-client resumes by itself after a short network loss
 * (`reconnecting` → `reconnected`). When the SFU drops us for good (a
 * restart, a longer loss), we join again with a new token, backing off
 * 500·2ⁿ ms, at most RECONNECT_ATTEMPTS times, and publish our tracks again.
 * A publish that fails or stalls is tried again (publish.ts); the
 * `publishing` state and the error say where our media is meanwhile.
 *
 * The media edge stays outside: the platform gives the tracks to publish
 * and makes the encryption worker; the SDK never touches `navigator`.
 */
import { backoffDelay } from "../../util/backoff";
import type { BackoffPolicy } from "../../util/backoff";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { MediaTrack } from "../../voip/platform";
import type { LiveKitModule, LkKeyProvider, LkLocalTrack, LkParticipant, LkRoom } from "./api";
import { LK_EVENTS, loadLiveKit } from "./api";
import type { LiveKitFocus } from "./focus";
import { DecryptionFailures, decodedProgress } from "./decryption";
import { KeyFeed } from "./keys";
import type { KeySink, KeySource } from "./keys";
import { publishWithRetry } from "./publish";
import type { PublishState } from "./publish";
import { SfuTokenError } from "./token";
import type { SfuToken } from "./token";

export const RECONNECT_ATTEMPTS = 6;
export const RECONNECT_BASE_MS = 500;
/** Tries of the first join when the SFU does not answer (the token service's errors are not retried). */
export const JOIN_ATTEMPTS = 3;
/** The rejoin waits: 500, 1000, 2000… ms, without jitter. */
const RECONNECT_BACKOFF: BackoffPolicy = {
  baseDelayMs: RECONNECT_BASE_MS,
  maxDelayMs: Infinity,
  jitter: "none",
};
/** LiveKit's key ring holds this many indexes: our key indexes wrap at 256 too. */
export const KEYRING_SIZE = 256;

export type ConnectionStatus =
  "idle" | "connecting" | "connected" | "reconnecting" | "disconnected" | "failed";

/** Whether a participant's media can be read. */
export type EncryptionState = "encrypted" | "waiting_for_keys" | "decryption_failed" | "unencrypted";

export type ConnectionQualityLevel = "excellent" | "good" | "poor" | "lost" | "unknown";

/** One participant on the SFU as the call view shows them. */
export interface MediaParticipant {
  readonly identity: string;
  readonly isLocal: boolean;
  readonly audio: MediaTrack | undefined;
  readonly video: MediaTrack | undefined;
  /** Their shared screen (LiveKit's screen_share source) and its sound, when they share one. */
  readonly screen: MediaTrack | undefined;
  readonly screenAudio: MediaTrack | undefined;
  readonly audioMuted: boolean;
  readonly videoMuted: boolean;
  readonly speaking: boolean;
  readonly connectionQuality: ConnectionQualityLevel;
  readonly encryption: EncryptionState;
}

/**
 * How a track of ours is published: as the camera or the microphone. Without a source LiveKit
 * names it "unknown", and Element Call (which renders a member's Camera and Microphone
 * publications) showed a Lattice participant as an avatar with a muted microphone.
 */
function publishOptions(track: MediaTrack): { source: "camera" | "microphone" } {
  return { source: track.kind === "audio" ? "microphone" : "camera" };
}

/** A shared screen's tracks are LiveKit's screen_share sources. */
function screenOptions(track: MediaTrack): { source: "screen_share" | "screen_share_audio" } {
  return { source: track.kind === "video" ? "screen_share" : "screen_share_audio" };
}

/** The SFU could not be joined or was lost for good, in words. */
export class LiveKitConnectionError extends Error {
  constructor(
    readonly code: "unreachable" | "lost" | "publish_failed",
    readonly sfuUrl: string,
    override readonly cause?: unknown,
  ) {
    super(
      code === "unreachable"
        ? `The call's media server cannot be reached (${sfuUrl})`
        : code === "lost"
          ? `The connection to the call's media server was lost (${sfuUrl})`
          : `Your audio and video could not be sent to the call's media server (${sfuUrl})`,
    );
    this.name = "LiveKitConnectionError";
  }
}

export interface LiveKitConnectionOptions {
  focus: LiveKitFocus;
  /** A fresh join token from the focus's token service (called on every join and re-join). */
  token: () => Promise<SfuToken>;
  /** The encryption manager's keys. */
  keys: KeySource;
  /** Makes livekit-client's encryption worker (the platform's edge: `new Worker(...)`). */
  e2eeWorker: () => unknown;
  /** Our tracks to publish; none to only watch. */
  tracks?: () => Promise<readonly MediaTrack[]>;
  load?: () => Promise<LiveKitModule>;
  /** Timers, injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Bound of one publish try (PUBLISH_TIMEOUT_MS), shorter in tests. */
  publishTimeoutMs?: number;
}

const QUALITIES: readonly string[] = ["excellent", "good", "poor", "lost"];

function keyProviderFor(lk: LiveKitModule): LkKeyProvider & KeySink {
  class MatrixKeyProvider extends lk.BaseKeyProvider implements KeySink {
    private chain: Promise<void> = Promise.resolve();
    setKey(identity: string, index: number, key: Uint8Array): void {
      const bytes = key.slice().buffer;
      // In order: the last key set for an identity is the one its frames are encrypted with.
      this.chain = this.chain
        .then(() => lk.createKeyMaterialFromBuffer(bytes))
        .then((material) => this.onSetEncryptionKey(material, identity, index))
        .catch(() => undefined);
    }
  }
  return new MatrixKeyProvider({
    sharedKey: false,
    ratchetWindowSize: 0,
    // Never give a key up after failures: a key that arrives late must still work.
    failureTolerance: -1,
    keyringSize: KEYRING_SIZE,
  });
}

export class LiveKitConnection {
  private readonly statusValue = new ObservableValue<ConnectionStatus>("idle");
  private readonly errorValue = new ObservableValue<Error | undefined>(undefined);
  private readonly participantsValue = new ObservableValue<readonly MediaParticipant[]>([]);
  private readonly publishingValue = new ObservableValue<PublishState>("idle");
  /** Raised on every (re)join: a publish retry of an earlier join stops. */
  private generation = 0;
  private readonly decryptionFailures = new DecryptionFailures({
    progress: (identity) => this.decodedProgress(identity),
    sleep: (ms) => this.sleep(ms),
    changed: () => this.refresh(),
    active: () => !this.leaving,
  });
  private room: LkRoom | undefined;
  private feed: KeyFeed | undefined;
  private published: readonly MediaTrack[] = [];
  /** Our shared screen's tracks (video, and its audio when captured): republished after a re-join too. */
  private screen: readonly MediaTrack[] = [];
  private leaving = false;
  private readonly unsubscribes: Array<() => void> = [];

  constructor(private readonly options: LiveKitConnectionOptions) {}

  get status(): ReadonlyObservable<ConnectionStatus> {
    return this.statusValue;
  }

  /** The last failure, in words; cleared on a successful (re)join. */
  get error(): ReadonlyObservable<Error | undefined> {
    return this.errorValue;
  }

  get participants(): ReadonlyObservable<readonly MediaParticipant[]> {
    return this.participantsValue;
  }

  /** Where our tracks are on the SFU (idle for a watch-only connection). */
  get publishing(): ReadonlyObservable<PublishState> {
    return this.publishingValue;
  }

  get focus(): LiveKitFocus {
    return this.options.focus;
  }

  /** Loads livekit-client, joins the SFU with encryption on, publishes our tracks. Rejects with the error in words. */
  async connect(): Promise<void> {
    this.statusValue.set("connecting");
    const lk = await (this.options.load ?? loadLiveKit)();
    const keyProvider = keyProviderFor(lk);
    // A new key for a participant ends their "decryption failed": frames that failed before it had no key to use.
    this.feed = new KeyFeed(this.options.keys, {
      setKey: (identity, index, key) => {
        keyProvider.setKey(identity, index, key);
        this.decryptionFailures.clear(identity);
      },
    });
    const room = new lk.Room({
      e2ee: { keyProvider, worker: this.options.e2eeWorker() },
      adaptiveStream: false,
      dynacast: true,
      // Our tracks are the platform's: republished after a re-join, so never stopped by an unpublish.
      stopLocalTrackOnUnpublish: false,
    });
    this.room = room;
    this.listen(room);
    this.unsubscribes.push(this.feed.keyedIdentities.subscribe(() => this.refresh()));
    await room.setE2EEEnabled(true);
    try {
      await this.firstJoin(room);
    } catch (error) {
      this.fail(error);
      throw this.errorValue.getSnapshot() ?? error;
    }
    this.published = (await this.options.tracks?.()) ?? [];
    await this.publishAll(room);
  }

  /**
   * Publishes our tracks (camera, microphone, a shared screen), each retried
   * when its publish fails or stalls. Never rejects: a track that could not
   * be published leaves the state `failed` and the error in words, and the
   * connection goes on receiving.
   */
  private async publishAll(room: LkRoom): Promise<void> {
    const tracks: Array<[MediaTrack, Record<string, unknown>]> = [
      ...this.published.map((t): [MediaTrack, Record<string, unknown>] => [t, publishOptions(t)]),
      ...this.screen.map((t): [MediaTrack, Record<string, unknown>] => [t, screenOptions(t)]),
    ];
    if (tracks.length === 0) return;
    const generation = this.generation;
    const current = (): boolean => !this.leaving && this.generation === generation;
    const sleep = (ms: number): Promise<void> => this.sleep(ms);
    this.publishingValue.set("publishing");
    let failure: unknown;
    let failed = false;
    for (const [track, options] of tracks) {
      const outcome = await publishWithRetry(room.localParticipant, track, options, {
        sleep,
        current,
        ...(this.options.publishTimeoutMs !== undefined ? { timeoutMs: this.options.publishTimeoutMs } : {}),
        onRetry: (error) => {
          if (!current()) return;
          // Said while we try again: no media is leaving yet.
          this.publishingValue.set("retrying");
          this.errorValue.set(new LiveKitConnectionError("publish_failed", this.focus.serviceUrl, error));
        },
      });
      if (!current()) return;
      if (!outcome.published) {
        failed = true;
        failure = outcome.error;
      }
      this.refresh();
    }
    if (failed) {
      this.publishingValue.set("failed");
      this.errorValue.set(new LiveKitConnectionError("publish_failed", this.focus.serviceUrl, failure));
      return;
    }
    this.publishingValue.set("published");
    if (this.errorValue.getSnapshot() instanceof LiveKitConnectionError) this.errorValue.set(undefined);
  }

  /**
   * The first join, tried again when the SFU does not answer in time (a
   * starved machine, a server still starting): JOIN_ATTEMPTS tries with a
   * new token each, 500·2ⁿ ms apart. A token service that refuses or cannot
   * be reached fails at once, in its own words.
   */
  private async firstJoin(room: LkRoom): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.join(room);
        return;
      } catch (error) {
        if (!(error instanceof LiveKitConnectionError) || attempt >= JOIN_ATTEMPTS || this.leaving)
          throw error;
        this.errorValue.set(error);
        await this.sleep(backoffDelay(attempt, RECONNECT_BACKOFF));
      }
    }
  }

  private async join(room: LkRoom): Promise<void> {
    this.generation++;
    const token = await this.options.token();
    this.feed?.setLocalIdentity(token.identity);
    try {
      await room.connect(token.url, token.jwt);
    } catch (error) {
      throw new LiveKitConnectionError("unreachable", token.url, error);
    }
    this.errorValue.set(undefined);
    this.statusValue.set("connected");
  }

  private fail(error: unknown): void {
    this.errorValue.set(error instanceof Error ? error : new Error(String(error)));
    this.statusValue.set("failed");
  }

  private listen(room: LkRoom): void {
    const on = (event: string, listener: (...args: unknown[]) => void): void => {
      room.on(event, listener);
      this.unsubscribes.push(() => room.off(event, listener));
    };
    const refresh = (): void => this.refresh();
    for (const event of [
      LK_EVENTS.participantConnected,
      LK_EVENTS.participantDisconnected,
      LK_EVENTS.trackSubscribed,
      LK_EVENTS.trackUnsubscribed,
      // Sent once the publication has left the participant's list: a stopped screen share
      // is still listed (without its track) when trackUnsubscribed fires, so only this one ends its tile.
      LK_EVENTS.trackUnpublished,
      LK_EVENTS.trackMuted,
      LK_EVENTS.trackUnmuted,
      LK_EVENTS.localTrackPublished,
      LK_EVENTS.localTrackUnpublished,
      LK_EVENTS.activeSpeakersChanged,
      LK_EVENTS.connectionQualityChanged,
      LK_EVENTS.encryptionStatusChanged,
    ])
      on(event, refresh);
    on(LK_EVENTS.encryptionError, (error, participant) => {
      const identity = (participant as LkParticipant | undefined)?.identity;
      if (identity !== undefined) this.decryptionFailures.report(identity, error);
      else this.refresh();
    });
    // Their media may flow again: a standing mark is checked against what decodes.
    on(LK_EVENTS.trackSubscribed, (_track, _pub, participant) =>
      this.decryptionFailures.recheck((participant as LkParticipant | undefined)?.identity ?? ""),
    );
    on(LK_EVENTS.trackUnmuted, (_pub, participant) =>
      this.decryptionFailures.recheck((participant as LkParticipant | undefined)?.identity ?? ""),
    );
    // One who left starts clean when they come back (their key may be the same one, given once).
    on(LK_EVENTS.participantDisconnected, (participant) =>
      this.decryptionFailures.clear((participant as LkParticipant | undefined)?.identity ?? ""),
    );
    on(LK_EVENTS.reconnecting, () => this.statusValue.set("reconnecting"));
    on(LK_EVENTS.reconnected, () => this.statusValue.set("connected"));
    on(LK_EVENTS.disconnected, () => {
      if (!this.leaving) void this.rejoin(room);
    });
  }

  private sleep(ms: number): Promise<void> {
    return (this.options.sleep ?? ((t: number) => new Promise<void>((r) => setTimeout(r, t))))(ms);
  }

  /** How much of a participant's media has been decoded so far (decryption.ts), undefined without a receiver. */
  private async decodedProgress(identity: string): Promise<number | undefined> {
    const participant = [...(this.room?.remoteParticipants.values() ?? [])].find(
      (p) => p.identity === identity,
    );
    const reports = await Promise.all(
      [...(participant?.trackPublications.values() ?? [])].map(async (pub) =>
        pub.track?.getRTCStatsReport?.().catch(() => undefined),
      ),
    );
    return decodedProgress(reports);
  }

  /** The SFU dropped us (restart, long loss): join again with a new token, backing off. */
  private async rejoin(room: LkRoom): Promise<void> {
    this.statusValue.set("reconnecting");
    const sleep = (ms: number): Promise<void> => this.sleep(ms);
    let last: unknown;
    for (let attempt = 0; attempt < RECONNECT_ATTEMPTS && !this.leaving; attempt++) {
      await sleep(backoffDelay(attempt + 1, RECONNECT_BACKOFF));
      if (this.leaving) return;
      try {
        await this.join(room);
        this.decryptionFailures.clearAll();
        this.refresh();
        // Published again (each track retried on its own); a failure there is said, not a reason to re-join.
        await this.publishAll(room);
        return;
      } catch (error) {
        last = error;
        // Told in words while we keep trying.
        this.errorValue.set(error instanceof Error ? error : new Error(String(error)));
      }
    }
    if (this.leaving) return;
    this.fail(
      last instanceof SfuTokenError ? last : new LiveKitConnectionError("lost", this.focus.serviceUrl, last),
    );
  }

  private describe(p: LkParticipant, isLocal: boolean): MediaParticipant {
    let audio: MediaTrack | undefined;
    let video: MediaTrack | undefined;
    let screen: MediaTrack | undefined;
    let screenAudio: MediaTrack | undefined;
    let audioMuted = true;
    let videoMuted = true;
    for (const pub of p.trackPublications.values()) {
      if (pub.source === "screen_share") screen = pub.track?.mediaStreamTrack;
      else if (pub.source === "screen_share_audio") screenAudio = pub.track?.mediaStreamTrack;
      else if (pub.kind === "audio") {
        audio = pub.track?.mediaStreamTrack;
        audioMuted = pub.isMuted;
      } else if (pub.kind === "video") {
        video = pub.track?.mediaStreamTrack;
        videoMuted = pub.isMuted;
      }
    }
    const quality = QUALITIES.includes(p.connectionQuality) ? p.connectionQuality : "unknown";
    let encryption: EncryptionState;
    if (isLocal) encryption = p.isEncrypted ? "encrypted" : "unencrypted";
    else if (this.feed?.keyState(p.identity) !== "has_keys") encryption = "waiting_for_keys";
    else if (this.decryptionFailures.kind(p.identity) === "failed") encryption = "decryption_failed";
    // The index their frames use has not reached us yet: waiting, not undecryptable.
    else if (this.decryptionFailures.kind(p.identity) === "missing_key") encryption = "waiting_for_keys";
    else encryption = "encrypted";
    return {
      identity: p.identity,
      isLocal,
      audio,
      video,
      screen,
      screenAudio,
      audioMuted,
      videoMuted,
      speaking: p.isSpeaking,
      connectionQuality: quality as ConnectionQualityLevel,
      encryption,
    };
  }

  private refresh(): void {
    const room = this.room;
    if (!room) return;
    const list = [this.describe(room.localParticipant, true)];
    for (const p of room.remoteParticipants.values()) list.push(this.describe(p, false));
    this.participantsValue.set(list);
  }

  /** Publishes one more of our tracks (the camera turned on in a voice call); republished after a re-join too. */
  async addTrack(track: MediaTrack): Promise<void> {
    this.published = [...this.published, track];
    await this.room?.localParticipant.publishTrack(track, publishOptions(track));
    this.refresh();
  }

  /**
   * Swaps one of our published tracks for another of the same kind (a new
   * microphone or camera chosen mid-call): the publication and its sender
   * stay, the others keep receiving; republished after a re-join too.
   */
  async replaceTrack(old: MediaTrack, next: MediaTrack): Promise<void> {
    this.published = this.published.map((t) => (t === old ? next : t));
    for (const pub of this.room?.localParticipant.trackPublications.values() ?? []) {
      const track = pub.track as LkLocalTrack | undefined;
      if (track?.mediaStreamTrack === old) await track.replaceTrack(next, true);
    }
    this.refresh();
  }

  private async publishScreenTrack(track: MediaTrack): Promise<void> {
    await this.room?.localParticipant.publishTrack(track, screenOptions(track));
  }

  /** Shares our screen (its video, and its audio when given) as the screen_share sources, beside the camera. */
  async publishScreen(tracks: readonly MediaTrack[]): Promise<void> {
    await this.unpublishScreen();
    this.screen = tracks;
    for (const track of tracks) {
      // Stopped (or replaced) while we were publishing: the rest is not ours to publish.
      if (this.screen !== tracks) break;
      await this.publishScreenTrack(track);
    }
    this.refresh();
  }

  /** Stops sharing: the screen tracks are unpublished (not stopped: the caller owns them). */
  async unpublishScreen(): Promise<void> {
    const tracks = this.screen;
    this.screen = [];
    for (const track of tracks) await this.room?.localParticipant.unpublishTrack(track, false);
    this.refresh();
  }

  /** Mutes or unmutes our published audio or camera: the others see it muted (no frames are sent). */
  async setMuted(kind: "audio" | "video", muted: boolean): Promise<void> {
    const local = this.room?.localParticipant;
    if (!local) return;
    for (const pub of local.trackPublications.values()) {
      if (pub.kind !== kind || pub.source === "screen_share" || pub.source === "screen_share_audio") continue;
      const track = pub.track as LkLocalTrack | undefined;
      await (muted ? track?.mute() : track?.unmute());
    }
    this.refresh();
  }

  /** Leaves the SFU and releases everything; our tracks are unpublished, not stopped (the platform owns them). */
  async disconnect(): Promise<void> {
    this.leaving = true;
    for (const u of this.unsubscribes.splice(0)) u();
    this.feed?.dispose();
    await this.room?.disconnect(false);
    this.room = undefined;
    this.participantsValue.set([]);
    this.publishingValue.set("idle");
    this.statusValue.set("disconnected");
  }
}
