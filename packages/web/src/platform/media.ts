/**
 * The browser's MediaPlatform for the SDK's calls: peer connections
 * (peer.ts), getUserMedia with the user's chosen devices and their echo
 * cancellation and noise suppression choice, getDisplayMedia, the device
 * list with its changes, a Web Audio analyser for speaking detection, and
 * setSinkId for the chosen speaker. A thin adapter: what to capture and
 * when is the SDK's call logic, which devices to prefer is the settings
 * view model's; this file only applies them.
 */
import type {
  AudioAnalyser,
  MediaConstraints,
  MediaDeviceInfo as SdkDeviceInfo,
  MediaDevices as SdkDevices,
  MediaPlatform,
  MediaStream as SdkStream,
} from "../sdk";
import { createBrowserPeerConnection, domStream, sdkStream } from "./peer";
import type { PeerConnectionConstructor } from "./peer";

/** The capture choices the user made in Settings › Voice & video. */
interface MediaPreferences {
  microphoneId?: string | undefined;
  cameraId?: string | undefined;
  echoCancellation: boolean;
  noiseSuppression: boolean;
}

/** The parts of a window the platform uses (a test may hand in its own). */
interface MediaScope {
  RTCPeerConnection?: PeerConnectionConstructor;
  navigator?: { mediaDevices?: globalThis.MediaDevices };
  AudioContext?: typeof AudioContext;
}

export interface BrowserMediaPlatformOptions {
  scope?: MediaScope;
  /** Read at each capture, so a settings change applies to the next call or device switch. */
  preferences?: () => MediaPreferences;
}

/** The MediaPlatform plus what the app's views need beyond the SDK (devices, speakers). */
export interface BrowserMediaPlatform extends MediaPlatform {
  /** Whether this browser can make calls at all (peer connection and capture). */
  readonly supported: boolean;
  /** Calls `listener` when a device is plugged in or out; returns the unsubscribe. */
  onDeviceChange(listener: () => void): () => void;
  /** Plays `element` on the speaker `deviceId` where the browser can choose; false where it cannot. */
  setSinkId(element: HTMLMediaElement, deviceId: string): Promise<boolean>;
  /** Whether speaker choice is available (HTMLMediaElement.setSinkId). */
  readonly canChooseSpeaker: boolean;
}

const DEFAULT_PREFERENCES: MediaPreferences = { echoCancellation: true, noiseSuppression: true };

/** Turns the SDK's audio/video request into browser constraints with the user's choices applied. */
function captureConstraints(request: MediaConstraints, prefs: MediaPreferences): MediaStreamConstraints {
  const audio =
    request.audio === false
      ? false
      : {
          echoCancellation: prefs.echoCancellation,
          noiseSuppression: prefs.noiseSuppression,
          ...(prefs.microphoneId ? { deviceId: { ideal: prefs.microphoneId } } : {}),
          ...(typeof request.audio === "object" ? constraintsOf(request.audio) : {}),
        };
  const video =
    request.video === false
      ? false
      : {
          ...(prefs.cameraId ? { deviceId: { ideal: prefs.cameraId } } : {}),
          ...(typeof request.video === "object" ? constraintsOf(request.video) : {}),
        };
  return { audio, video };
}

function constraintsOf(o: Record<string, unknown>): MediaTrackConstraints {
  const out: MediaTrackConstraints = {};
  for (const [key, value] of Object.entries(o)) {
    if (value === undefined) continue;
    // An explicit device from the SDK is exact: the call asked for that one.
    (out as Record<string, unknown>)[key] = key === "deviceId" ? { exact: value } : value;
  }
  return out;
}

function isDeviceKind(kind: string): kind is SdkDeviceInfo["kind"] {
  return kind === "audioinput" || kind === "audiooutput" || kind === "videoinput";
}

class BrowserDevices implements SdkDevices {
  constructor(
    private readonly devices: globalThis.MediaDevices | undefined,
    private readonly preferences: () => MediaPreferences,
  ) {}

  private get api(): globalThis.MediaDevices {
    if (!this.devices)
      throw new MediaUnavailableError("Media devices are unavailable (a secure context is required)");
    return this.devices;
  }

  async getUserMedia(constraints: MediaConstraints): Promise<SdkStream> {
    return sdkStream(await this.api.getUserMedia(captureConstraints(constraints, this.preferences())));
  }

  async getDisplayMedia(options?: { audio?: boolean }): Promise<SdkStream> {
    return sdkStream(await this.api.getDisplayMedia({ video: true, audio: options?.audio ?? false }));
  }

  async enumerateDevices(): Promise<SdkDeviceInfo[]> {
    const list = await this.api.enumerateDevices();
    const out: SdkDeviceInfo[] = [];
    for (const d of list) {
      if (!isDeviceKind(d.kind)) continue;
      out.push({ deviceId: d.deviceId, kind: d.kind, label: d.label, groupId: d.groupId });
    }
    return out;
  }
}

/** A Web Audio analyser over one stream's audio; disposing closes its context. */
function createAnalyser(Ctx: typeof AudioContext, stream: SdkStream, fftSize: number): AudioAnalyser {
  const context = new Ctx();
  const source = context.createMediaStreamSource(domStream(stream));
  const node = context.createAnalyser();
  node.fftSize = fftSize;
  source.connect(node);
  return {
    frequencyBinCount: node.frequencyBinCount,
    // The DOM typing wants an ArrayBuffer-backed array; the SDK's analyser fills its own.
    getFloatFrequencyData: (into) => node.getFloatFrequencyData(into as Float32Array<ArrayBuffer>),
    dispose: () => {
      source.disconnect();
      void context.close().catch(() => undefined);
    },
  };
}

/** Creates the browser media platform over `options.scope` (the window by default). */
export function createBrowserMediaPlatform(options: BrowserMediaPlatformOptions = {}): BrowserMediaPlatform {
  const scope: MediaScope = options.scope ?? globalThis;
  const preferences = options.preferences ?? (() => DEFAULT_PREFERENCES);
  const devices = scope.navigator?.mediaDevices;
  const Peer = scope.RTCPeerConnection;
  const Ctx = scope.AudioContext;
  const canChooseSpeaker =
    typeof HTMLMediaElement !== "undefined" && "setSinkId" in HTMLMediaElement.prototype;
  const platform: BrowserMediaPlatform = {
    supported: Peer !== undefined && devices !== undefined,
    canChooseSpeaker,
    mediaDevices: new BrowserDevices(devices, preferences),
    createPeerConnection(config, handlers) {
      if (!Peer) throw new MediaUnavailableError("This browser has no RTCPeerConnection");
      return createBrowserPeerConnection(Peer, config, handlers);
    },
    onDeviceChange(listener) {
      if (!devices) return () => undefined;
      devices.addEventListener("devicechange", listener);
      return () => devices.removeEventListener("devicechange", listener);
    },
    async setSinkId(element, deviceId) {
      if (!canChooseSpeaker) return false;
      try {
        await element.setSinkId(deviceId);
        return true;
      } catch {
        return false; // the device went away or permission was refused: the default speaker plays
      }
    },
  };
  if (Ctx) platform.createAudioAnalyser = (stream, o) => createAnalyser(Ctx, stream, o.fftSize);
  return platform;
}

/** The browser cannot give media: no media devices (an insecure context) or no RTCPeerConnection. */
class MediaUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaUnavailableError";
  }
}
