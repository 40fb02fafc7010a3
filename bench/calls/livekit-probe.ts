/**
 * What the LiveKit call bench puts into every frame of every page (the
 * app's and Element Call's iframe alike, as a context init script), and
 * how it reads it back:
 *   - every click, with the event's own timestamp (the hardware input
 *     time, not when the runner asked), and what it hit;
 *   - which video tracks are remote: RTCPeerConnection is replaced by a
 *     subclass that notes each `track` event's track before the page's own
 *     listeners see it (a remote track cannot be told from a camera track by
 *     its settings: both carry a deviceId);
 *   - for each <video> showing a remote track, the first frame presented
 *     (requestVideoFrameCallback's presentationTime), with a 20 ms poll of
 *     its decoded-frame count as a fallback should the callback not fire;
 *   - the remote videos' sizes and decoded-frame counts, for the CPU window.
 * All times are epoch ms (performance.timeOrigin + the frame's clock), so
 * frames of different origins compare.
 * And the main thread's CPU: Chrome DevTools' Performance domain with
 * timeDomain "threadTicks", on the page and on any out-of-process frame.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { addRates, cpuRate, metricMap } from "./livekit-stats";
import type { ClickRecord, CpuRate, FrameRecord, MetricMap } from "./livekit-stats";

/** A remote video as the probe sees it. */
export interface RemoteVideo {
  width: number;
  height: number;
  /** Frames decoded so far (getVideoPlaybackQuality().totalVideoFrames). */
  frames: number;
  /** Local frames are the camera preview: false here by construction. */
  playing: boolean;
}

interface ProbeState {
  clicks: ClickRecord[];
  frames: FrameRecord[];
  remoteVideos(): RemoteVideo[];
  localPlaying(): boolean;
}

declare global {
  interface Window {
    __latticeBench?: ProbeState;
  }
}

/** The init script (runs in every frame before its own scripts). */
function probe(): void {
  if (window.__latticeBench !== undefined) return;
  const remote = new WeakSet<MediaStreamTrack>();
  const Native = window.RTCPeerConnection;
  if (typeof Native === "function") {
    class ProbedPeerConnection extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        this.addEventListener("track", (e) => remote.add(e.track));
      }
    }
    window.RTCPeerConnection = ProbedPeerConnection;
  }
  const epoch = (t: number): number => performance.timeOrigin + t;
  const state: ProbeState = {
    clicks: [],
    frames: [],
    remoteVideos: () =>
      videos()
        .filter((v) => remoteTrack(v) !== null)
        .map((v) => ({
          width: v.videoWidth,
          height: v.videoHeight,
          frames: v.getVideoPlaybackQuality().totalVideoFrames,
          playing: !v.paused && v.videoWidth > 0,
        })),
    localPlaying: () =>
      videos().some((v) => {
        const s = v.srcObject;
        return (
          s instanceof MediaStream &&
          s.getVideoTracks().some((t) => !remote.has(t) && t.readyState === "live") &&
          v.getVideoPlaybackQuality().totalVideoFrames > 0
        );
      }),
  };
  window.__latticeBench = state;
  const videos = (): HTMLVideoElement[] => [...document.querySelectorAll("video")];
  const remoteTrack = (v: HTMLVideoElement): MediaStreamTrack | null => {
    const s = v.srcObject;
    if (!(s instanceof MediaStream)) return null;
    return s.getVideoTracks().find((t) => remote.has(t)) ?? null;
  };
  window.addEventListener(
    "click",
    (e) => {
      const el = e.target instanceof Element ? e.target : null;
      state.clicks.push({
        at: epoch(e.timeStamp),
        testid: el?.closest("[data-testid]")?.getAttribute("data-testid") ?? "",
        text: (el?.closest("button")?.textContent ?? "").trim().slice(0, 40),
      });
    },
    true,
  );
  // Each (video, track) pair reports its first presented frame once.
  const watched = new WeakMap<HTMLVideoElement, MediaStreamTrack>();
  const polled = new WeakSet<MediaStreamTrack>();
  setInterval(() => {
    for (const v of videos()) {
      const track = remoteTrack(v);
      if (track === null) continue;
      if (watched.get(v) !== track) {
        watched.set(v, track);
        v.requestVideoFrameCallback((_now, meta) => {
          state.frames.push({ at: epoch(meta.presentationTime), via: "rvfc" });
        });
      }
      if (!polled.has(track) && v.getVideoPlaybackQuality().totalVideoFrames > 0) {
        polled.add(track);
        state.frames.push({ at: epoch(performance.now()), via: "poll" });
      }
    }
  }, 20);
}

