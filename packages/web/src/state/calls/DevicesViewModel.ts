/**
 * The media devices of Settings › Voice & video and the call view's device
 * pickers: microphones, cameras and speakers (refreshed when one is
 * plugged in or out), the chosen one of each (CallSettings), and a device
 * test: a live camera preview and a microphone level meter (0..1, from the
 * platform's audio analyser) that run until stopped.
 */
import type { BrowserMediaPlatform } from "../../platform";
import { domStream } from "../../platform";
import { ObservableValue } from "../observables";
import { Scope } from "../Scope";
import type { CallPreferences, CallSettings } from "./CallSettings";

export interface DeviceOption {
  id: string;
  label: string;
}

export interface DeviceLists {
  microphones: readonly DeviceOption[];
  cameras: readonly DeviceOption[];
  speakers: readonly DeviceOption[];
}

/** The preference each device kind is stored under. */
export type DeviceKind = "microphone" | "camera" | "speaker";
const PREFERENCE: Record<DeviceKind, keyof CallPreferences> = {
  microphone: "microphoneId",
  camera: "cameraId",
  speaker: "speakerId",
};

/** How often the level meter reads the analyser. */
export const LEVEL_INTERVAL_MS = 100;

export class DevicesViewModel {
  readonly devices = new ObservableValue<DeviceLists>({ microphones: [], cameras: [], speakers: [] });
  /** The device test's stream (camera and microphone), or null when not testing. */
  readonly preview = new ObservableValue<MediaStream | null>(null);
  /** The microphone level of the device test, 0..1. */
  readonly level = new ObservableValue(0);
  readonly previewError = new ObservableValue<string | null>(null);
  private readonly scope = new Scope();
  private testScope: Scope | undefined;

  constructor(
    private readonly platform: BrowserMediaPlatform | undefined,
    readonly settings: CallSettings,
    /** Told of a microphone or camera choice, so a running call switches to it. */
    private readonly onInputChosen?: (kind: "audio" | "video", id: string | undefined) => void,
  ) {
    if (platform) this.scope.add(platform.onDeviceChange(() => void this.refresh()));
    this.scope.add(() => this.stopPreview());
  }

  get canChooseSpeaker(): boolean {
    return this.platform?.canChooseSpeaker ?? false;
  }

  /** Reads the device list again (labels appear once capture was allowed). */
  async refresh(): Promise<void> {
    if (!this.platform) return;
    try {
      const list = await this.platform.mediaDevices.enumerateDevices();
      const of = (kind: string): DeviceOption[] =>
        list
          .filter((d) => d.kind === kind && d.deviceId !== "")
          .map((d) => ({ id: d.deviceId, label: d.label }));
      this.devices.set({
        microphones: of("audioinput"),
        cameras: of("videoinput"),
        speakers: of("audiooutput"),
      });
    } catch {
      // No device access: the lists stay empty and the system default is used.
    }
  }

  /** Chooses a device (undefined: the system default); a running test restarts with it. */
  choose(kind: DeviceKind, id: string | undefined): void {
    this.settings.update({ [PREFERENCE[kind]]: id });
    if (kind !== "speaker") this.onInputChosen?.(kind === "microphone" ? "audio" : "video", id);
    if (kind !== "speaker" && this.preview.getSnapshot() !== null) void this.startPreview();
  }

  /** Changes echo cancellation or noise suppression; a running test restarts with it. */
  setProcessing(change: Partial<Pick<CallPreferences, "echoCancellation" | "noiseSuppression">>): void {
    this.settings.update(change);
    if (this.preview.getSnapshot() !== null) void this.startPreview();
  }

  /** Opens the chosen camera and microphone for the preview and the level meter. */
  async startPreview(): Promise<void> {
    this.stopPreview();
    if (!this.platform) return;
    const scope = this.scope.child();
    this.testScope = scope;
    this.previewError.set(null);
    try {
      const stream = await this.platform.mediaDevices.getUserMedia({ audio: true, video: true });
      if (scope.ended) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      scope.add(() => {
        for (const track of stream.getTracks()) track.stop();
      });
      this.preview.set(domStream(stream));
      const analyser = this.platform.createAudioAnalyser?.(stream, { fftSize: 512 });
      if (analyser) {
        scope.add(() => analyser.dispose());
        const bins = new Float32Array(analyser.frequencyBinCount);
        const timer = setInterval(() => {
          analyser.getFloatFrequencyData(bins);
          let peak = -Infinity;
          for (const v of bins) if (v > peak) peak = v;
          // -100 dB (silence) .. -30 dB (loud speech) mapped to 0..1.
          this.level.set(Number.isFinite(peak) ? Math.min(1, Math.max(0, (peak + 100) / 70)) : 0);
        }, LEVEL_INTERVAL_MS);
        scope.add(() => clearInterval(timer));
      }
      await this.refresh();
    } catch (e) {
      this.previewError.set(e instanceof Error ? e.message : String(e));
      this.stopPreview();
    }
  }

  stopPreview(): void {
    this.testScope?.end();
    this.testScope = undefined;
    this.preview.set(null);
    this.level.set(0);
  }

  /** Plays `element` on the chosen speaker, where the browser can choose. */
  routeAudio(element: HTMLMediaElement): void {
    const id = this.settings.current.speakerId;
    if (this.platform && id !== undefined) void this.platform.setSinkId(element, id);
  }

  dispose(): void {
    this.scope.end();
  }
}
