/**
 * A call feed: one local or remote stream with its purpose (m.usermedia or
 * m.screenshare) and mute state, as observable values. Speaking detection
 * samples an audio analyser (size 512) every 200 ms, keeps the last 8
 * loudest-bin volumes and reports speaking when one is above -60 dB
 * (SPEC §9 call feed).
 */
import type { Scheduler } from "../util/scheduler";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import type { AudioAnalyser, MediaPlatform, MediaStream, MediaTrack } from "./platform";
import type { FeedPurpose, StreamMetadata } from "./call/types";
import { OwnedTimers } from "./timers";

export const SPEAKING_THRESHOLD_DB = -60;
export const SPEAKING_SAMPLE_COUNT = 8;
export const SPEAKING_SAMPLE_INTERVAL_MS = 200;
export const ANALYSER_FFT_SIZE = 512;

export interface CallFeedOptions {
  stream: MediaStream;
  userId: string;
  deviceId?: string;
  purpose: FeedPurpose;
  isLocal: boolean;
  /** A local feed stops its tracks when disposed unless they are shared (mesh group calls); default true. */
  ownsTracks?: boolean;
  audioMuted?: boolean;
  videoMuted?: boolean;
  scheduler: Scheduler;
  platform?: MediaPlatform;
}

export interface FeedMuteState {
  audioMuted: boolean;
  videoMuted: boolean;
}

export class CallFeed {
  readonly stream: MediaStream;
  readonly userId: string;
  readonly deviceId: string | undefined;
  readonly purpose: FeedPurpose;
  readonly isLocal: boolean;
  private readonly mute: ObservableValue<FeedMuteState>;
  private readonly speakingValue = new ObservableValue(false);
  private readonly timers: OwnedTimers;
  private analyser: AudioAnalyser | undefined;
  private samples: number[] = new Array<number>(SPEAKING_SAMPLE_COUNT).fill(-Infinity);
  private disposed = false;

  constructor(private readonly options: CallFeedOptions) {
    this.stream = options.stream;
    this.userId = options.userId;
    this.deviceId = options.deviceId;
    this.purpose = options.purpose;
    this.isLocal = options.isLocal;
    this.timers = new OwnedTimers(options.scheduler);
    this.mute = new ObservableValue({
      audioMuted: options.audioMuted ?? options.stream.getAudioTracks().length === 0,
      videoMuted: options.videoMuted ?? options.stream.getVideoTracks().length === 0,
    });
  }

  /** Audio and video mute, as the sender declared it (remote) or as set here (local). */
  get muteState(): ReadonlyObservable<FeedMuteState> {
    return this.mute;
  }

  get speaking(): ReadonlyObservable<boolean> {
    return this.speakingValue;
  }

  get audioMuted(): boolean {
    return this.mute.getSnapshot().audioMuted;
  }

  get videoMuted(): boolean {
    return this.mute.getSnapshot().videoMuted;
  }

  /** Sets the mute state; a local feed enables or disables its tracks to match. */
  setMuted(state: Partial<FeedMuteState>): void {
    const next = { ...this.mute.getSnapshot(), ...state };
    if (this.isLocal) {
      for (const t of this.stream.getAudioTracks()) t.enabled = !next.audioMuted;
      for (const t of this.stream.getVideoTracks()) t.enabled = !next.videoMuted;
    }
    const now = this.mute.getSnapshot();
    if (now.audioMuted !== next.audioMuted || now.videoMuted !== next.videoMuted) this.mute.set(next);
    if (next.audioMuted) this.speakingValue.set(false);
  }

  /** The metadata this feed is announced with. */
  metadata(): StreamMetadata {
    return { purpose: this.purpose, audio_muted: this.audioMuted, video_muted: this.videoMuted };
  }

  /**
   * Swaps `old` for `next` in the stream (a device switch): `next` follows the
   * feed's mute state, and speaking detection restarts on the new audio.
   */
  replaceTrack(old: MediaTrack, next: MediaTrack): void {
    this.stream.removeTrack(old);
    this.stream.addTrack(next);
    if (this.isLocal) next.enabled = next.kind === "audio" ? !this.audioMuted : !this.videoMuted;
    if (next.kind === "audio" && this.analyser) {
      this.stopMeasuring();
      this.measureVolume(true);
    }
  }

  /** Starts speaking detection when the platform has an analyser and the stream has audio. */
  measureVolume(enabled: boolean): void {
    if (!enabled) {
      this.stopMeasuring();
      return;
    }
    const platform = this.options.platform;
    if (
      this.analyser ||
      !platform?.createAudioAnalyser ||
      this.stream.getAudioTracks().length === 0 ||
      this.disposed
    )
      return;
    this.analyser = platform.createAudioAnalyser(this.stream, { fftSize: ANALYSER_FFT_SIZE });
    const spectrum = new Float32Array(this.analyser.frequencyBinCount);
    this.timers.every(SPEAKING_SAMPLE_INTERVAL_MS, () => this.sample(spectrum));
  }

  private sample(spectrum: Float32Array): void {
    if (!this.analyser) return;
    let loudest = -Infinity;
    if (!this.audioMuted) {
      this.analyser.getFloatFrequencyData(spectrum);
      for (const db of spectrum) if (db > loudest) loudest = db;
    }
    this.samples = [...this.samples.slice(1), loudest];
    this.speakingValue.set(this.samples.some((db) => db > SPEAKING_THRESHOLD_DB));
  }

  private stopMeasuring(): void {
    this.timers.clear();
    this.analyser?.dispose();
    this.analyser = undefined;
    this.samples.fill(-Infinity);
    this.speakingValue.set(false);
  }

  /** Stops measuring; a local feed stops its tracks too. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopMeasuring();
    if (this.isLocal && this.options.ownsTracks !== false) for (const t of this.stream.getTracks()) t.stop();
  }
}