/** Puts the probe into every page and frame of `context`. */
export async function installProbe(context: BrowserContext): Promise<void> {
  // tsx compiles with esbuild's keepNames, whose `__name` helper is not in the page: give the
  // probe's source a local one.
  await context.addInitScript({
    content: `(() => { const __name = (f) => f; (${probe.toString()})(); })();`,
  });
}

/** Every frame's clicks and remote frames on `page`, merged. */
export async function probeRecords(page: Page): Promise<{ clicks: ClickRecord[]; frames: FrameRecord[] }> {
  const clicks: ClickRecord[] = [];
  const frames: FrameRecord[] = [];
  for (const f of page.frames()) {
    const got = await f
      .evaluate(() => ({
        clicks: window.__latticeBench?.clicks ?? [],
        frames: window.__latticeBench?.frames ?? [],
      }))
      .catch(() => ({ clicks: [], frames: [] }));
    clicks.push(...got.clicks);
    frames.push(...got.frames);
  }
  return { clicks, frames };
}

/** The remote videos of every frame of `page`. */
export async function remoteVideos(page: Page): Promise<RemoteVideo[]> {
  const out: RemoteVideo[] = [];
  for (const f of page.frames())
    out.push(...(await f.evaluate(() => window.__latticeBench?.remoteVideos() ?? []).catch(() => [])));
  return out;
}

/** Whether some frame of `page` plays a local camera picture (the lobby's preview). */
export async function localPreviewPlaying(page: Page): Promise<boolean> {
  for (const f of page.frames())
    if (await f.evaluate(() => window.__latticeBench?.localPlaying() ?? false).catch(() => false))
      return true;
  return false;
}

/**
 * One page's main-thread CPU meter: the Performance domain on the page and
 * on each of its out-of-process frames (none when Element Call's origin is
 * same-site with the app's: its frame then runs on the page's main thread
 * and is counted there).
 */
export class CpuMeter {
  private sessions: CDPSession[] = [];
  private before: MetricMap[] = [];
  private started = false;

  constructor(private readonly page: Page) {}

  /** How many targets the last start() measures (1 + out-of-process frames). */
  get targets(): number {
    return this.sessions.length;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("the CPU meter is already running");
    this.started = true;
    const context = this.page.context();
    this.sessions = [await context.newCDPSession(this.page)];
    for (const f of this.page.frames()) {
      if (f === this.page.mainFrame()) continue;
      // Only out-of-process frames are targets of their own; others throw here and are counted
      // in the page's main thread.
      const s = await context.newCDPSession(f).catch(() => null);
      if (s !== null) this.sessions.push(s);
    }
    for (const s of this.sessions) await s.send("Performance.enable", { timeDomain: "threadTicks" });
    this.before = await Promise.all(this.sessions.map(read));
  }

  async stop(): Promise<CpuRate> {
    if (!this.started) throw new Error("the CPU meter was not started");
    const after = await Promise.all(this.sessions.map(read));
    const rates = after.map((a, i) => cpuRate(this.before[i] ?? {}, a));
    for (const s of this.sessions) await s.detach().catch(() => undefined);
    this.started = false;
    return addRates(rates);
  }
}

async function read(session: CDPSession): Promise<MetricMap> {
  const { metrics } = await session.send("Performance.getMetrics");
  return metricMap(metrics);
}
