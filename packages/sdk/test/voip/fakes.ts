/**
 * A fake media platform for the voip tests: peer connections that talk to
 * each other through a FakeNetwork. The fake SDP is JSON (the m-lines' mid,
 * kind, direction and stream ids, and the peer's ufrag), so the answer side
 * creates transceivers and fires onTrack as a browser does, and two peers
 * that exchanged descriptions and candidates go ICE connected. Media fakes
 * are in fake-media.ts.
 */
import type {
  AudioAnalyser,
  DtmfSender,
  IceCandidate,
  IceConnectionState,
  IceGatheringState,
  MediaPlatform,
  MediaStream,
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
} from "../../src/voip/platform";
import { FakeAnalyser, FakeMediaDevices, FakeStream, FakeTrack, nextId } from "./fake-media";

export { FakeAnalyser, FakeMediaDevices, FakeStream, FakeTrack } from "./fake-media";

interface FakeMLine {
  mid: string;
  kind: "audio" | "video";
  direction: TransceiverDirection;
  streamIds: string[];
}
interface FakeSdp {
  ufrag: string;
  media: FakeMLine[];
  restart?: boolean;
}

const reverse = (d: TransceiverDirection): TransceiverDirection =>
  d === "sendonly" ? "recvonly" : d === "recvonly" ? "sendonly" : d;
const sends = (d: TransceiverDirection | null): boolean => d === "sendrecv" || d === "sendonly";
const receives = (d: TransceiverDirection | null): boolean => d === "sendrecv" || d === "recvonly";
function intersect(a: TransceiverDirection, b: TransceiverDirection): TransceiverDirection {
  const send = sends(a) && sends(b);
  const recv = receives(a) && receives(b);
  return send && recv ? "sendrecv" : send ? "sendonly" : recv ? "recvonly" : "inactive";
}

export class FakeDtmf implements DtmfSender {
  readonly tones: string[] = [];
  insertDTMF(tones: string): void {
    this.tones.push(tones);
  }
}

class FakeSender implements RtpSender {
  constructor(
    public track: MediaTrack | null,
    readonly dtmf: DtmfSender | null,
  ) {}
  replaceTrack(track: MediaTrack | null): Promise<void> {
    this.track = track;
    return Promise.resolve();
  }
}

class FakeTransceiver implements Transceiver {
  currentDirection: TransceiverDirection | null = null;
  streamIds: string[] = [];
  firedTrack = false;
  private dir: TransceiverDirection;
  constructor(
    readonly mid: string,
    readonly sender: FakeSender,
    readonly receiver: { track: MediaTrack },
    direction: TransceiverDirection,
    private readonly changed: () => void,
  ) {
    this.dir = direction;
  }
  get direction(): TransceiverDirection {
    return this.dir;
  }
  set direction(d: TransceiverDirection) {
    if (d === this.dir) return;
    this.dir = d;
    this.changed();
  }
}

/** Links fake peers by ufrag, and says whether connectivity checks succeed. */
export class FakeNetwork {
  readonly peers = new Map<string, FakePeer>();
  /** When false, tests drive ICE states by hand with setIceState. */
  autoConnect = true;
  platform(options: { restartIce?: boolean; dtmf?: boolean } = {}): FakePlatform {
    return new FakePlatform(this, options);
  }
}

export class FakePeer implements PeerConnection {
  readonly ufrag = nextId("ufrag");
  signalingState: SignalingState = "stable";
  iceConnectionState: IceConnectionState = "new";
  iceGatheringState: IceGatheringState = "new";
  localDescription: SessionDescription | null = null;
  remoteDescription: SessionDescription | null = null;
  readonly transceivers: FakeTransceiver[] = [];
  readonly remoteCandidates: IceCandidate[] = [];
  readonly remoteStreams = new Map<string, FakeStream>();
  closed = false;
  restarts = 0;
  partner: FakePeer | undefined;
  restartIce?: () => void;
  private negotiationQueued = false;
  private restartPending = false;

  constructor(
    readonly network: FakeNetwork,
    readonly config: PeerConnectionConfig,
    readonly handlers: PeerConnectionHandlers,
    private readonly dtmf: boolean,
    restartSupported: boolean,
  ) {
    network.peers.set(this.ufrag, this);
    if (restartSupported)
      this.restartIce = () => {
        this.restarts += 1;
        this.restartPending = true;
        this.needNegotiation();
      };
  }

  private sdp(type: "offer" | "answer", media: FakeMLine[]): SessionDescription {
    const body: FakeSdp = { ufrag: this.ufrag, media, ...(this.restartPending ? { restart: true } : {}) };
    return { type, sdp: JSON.stringify(body) };
  }

