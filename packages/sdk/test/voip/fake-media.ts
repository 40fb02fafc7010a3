/**
 * Fake media for the voip tests: tracks, streams, media devices that count
 * what they captured (a leak check), and an audio analyser whose loudest
 * bin is a settable level.
 */
import type {
  AudioAnalyser,
  MediaConstraints,
  MediaDeviceInfo,
  MediaDevices,
  MediaStream,
  MediaTrack,
} from "../../src/voip/platform";

let ids = 0;
export const nextId = (prefix: string): string => `${prefix}${++ids}`;

export class FakeTrack implements MediaTrack {
  readonly id = nextId("track");
  enabled = true;
  stopped = false;
  constructor(readonly kind: "audio" | "video") {}
  stop(): void {
    this.stopped = true;
  }
}

export class FakeStream implements MediaStream {
  private tracks: MediaTrack[];
  constructor(
    tracks: MediaTrack[] = [],
    readonly id = nextId("stream"),
  ) {
    this.tracks = [...tracks];
  }
  getTracks(): MediaTrack[] {
    return [...this.tracks];
  }
  getAudioTracks(): MediaTrack[] {
    return this.tracks.filter((t) => t.kind === "audio");
  }
  getVideoTracks(): MediaTrack[] {
    return this.tracks.filter((t) => t.kind === "video");
  }
  addTrack(track: MediaTrack): void {
    if (!this.tracks.includes(track)) this.tracks.push(track);
  }
  removeTrack(track: MediaTrack): void {
    this.tracks = this.tracks.filter((t) => t !== track);
  }
}

export class FakeMediaDevices implements MediaDevices {
  readonly requests: MediaConstraints[] = [];
  readonly tracks: FakeTrack[] = [];
  failUserMedia: Error | undefined;
  failDisplayMedia: Error | undefined;

  getUserMedia(constraints: MediaConstraints): Promise<MediaStream> {
    this.requests.push(constraints);
    if (this.failUserMedia) return Promise.reject(this.failUserMedia);
    const tracks: FakeTrack[] = [];
    if (constraints.audio) tracks.push(new FakeTrack("audio"));
    if (constraints.video) tracks.push(new FakeTrack("video"));
    this.tracks.push(...tracks);
    return Promise.resolve(new FakeStream(tracks));
  }
  getDisplayMedia(): Promise<MediaStream> {
    if (this.failDisplayMedia) return Promise.reject(this.failDisplayMedia);
    const track = new FakeTrack("video");
    this.tracks.push(track);
    return Promise.resolve(new FakeStream([track]));
  }
  enumerateDevices(): Promise<MediaDeviceInfo[]> {
    return Promise.resolve([
      { deviceId: "mic", kind: "audioinput", label: "Fake microphone" },
      { deviceId: "cam", kind: "videoinput", label: "Fake camera" },
      { deviceId: "spk", kind: "audiooutput", label: "Fake speaker" },
    ]);
  }
  /** Tracks captured and not stopped (a leak check). */
  live(): FakeTrack[] {
    return this.tracks.filter((t) => !t.stopped);
  }
}

export class FakeAnalyser implements AudioAnalyser {
  readonly frequencyBinCount: number;
  disposed = false;
  constructor(
    fftSize: number,
    private readonly level: () => number,
  ) {
    this.frequencyBinCount = fftSize / 2;
  }
  getFloatFrequencyData(into: Float32Array): void {
    into.fill(-100);
    into[3] = this.level();
  }
  dispose(): void {
    this.disposed = true;
  }
}
