/**
 * Checks that media really flows into a page, for the call tests (and the
 * interop page's): a video element is playing, its frames change (two
 * canvas draws differ, and neither is a black frame), and an element's
 * audio stream has energy (a Web Audio AnalyserNode over its srcObject).
 * Each check polls the page until it holds or its deadline passes, and then
 * throws with what it last saw, so a test waits on the outcome, not on time.
 * They take a Locator of the <video> or <audio> element whose `srcObject` is
 * the remote MediaStream; any page works, not only the app's.
 */
import type { Locator } from "playwright-core";

/** What a frame check saw, for the error message. */
export interface VideoSample {
  playing: boolean;
  width: number;
  height: number;
  /** Mean brightness 0..255 of the last frame. */
  brightness: number;
  /** Share of sampled pixels that differed between two frames (0..1). */
  changed: number;
}

async function poll<T>(
  what: string,
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: last saw ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Draws the video twice ~300 ms apart and reports what changed. */
function sampleVideo(video: Locator): Promise<VideoSample> {
  return video.evaluate(async (node) => {
    const el = node as HTMLVideoElement;
    const width = el.videoWidth;
    const height = el.videoHeight;
    const playing = !el.paused && el.readyState >= 2 && width > 0;
    if (!playing) return { playing, width, height, brightness: 0, changed: 0 };
    const canvas = document.createElement("canvas");
    canvas.width = 160;
    canvas.height = 120;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return { playing, width, height, brightness: 0, changed: 0 };
    const grab = (): Uint8ClampedArray => {
      ctx.drawImage(el, 0, 0, canvas.width, canvas.height);
      return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    };
    const first = grab();
    await new Promise((r) => setTimeout(r, 300));
    const second = grab();
    let differing = 0;
    let sum = 0;
    const pixels = second.length / 4;
    for (let i = 0; i < second.length; i += 4) {
      const d =
        Math.abs((first[i] ?? 0) - (second[i] ?? 0)) +
        Math.abs((first[i + 1] ?? 0) - (second[i + 1] ?? 0)) +
        Math.abs((first[i + 2] ?? 0) - (second[i + 2] ?? 0));
      if (d > 24) differing++;
      sum += ((second[i] ?? 0) + (second[i + 1] ?? 0) + (second[i + 2] ?? 0)) / 3;
    }
    return { playing, width, height, brightness: sum / pixels, changed: differing / pixels };
  });
}

/**
 * Waits until the video element plays a moving, non-black picture: frames
 * drawn 300 ms apart differ in some pixels and the picture is not black.
 */
export async function expectVideoFlowing(video: Locator, timeoutMs = 30_000): Promise<VideoSample> {
  return poll(
    "remote video is not playing changing, non-black frames",
    () => sampleVideo(video),
    (s) => s.playing && s.brightness > 8 && s.changed > 0.001,
    timeoutMs,
  );
}

/** What a frame-count check saw, for the error message. */
export interface FrameCount {
  playing: boolean;
  /** Frames the element presented during one second. */
  newFrames: number;
  brightness: number;
}

/**
 * Waits until the video element presents new frames (its playback quality
 * counts at least 5 more in a second) of a non-black picture. For a source
 * whose picture may not move (a still test card), where expectVideoFlowing's
 * pixel comparison cannot tell a live stream from a frozen one.
 */
export async function expectFramesArriving(video: Locator, timeoutMs = 30_000): Promise<FrameCount> {
  return poll(
    "remote video is not receiving new, non-black frames",
    () =>
      video.evaluate(async (node) => {
        const el = node as HTMLVideoElement;
        const playing = !el.paused && el.readyState >= 2 && el.videoWidth > 0;
        const before = el.getVideoPlaybackQuality().totalVideoFrames;
        await new Promise((r) => setTimeout(r, 1000));
        const newFrames = el.getVideoPlaybackQuality().totalVideoFrames - before;
        const canvas = document.createElement("canvas");
        canvas.width = 32;
        canvas.height = 24;
        const ctx = canvas.getContext("2d", { willReadFrequently: true });
        if (!ctx || !playing) return { playing, newFrames, brightness: 0 };
        ctx.drawImage(el, 0, 0, canvas.width, canvas.height);
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let sum = 0;
        for (let i = 0; i < data.length; i += 4)
          sum += ((data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0)) / 3;
        return { playing, newFrames, brightness: sum / (data.length / 4) };
      }),
    (s) => s.playing && s.newFrames >= 5 && s.brightness > 8,
    timeoutMs,
  );
}

/** The loudest spectrum bin (dB) of the element's stream over ~1 s of analysis. */
function sampleAudio(element: Locator): Promise<{ hasStream: boolean; audioTracks: number; peakDb: number }> {
  return element.evaluate(async (node) => {
    const el = node as HTMLMediaElement;
    const stream = el.srcObject instanceof MediaStream ? el.srcObject : null;
    const audioTracks = stream?.getAudioTracks().length ?? 0;
    if (!stream || audioTracks === 0) return { hasStream: stream !== null, audioTracks, peakDb: -Infinity };
    const context = new AudioContext();
    await context.resume();
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    source.connect(analyser);
    const bins = new Float32Array(analyser.frequencyBinCount);
    let peakDb = -Infinity;
    // The fake microphone beeps about once a second: listen across one period.
    for (let i = 0; i < 12; i++) {
      await new Promise((r) => setTimeout(r, 100));
      analyser.getFloatFrequencyData(bins);
      for (const v of bins) if (Number.isFinite(v) && v > peakDb) peakDb = v;
    }
    source.disconnect();
    await context.close();
    return { hasStream: true, audioTracks, peakDb };
  });
}

/**
 * Waits until the element's audio stream has energy: some spectrum bin
 * rises above -60 dB (the SDK's speaking threshold; silence reads -100 dB
 * or lower).
 */
export async function expectAudioEnergy(
  element: Locator,
  timeoutMs = 30_000,
): Promise<{ hasStream: boolean; audioTracks: number; peakDb: number }> {
  return poll(
    "remote audio has no energy",
    () => sampleAudio(element),
    (s) => s.peakDb > -60,
    timeoutMs,
  );
}