  private lines(): FakeMLine[] {
    return this.transceivers.map((t) => ({
      mid: t.mid,
      kind: t.sender.track?.kind ?? t.receiver.track.kind,
      direction: t.direction,
      streamIds: t.sender.track ? t.streamIds : [],
    }));
  }

  createOffer(options?: { iceRestart?: boolean }): Promise<SessionDescription> {
    if (options?.iceRestart) this.restartPending = true;
    return Promise.resolve(this.sdp("offer", this.lines()));
  }

  createAnswer(): Promise<SessionDescription> {
    if (this.signalingState !== "have-remote-offer")
      return Promise.reject(new Error("InvalidStateError: no remote offer"));
    const remote = JSON.parse(this.remoteDescription?.sdp ?? "{}") as FakeSdp;
    const media = remote.media.map((m) => {
      const t = this.transceivers.find((x) => x.mid === m.mid);
      const direction = t ? intersect(t.direction, reverse(m.direction)) : "inactive";
      return { mid: m.mid, kind: m.kind, direction, streamIds: t?.sender.track ? t.streamIds : [] };
    });
    return Promise.resolve(this.sdp("answer", media));
  }

  async setLocalDescription(description?: SessionDescription): Promise<void> {
    if (this.closed) throw new Error("closed");
    if (description?.type === "rollback") {
      this.signalingState = "stable";
      return;
    }
    const d =
      description ??
      (this.signalingState === "have-remote-offer" ? await this.createAnswer() : await this.createOffer());
    this.localDescription = d;
    if (d.type === "offer") this.signalingState = "have-local-offer";
    else {
      this.signalingState = "stable";
      const body = JSON.parse(d.sdp ?? "{}") as FakeSdp;
      for (const m of body.media) {
        const t = this.transceivers.find((x) => x.mid === m.mid);
        if (t) t.currentDirection = m.direction;
      }
      this.afterStable();
    }
    this.gather();
  }

  async setRemoteDescription(description: SessionDescription): Promise<void> {
    if (this.closed) throw new Error("closed");
    if (description.type === "offer" && this.signalingState === "have-local-offer")
      throw new Error("InvalidStateError: glare without rollback");
    const body = JSON.parse(description.sdp ?? "{}") as FakeSdp;
    this.partner = this.network.peers.get(body.ufrag);
    this.remoteDescription = description;
    for (const m of body.media) {
      let t = this.transceivers.find((x) => x.mid === m.mid);
      if (!t) {
        t = this.newTransceiver(m.mid, null, new FakeTrack(m.kind), "recvonly");
        this.transceivers.push(t);
      }
      if (description.type === "answer") t.currentDirection = reverse(m.direction);
      if (sends(m.direction) && !t.firedTrack && m.streamIds[0]) {
        t.firedTrack = true;
        const stream = this.remoteStreams.get(m.streamIds[0]) ?? new FakeStream([], m.streamIds[0]);
        this.remoteStreams.set(stream.id, stream);
        stream.addTrack(t.receiver.track);
        this.handlers.onTrack(t.receiver.track, [stream]);
      }
    }
    this.signalingState = description.type === "offer" ? "have-remote-offer" : "stable";
    if (description.type === "answer") this.afterStable();
    await Promise.resolve();
    this.maybeConnect();
  }

  addIceCandidate(candidate: IceCandidate): Promise<void> {
    this.remoteCandidates.push(candidate);
    this.maybeConnect();
    return Promise.resolve();
  }

  addTrack(track: MediaTrack, ...streams: MediaStream[]): RtpSender {
    const free = this.transceivers.find(
      (t) => t.receiver.track.kind === track.kind && t.sender.track === null,
    );
    if (free) {
      free.sender.track = track;
      free.streamIds = streams.map((s) => s.id);
      free.direction = "sendrecv";
      this.needNegotiation();
      return free.sender;
    }
    const sender = new FakeSender(track, track.kind === "audio" && this.dtmf ? new FakeDtmf() : null);
    const t = this.newTransceiver(
      String(this.transceivers.length),
      sender,
      new FakeTrack(track.kind),
      "sendrecv",
    );
    t.streamIds = streams.map((s) => s.id);
    this.transceivers.push(t);
    this.needNegotiation();
    return sender;
  }

  addTransceiver(kind: "audio" | "video", init?: { direction?: TransceiverDirection }): Transceiver {
    const t = this.newTransceiver(
      String(this.transceivers.length),
      null,
      new FakeTrack(kind),
      init?.direction ?? "sendrecv",
    );
    this.transceivers.push(t);
    this.needNegotiation();
    return t;
  }

  removeTrack(sender: RtpSender): void {
    const t = this.transceivers.find((x) => x.sender === sender);
    if (!t) return;
    t.sender.track = null;
    t.direction = "recvonly";
  }

