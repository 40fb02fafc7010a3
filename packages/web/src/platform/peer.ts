/**
 * The SDK's PeerConnection over the browser's RTCPeerConnection. The DOM
 * objects (tracks, streams, senders, transceivers) pass through unchanged:
 * they already have the shape the SDK's structural types name, except that
 * the DOM types are wider (a track's kind is any string), hence the casts
 * at this one boundary. Events go to the handlers given at creation, so the
 * call that created the connection is its only listener.
 */
import type {
  IceCandidate,
  IceConnectionState,
  IceGatheringState,
  MediaStream as SdkStream,
  MediaTrack,
  PeerConnection,
  PeerConnectionConfig,
  PeerConnectionHandlers,
  RtpSender,
  SessionDescription,
  SignalingState,
  StatsEntry,
  Transceiver,
  TransceiverDirection,
} from "../sdk";

/** The DOM stream behind an SDK stream (the platform hands out DOM streams). */
export function domStream(stream: SdkStream): globalThis.MediaStream {
  return stream as unknown as globalThis.MediaStream;
}

/** A DOM stream as the SDK's structural type. */
export function sdkStream(stream: globalThis.MediaStream): SdkStream {
  return stream as unknown as SdkStream;
}

function domTrack(track: MediaTrack): MediaStreamTrack {
  return track as unknown as MediaStreamTrack;
}

function sdkTrack(track: MediaStreamTrack): MediaTrack {
  return track as unknown as MediaTrack;
}

/** The RTCPeerConnection constructor of a scope (a window, or a test's stand-in). */
export type PeerConnectionConstructor = new (config?: RTCConfiguration) => RTCPeerConnection;

class BrowserPeerConnection implements PeerConnection {
  constructor(private readonly pc: RTCPeerConnection) {}

  get signalingState(): SignalingState {
    return this.pc.signalingState;
  }
  get iceConnectionState(): IceConnectionState {
    return this.pc.iceConnectionState;
  }
  get iceGatheringState(): IceGatheringState {
    return this.pc.iceGatheringState;
  }
  get localDescription(): SessionDescription | null {
    return this.pc.localDescription;
  }
  get remoteDescription(): SessionDescription | null {
    return this.pc.remoteDescription;
  }

  createOffer(options?: { iceRestart?: boolean }): Promise<SessionDescription> {
    return this.pc.createOffer(options);
  }
  createAnswer(): Promise<SessionDescription> {
    return this.pc.createAnswer();
  }
  setLocalDescription(description?: SessionDescription): Promise<void> {
    return description ? this.pc.setLocalDescription(description) : this.pc.setLocalDescription();
  }
  setRemoteDescription(description: SessionDescription): Promise<void> {
    return this.pc.setRemoteDescription(description);
  }
  addIceCandidate(candidate: IceCandidate): Promise<void> {
    return this.pc.addIceCandidate(candidate);
  }
  addTrack(track: MediaTrack, ...streams: SdkStream[]): RtpSender {
    return this.pc.addTrack(domTrack(track), ...streams.map(domStream)) as unknown as RtpSender;
  }
  addTransceiver(kind: "audio" | "video", init?: { direction?: TransceiverDirection }): Transceiver {
    const direction = init?.direction;
    // "stopped" is not a direction a transceiver can be created with.
    const usable = direction && direction !== "stopped" ? { direction } : undefined;
    return this.pc.addTransceiver(kind, usable) as unknown as Transceiver;
  }
  removeTrack(sender: RtpSender): void {
    this.pc.removeTrack(sender as unknown as RTCRtpSender);
  }
  getTransceivers(): Transceiver[] {
    return this.pc.getTransceivers() as unknown as Transceiver[];
  }
  restartIce(): void {
    this.pc.restartIce();
  }
  async getStats(): Promise<StatsEntry[]> {
    const report = await this.pc.getStats();
    const out: StatsEntry[] = [];
    report.forEach((entry: { id: string; type: string }) => out.push({ ...entry }));
    return out;
  }
  close(): void {
    this.pc.close();
  }
}

function candidateOf(c: RTCIceCandidate): IceCandidate {
  return {
    candidate: c.candidate,
    sdpMid: c.sdpMid,
    sdpMLineIndex: c.sdpMLineIndex,
    usernameFragment: c.usernameFragment,
  };
}

/** Creates one peer connection whose events go to `handlers`. */
export function createBrowserPeerConnection(
  Ctor: PeerConnectionConstructor,
  config: PeerConnectionConfig,
  handlers: PeerConnectionHandlers,
): PeerConnection {
  const pc = new Ctor({
    iceServers: config.iceServers,
    ...(config.iceTransportPolicy ? { iceTransportPolicy: config.iceTransportPolicy } : {}),
    ...(config.iceCandidatePoolSize !== undefined
      ? { iceCandidatePoolSize: config.iceCandidatePoolSize }
      : {}),
  });
  pc.onicecandidate = (e) => handlers.onIceCandidate(e.candidate ? candidateOf(e.candidate) : null);
  pc.oniceconnectionstatechange = () => handlers.onIceConnectionStateChange(pc.iceConnectionState);
  pc.onicegatheringstatechange = () => handlers.onIceGatheringStateChange?.(pc.iceGatheringState);
  pc.onnegotiationneeded = () => handlers.onNegotiationNeeded();
  pc.ontrack = (e) => handlers.onTrack(sdkTrack(e.track), e.streams.map(sdkStream));
  return new BrowserPeerConnection(pc);
}
