/**
 * What a call tile shows of one stream: whose it is, local or remote,
 * camera or screen, the DOM stream to play, and its mute and speaking
 * state as observables. Built from the SDK's CallFeed; the view never sees
 * the SDK type.
 */
import { domStream } from "../../platform/peer";
import type { CallFeed } from "../../sdk";
import type { Subscribable } from "../useObservable";
import type { TileReactions } from "./reactions";

export interface FeedMute {
  audioMuted: boolean;
  videoMuted: boolean;
}

/** Whether a tile's media can be read (LiveKit calls): its key has come, or not yet, or it does not decrypt. */
export type TileEncryption = "encrypted" | "waiting_for_keys" | "decryption_failed" | "unencrypted";

export interface FeedView {
  /** Stable per stream and purpose: a React key. */
  readonly key: string;
  readonly userId: string;
  readonly isLocal: boolean;
  readonly purpose: "m.usermedia" | "m.screenshare";
  /** The stream a <video> or <audio> element plays. */
  readonly stream: MediaStream;
  readonly mute: Subscribable<FeedMute>;
  readonly speaking: Subscribable<boolean>;
  /** End-to-end media encryption per participant (LiveKit calls; absent for peer-to-peer calls). */
  readonly encryption?: Subscribable<TileEncryption>;
  /** The index of the media key in use (LiveKit calls): a rotation raises it. Shown to tests and bug reports only. */
  readonly keyIndex?: Subscribable<number | undefined>;
  /** The member's raised hand and reaction (LiveKit calls, camera tiles). */
  readonly reactions?: TileReactions;
}

const views = new WeakMap<CallFeed, FeedView>();

/** The view of `feed` (one per feed, so React keys and subscriptions stay stable); starts its speaking detection. */
export function feedView(feed: CallFeed): FeedView {
  let view = views.get(feed);
  if (view === undefined) {
    feed.measureVolume(true);
    view = {
      key: `${feed.isLocal ? "local" : "remote"}:${feed.userId}:${feed.deviceId ?? ""}:${feed.stream.id}:${feed.purpose}`,
      userId: feed.userId,
      isLocal: feed.isLocal,
      purpose: feed.purpose,
      stream: domStream(feed.stream),
      mute: feed.muteState,
      speaking: feed.speaking,
    };
    views.set(feed, view);
  }
  return view;
}