  getTransceivers(): Transceiver[] {
    return [...this.transceivers];
  }

  getStats(): Promise<StatsEntry[]> {
    return Promise.resolve([
      { id: "pair", type: "candidate-pair", state: "succeeded", currentRoundTripTime: 0.02, nominated: true },
      {
        id: "in",
        type: "inbound-rtp",
        kind: "audio",
        bytesReceived: 1000,
        packetsReceived: 10,
        packetsLost: 1,
        jitter: 0.001,
      },
      { id: "out", type: "outbound-rtp", kind: "audio", bytesSent: 2000, packetsSent: 20 },
    ]);
  }

  close(): void {
    this.closed = true;
    this.signalingState = "closed";
    this.iceConnectionState = "closed";
  }

  /** Sets the ICE connection state and reports it, as the browser would. */
  setIceState(state: IceConnectionState): void {
    if (this.closed) return;
    this.iceConnectionState = state;
    this.handlers.onIceConnectionStateChange(state);
  }

  private newTransceiver(
    mid: string,
    sender: FakeSender | null,
    receiverTrack: FakeTrack,
    direction: TransceiverDirection,
  ): FakeTransceiver {
    return new FakeTransceiver(
      mid,
      sender ?? new FakeSender(null, receiverTrack.kind === "audio" && this.dtmf ? new FakeDtmf() : null),
      { track: receiverTrack },
      direction,
      () => this.needNegotiation(),
    );
  }

  private needNegotiation(): void {
    if (this.negotiationQueued || this.closed) return;
    this.negotiationQueued = true;
    queueMicrotask(() => {
      this.negotiationQueued = false;
      if (this.signalingState === "stable" && !this.closed) this.handlers.onNegotiationNeeded();
    });
  }

  private afterStable(): void {
    if (this.restartPending) {
      this.restartPending = false;
      if (this.iceConnectionState !== "connected") this.remoteCandidates.length = 0;
    }
  }

  private gather(): void {
    if (this.iceGatheringState === "complete") return;
    this.iceGatheringState = "gathering";
    const urls = this.config.iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]));
    const relayOnly = this.config.iceTransportPolicy === "relay";
    const types: string[] = [];
    if (!relayOnly) types.push("host");
    if (!relayOnly && urls.some((u) => u.startsWith("stun:") || u.startsWith("turn:"))) types.push("srflx");
    if (urls.some((u) => u.startsWith("turn:") || u.startsWith("turns:"))) types.push("relay");
    queueMicrotask(() => {
      if (this.closed) return;
      types.forEach((type, i) =>
        this.handlers.onIceCandidate({
          candidate: `candidate:${i} 1 udp 1 10.0.0.${i} 5000 typ ${type}`,
          sdpMid: "0",
          sdpMLineIndex: 0,
        }),
      );
      this.iceGatheringState = "complete";
      this.handlers.onIceGatheringStateChange?.("complete");
      this.handlers.onIceCandidate(null);
    });
  }

  private maybeConnect(): void {
    const other = this.partner;
    if (!this.network.autoConnect || !other || this.closed || other.closed) return;
    if (this.signalingState !== "stable" || !this.remoteDescription || this.remoteCandidates.length === 0)
      return;
    if (this.iceConnectionState === "connected") return;
    queueMicrotask(() => {
      this.setIceState("checking");
      this.setIceState("connected");
    });
  }
}

export class FakePlatform implements MediaPlatform {
  readonly mediaDevices = new FakeMediaDevices();
  readonly peers: FakePeer[] = [];
  readonly analysers: FakeAnalyser[] = [];
  /** The loudest bin of every analyser, in dB. */
  level = -100;
  failCreatePeer: Error | undefined;
  fftSizes: number[] = [];

  constructor(
    readonly network: FakeNetwork,
    private readonly options: { restartIce?: boolean; dtmf?: boolean },
  ) {}

  createPeerConnection(config: PeerConnectionConfig, handlers: PeerConnectionHandlers): PeerConnection {
    if (this.failCreatePeer) throw this.failCreatePeer;
    const peer = new FakePeer(
      this.network,
      config,
      handlers,
      this.options.dtmf ?? true,
      this.options.restartIce ?? true,
    );
    this.peers.push(peer);
    return peer;
  }

  createAudioAnalyser(_stream: MediaStream, options: { fftSize: number }): AudioAnalyser {
    this.fftSizes.push(options.fftSize);
    const analyser = new FakeAnalyser(options.fftSize, () => this.level);
    this.analysers.push(analyser);
    return analyser;
  }

  /** The newest peer connection. */
  get peer(): FakePeer {
    const peer = this.peers[this.peers.length - 1];
    if (!peer) throw new Error("no peer connection yet");
    return peer;
  }
}
