/**
 * The part of `livekit-client` the SDK uses, as narrow structural types.
 * The SDK core has no DOM types, and livekit-client's declarations are full
 * of them; naming only what we call keeps the core DOM-free and lets the
 * Node tests drive the connection with a fake module. The real module is
 * loaded on first use (`loadLiveKit`, a dynamic import), so no screen
 * without a call pays for it.
 */
import type { MediaTrack } from "../../voip/platform";

/** A track as livekit-client wraps it. */
export interface LkTrack {
  readonly kind: string;
  readonly source: string;
  readonly isMuted: boolean;
  readonly mediaStreamTrack: MediaTrack;
  /** A remote track's receiver statistics (RTCStatsReport), when it has a receiver. */
  getRTCStatsReport?(): Promise<{ forEach(each: (stat: Record<string, unknown>) => void): void } | undefined>;
}

/** One of our own tracks: muting it stops its frames and tells the others. */
export interface LkLocalTrack extends LkTrack {
  mute(): Promise<unknown>;
  unmute(): Promise<unknown>;
  /** Swaps the captured track under the publication (same sender, no renegotiation); `userProvidedTrack` true: the caller owns it. */
  replaceTrack(track: MediaTrack, userProvidedTrack?: boolean): Promise<unknown>;
}

export interface LkTrackPublication {
  readonly kind: string;
  readonly source: string;
  readonly isMuted: boolean;
  readonly track?: LkTrack | undefined;
}

export interface LkParticipant {
  readonly identity: string;
  readonly isSpeaking: boolean;
  readonly connectionQuality: string;
  readonly isEncrypted: boolean;
  readonly trackPublications: ReadonlyMap<string, LkTrackPublication>;
}

export interface LkLocalParticipant extends LkParticipant {
  publishTrack(track: MediaTrack, options?: Record<string, unknown>): Promise<unknown>;
  unpublishTrack(track: MediaTrack, stopOnUnpublish?: boolean): Promise<unknown>;
}

/** livekit-client's Room: an event emitter with connect and disconnect. */
export interface LkRoom {
  readonly state: string;
  readonly localParticipant: LkLocalParticipant;
  readonly remoteParticipants: ReadonlyMap<string, LkParticipant>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  connect(url: string, token: string, options?: Record<string, unknown>): Promise<void>;
  disconnect(stopTracks?: boolean): Promise<void>;
  setE2EEEnabled(enabled: boolean): Promise<void>;
}

/** livekit-client's BaseKeyProvider, with the hook our subclass calls. */
export interface LkKeyProvider {
  onSetEncryptionKey(key: unknown, participantIdentity?: string, keyIndex?: number): void;
}

export interface LkKeyProviderOptions {
  sharedKey: boolean;
  ratchetWindowSize: number;
  failureTolerance: number;
  keyringSize: number;
}

export interface LkRoomOptions {
  e2ee?: { keyProvider: LkKeyProvider; worker: unknown };
  adaptiveStream?: boolean;
  dynacast?: boolean;
  /** false: the platform owns the tracks; an unpublish (also on a drop) must not stop them. */
  stopLocalTrackOnUnpublish?: boolean;
}

/** What the SDK takes from the livekit-client module. */
export interface LiveKitModule {
  Room: new (options: LkRoomOptions) => LkRoom;
  BaseKeyProvider: new (options: Partial<LkKeyProviderOptions>) => LkKeyProvider;
  createKeyMaterialFromBuffer(key: ArrayBuffer): Promise<unknown>;
}

/** livekit-client's room events the connection listens to (its RoomEvent values). */
export const LK_EVENTS = {
  participantConnected: "participantConnected",
  participantDisconnected: "participantDisconnected",
  trackSubscribed: "trackSubscribed",
  trackUnsubscribed: "trackUnsubscribed",
  trackUnpublished: "trackUnpublished",
  trackMuted: "trackMuted",
  trackUnmuted: "trackUnmuted",
  localTrackPublished: "localTrackPublished",
  localTrackUnpublished: "localTrackUnpublished",
  activeSpeakersChanged: "activeSpeakersChanged",
  connectionQualityChanged: "connectionQualityChanged",
  encryptionStatusChanged: "participantEncryptionStatusChanged",
  encryptionError: "encryptionError",
  reconnecting: "reconnecting",
  reconnected: "reconnected",
  disconnected: "disconnected",
} as const;

/** Loads livekit-client on first use. */
export async function loadLiveKit(): Promise<LiveKitModule> {
  return (await import("livekit-client")) as unknown as LiveKitModule;
}
