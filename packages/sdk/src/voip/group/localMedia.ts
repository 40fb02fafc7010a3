/**
 * The local media a mesh group call shares across its 1:1 calls: one
 * camera stream and, while sharing, one screen stream, both captured once
 * and sent to every peer. A device switch swaps the new track onto every
 * call's sender (replaceTrack, no renegotiation); a screen share is added
 * to every connected call as a second stream (purpose m.screenshare,
 * renegotiated), and to each call that connects while it runs.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { Call } from "../call/Call";
import { captureInputTrack, inputTrack } from "../devices";
import type { InputKind } from "../devices";
import { CallFeed } from "../feed";
import type { MediaPlatform } from "../platform";

export interface GroupLocalMediaOptions {
  userId: string;
  deviceId: string;
  platform: MediaPlatform;
  scheduler: Scheduler;
  /** The group's current 1:1 calls. */
  calls: () => Iterable<Call>;
}

export class GroupLocalMedia {
  private readonly screen = new ObservableValue<CallFeed | undefined>(undefined);

  constructor(private readonly options: GroupLocalMediaOptions) {}

  /** Our screen-share feed while sharing. */
  get screenshareFeed(): ReadonlyObservable<CallFeed | undefined> {
    return this.screen;
  }

  /** The feed purposes our member state announces. */
  purposes(): string[] {
    return this.screen.getSnapshot() ? ["m.usermedia", "m.screenshare"] : ["m.usermedia"];
  }

  /** Switches `feed`'s microphone or camera on every call's sender (replaceTrack). */
  async switchInput(
    feed: CallFeed | undefined,
    current: () => CallFeed | undefined,
    kind: InputKind,
    deviceId: string | undefined,
  ): Promise<void> {
    const old = feed && inputTrack(feed.stream, kind);
    if (!feed || !old) return;
    const next = await captureInputTrack(this.options.platform, kind, deviceId);
    if (current() !== feed || !feed.stream.getTracks().includes(old)) {
      next.stop();
      return;
    }
    feed.replaceTrack(old, next);
    await Promise.all([...this.options.calls()].map((c) => c.media.replaceSenderTrack(old, next)));
    old.stop();
  }

  /**
   * Starts sharing the screen with every connected call (others get it when
   * they connect); false when sharing was already on.
   */
  async startScreenshare(stillWanted: () => boolean): Promise<boolean> {
    if (this.screen.getSnapshot()) return false;
    const { platform, scheduler, userId, deviceId } = this.options;
    const stream = await platform.mediaDevices.getDisplayMedia();
    if (!stillWanted() || this.screen.getSnapshot()) {
      for (const track of stream.getTracks()) track.stop();
      return false;
    }
    const feed = new CallFeed({
      stream,
      userId,
      deviceId,
      purpose: "m.screenshare",
      isLocal: true,
      scheduler,
      platform,
    });
    this.screen.set(feed);
    await Promise.all([...this.options.calls()].map((c) => this.shareWith(c)));
    return true;
  }

  /** Stops sharing: every call drops the stream, then its tracks stop; false when not sharing. */
  async stopScreenshare(): Promise<boolean> {
    const feed = this.screen.getSnapshot();
    if (!feed) return false;
    this.screen.set(undefined);
    await Promise.all(
      [...this.options.calls()].map((c) => c.media.setScreensharing(false).catch(() => undefined)),
    );
    feed.dispose();
    return true;
  }

  /** Adds the running screen share to `call` once it is connected (idempotent). */
  async shareWith(call: Call): Promise<void> {
    const feed = this.screen.getSnapshot();
    if (!feed || call.state.getSnapshot() !== "connected" || !call.canRenegotiate) return;
    await call.media.setScreensharing(true, feed.stream).catch(() => undefined);
  }

  /** Releases the screen share (the group call left). */
  dispose(): void {
    this.screen.getSnapshot()?.dispose();
    this.screen.set(undefined);
  }
}
