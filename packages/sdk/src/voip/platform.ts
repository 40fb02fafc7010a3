/**
 * The media platform the call machines run over: a peer connection, media
 * devices and an audio analyser, as minimal structural types (no DOM lib in
 * the SDK core). The web app implements it over RTCPeerConnection and
 * navigator.mediaDevices in `src/platform/`; tests use the fakes of
 * test/voip/fakes.ts, which connect two peers in memory.
 *
 * Events of the peer connection reach its owner through the handlers given
 * at creation, so one call owns one connection and nothing else listens.
 */

export type SdpType = "offer" | "answer" | "pranswer" | "rollback";

export interface SessionDescription {
  type: SdpType;
  sdp?: string;
}

export interface IceCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

export type IceConnectionState =
  "new" | "checking" | "connected" | "completed" | "disconnected" | "failed" | "closed";
export type IceGatheringState = "new" | "gathering" | "complete";
export type SignalingState =
  | "stable"
  | "have-local-offer"
  | "have-remote-offer"
  | "have-local-pranswer"
  | "have-remote-pranswer"
  | "closed";
export type TransceiverDirection = "sendrecv" | "sendonly" | "recvonly" | "inactive" | "stopped";

export interface MediaTrack {
  readonly id: string;
  readonly kind: "audio" | "video";
  enabled: boolean;
  stop(): void;
}

export interface MediaStream {
  readonly id: string;
  getTracks(): MediaTrack[];
  getAudioTracks(): MediaTrack[];
  getVideoTracks(): MediaTrack[];
  addTrack(track: MediaTrack): void;
  removeTrack(track: MediaTrack): void;
}

/** DTMF on an audio sender, where the platform has it. */
export interface DtmfSender {
  insertDTMF(tones: string, duration?: number, interToneGap?: number): void;
}

export interface RtpSender {
  readonly track: MediaTrack | null;
  readonly dtmf?: DtmfSender | null;
  replaceTrack(track: MediaTrack | null): Promise<void>;
}

export interface Transceiver {
  readonly mid: string | null;
  readonly sender: RtpSender;
  readonly receiver: { readonly track: MediaTrack };
  direction: TransceiverDirection;
  readonly currentDirection: TransceiverDirection | null;
}

/** One stats entry (inbound-rtp, outbound-rtp, candidate-pair, local-candidate...). */
export interface StatsEntry {
  id: string;
  type: string;
  [field: string]: unknown;
}

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface PeerConnectionConfig {
  iceServers: IceServer[];
  iceTransportPolicy?: "all" | "relay";
  iceCandidatePoolSize?: number;
}

/** What the peer connection reports to its owner. */
export interface PeerConnectionHandlers {
  /** A gathered local candidate; null when gathering completed. */
  onIceCandidate(candidate: IceCandidate | null): void;
  onIceConnectionStateChange(state: IceConnectionState): void;
  onIceGatheringStateChange?(state: IceGatheringState): void;
  onNegotiationNeeded(): void;
  /** A remote track, with the streams the remote side sent it in. */
  onTrack(track: MediaTrack, streams: readonly MediaStream[]): void;
}

export interface PeerConnection {
  readonly signalingState: SignalingState;
  readonly iceConnectionState: IceConnectionState;
  readonly iceGatheringState: IceGatheringState;
  readonly localDescription: SessionDescription | null;
  readonly remoteDescription: SessionDescription | null;
  createOffer(options?: { iceRestart?: boolean }): Promise<SessionDescription>;
  createAnswer(): Promise<SessionDescription>;
  /** Without a description: the implicit offer or answer of perfect negotiation. */
  setLocalDescription(description?: SessionDescription): Promise<void>;
  setRemoteDescription(description: SessionDescription): Promise<void>;
  addIceCandidate(candidate: IceCandidate): Promise<void>;
  addTrack(track: MediaTrack, ...streams: MediaStream[]): RtpSender;
  /** A transceiver without a track (the pre-call check gathers candidates with one). */
  addTransceiver(kind: "audio" | "video", init?: { direction?: TransceiverDirection }): Transceiver;
  removeTrack(sender: RtpSender): void;
  getTransceivers(): Transceiver[];
  /** Absent where the platform cannot restart ICE: a failed connection then hangs up. */
  restartIce?(): void;
  getStats(): Promise<StatsEntry[]>;
  close(): void;
}

export interface MediaConstraints {
  audio: boolean | { deviceId?: string; echoCancellation?: boolean; noiseSuppression?: boolean };
  video: boolean | { deviceId?: string; width?: number; height?: number };
}

export interface MediaDeviceInfo {
  deviceId: string;
  kind: "audioinput" | "audiooutput" | "videoinput";
  label: string;
  groupId?: string;
}

export interface MediaDevices {
  getUserMedia(constraints: MediaConstraints): Promise<MediaStream>;
  getDisplayMedia(options?: { audio?: boolean }): Promise<MediaStream>;
  enumerateDevices(): Promise<MediaDeviceInfo[]>;
}

/** An analyser over one stream's audio (a Web Audio AnalyserNode in browsers). */
export interface AudioAnalyser {
  readonly frequencyBinCount: number;
  /** Fills `into` with the current spectrum in dB. */
  getFloatFrequencyData(into: Float32Array): void;
  dispose(): void;
}

/** Everything the voip layer needs from its host. */
export interface MediaPlatform {
  createPeerConnection(config: PeerConnectionConfig, handlers: PeerConnectionHandlers): PeerConnection;
  readonly mediaDevices: MediaDevices;
  /** Absent where audio analysis is unavailable: feeds then never report speaking. */
  createAudioAnalyser?(stream: MediaStream, options: { fftSize: number }): AudioAnalyser;
}
