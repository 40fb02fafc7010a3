/**
 * Publishing our tracks is retried: over a fake livekit-client whose
 * publish fails, or never finishes, on the first tries, the connection
 * tries again (backing off), says in words while no media leaves, and
 * ends `published` with the error cleared; when every try fails it says so
 * and stays connected (receiving). A re-join publishes through the same
 * retries, and a stalled try that finishes late is never published twice.
 */
import { describe, expect, it } from "vitest";
import { ObservableValue } from "../../../src/util/observable";
import type { OwnKey, RtcParticipant } from "../../../src/rtc/keys/EncryptionManager";
import type { LiveKitModule, LkParticipant, LkTrackPublication } from "../../../src/rtc/livekit/api";
import { LiveKitConnection, LiveKitConnectionError } from "../../../src/rtc/livekit/connection";
import { PUBLISH_ATTEMPTS, PUBLISH_RETRY_BASE_MS, publishWithRetry } from "../../../src/rtc/livekit/publish";
import type { PublishState } from "../../../src/rtc/livekit/publish";
import type { SfuToken } from "../../../src/rtc/livekit/token";
import type { MediaTrack } from "../../../src/voip/platform";

const track = (kind: "audio" | "video"): MediaTrack => ({
  id: `${kind}-1`,
  kind,
  enabled: true,
  stop: () => {},
});

/** What the next publishTrack calls do, in order; then every call succeeds. */
type Outcome = "fail" | "stall" | "ok";

class PublishRoom {
  static last: PublishRoom | undefined;
  static script: Outcome[] = [];
  readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  readonly tries: string[] = [];
  readonly unpublished: MediaTrack[] = [];
  /** Stalled tries, to finish late by hand. */
  readonly stalled: Array<() => void> = [];
  state = "disconnected";
  readonly remoteParticipants = new Map<string, LkParticipant>();
  readonly publications = new Map<string, LkTrackPublication>();
  readonly localParticipant = {
    identity: "",
    isSpeaking: false,
    connectionQuality: "excellent",
    isEncrypted: true,
    trackPublications: this.publications,
    publishTrack: (t: MediaTrack): Promise<unknown> => {
      const outcome = PublishRoom.script.shift() ?? "ok";
      this.tries.push(`${t.kind}:${outcome}`);
      const publish = (): void => {
        const lkTrack = { kind: t.kind, source: "camera", isMuted: false, mediaStreamTrack: t };
        this.publications.set(`${t.kind}-${this.publications.size}`, { ...lkTrack, track: lkTrack });
      };
      if (outcome === "fail") return Promise.reject(new Error("negotiation timed out"));
      if (outcome === "stall")
        return new Promise((resolve) =>
          this.stalled.push(() => {
            publish();
            resolve(undefined);
          }),
        );
      publish();
      return Promise.resolve();
    },
    unpublishTrack: (t: MediaTrack): Promise<unknown> => {
      this.unpublished.push(t);
      for (const [k, pub] of this.publications)
        if (pub.track?.mediaStreamTrack === t) this.publications.delete(k);
      return Promise.resolve();
    },
  };
  constructor() {
    PublishRoom.last = this;
  }
  on(event: string, listener: (...args: unknown[]) => void): void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
  }
  off(event: string, listener: (...args: unknown[]) => void): void {
    this.listeners.get(event)?.delete(listener);
  }
  emit(event: string): void {
    for (const l of this.listeners.get(event) ?? []) l();
  }
  connect(): Promise<void> {
    this.state = "connected";
    return Promise.resolve();
  }
  disconnect(): Promise<void> {
    this.state = "disconnected";
    return Promise.resolve();
  }
  setE2EEEnabled(): Promise<void> {
    return Promise.resolve();
  }
}

const fakeModule: LiveKitModule = {
  Room: PublishRoom,
  BaseKeyProvider: class {
    onSetEncryptionKey(): void {}
  },
  createKeyMaterialFromBuffer: (buffer) => Promise.resolve(new Uint8Array(buffer)),
};

const token: SfuToken = {
  url: "ws://sfu",
  jwt: "j",
  endpoint: "get_token",
  identity: "me-id",
  room: "R",
  expiresAt: undefined,
};

function setup(script: Outcome[]) {
  PublishRoom.script = [...script];
  const waits: number[] = [];
  const states: PublishState[] = [];
  const errors: Array<string | undefined> = [];
  const connection = new LiveKitConnection({
    focus: { serviceUrl: "https://focus/jwt" },
    token: () => Promise.resolve(token),
    keys: {
      ownKey: new ObservableValue<OwnKey | undefined>({ index: 0, key: new Uint8Array(16) }),
      participants: new ObservableValue<readonly RtcParticipant[]>([]),
    },
    e2eeWorker: () => "worker",
    tracks: () => Promise.resolve([track("audio"), track("video")]),
    load: () => Promise.resolve(fakeModule),
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    publishTimeoutMs: 30,
  });
  connection.publishing.subscribe((s) => states.push(s));
  connection.error.subscribe((e) => errors.push(e?.message));
  return { connection, waits, states, errors };
}

const WORDS = "Your audio and video could not be sent to the call's media server (https://focus/jwt)";

describe("publishing our tracks, retried", () => {
  it("a publish that fails first is tried again after 1 s; the failure is said meanwhile and cleared", async () => {
    const { connection, waits, states, errors } = setup(["fail"]);
    await connection.connect();
    const room = PublishRoom.last as PublishRoom;
    expect(room.tries).toEqual(["audio:fail", "audio:ok", "video:ok"]);
    expect(waits).toEqual([PUBLISH_RETRY_BASE_MS]);
    expect(states).toEqual(["publishing", "retrying", "published"]);
    expect(errors).toEqual([WORDS, undefined]);
    expect(connection.status.getSnapshot()).toBe("connected");
    expect(connection.publishing.getSnapshot()).toBe("published");
    expect(connection.error.getSnapshot()).toBeUndefined();
    expect(room.publications.size).toBe(2);
    await connection.disconnect();
    expect(connection.publishing.getSnapshot()).toBe("idle");
  });

  it("a publish that never finishes counts as stalled and is tried again; a late finish is not published twice", async () => {
    const { connection, states } = setup(["stall"]);
    await connection.connect();
    const room = PublishRoom.last as PublishRoom;
    expect(room.tries).toEqual(["audio:stall", "audio:ok", "video:ok"]);
    expect(states).toEqual(["publishing", "retrying", "published"]);
    // The stalled try's half (nothing yet) was taken down before the retry.
    expect(room.unpublished.map((t) => t.kind)).toEqual(["audio"]);

    // A track whose stalled try finishes while the next waits is kept as it is.
    const local = room.localParticipant;
    PublishRoom.script = ["stall"];
    const mic = track("audio");
    const outcome = await publishWithRetry(
      local,
      mic,
      {},
      {
        sleep: () => {
          room.stalled.at(-1)?.();
          return Promise.resolve();
        },
        timeoutMs: 10,
        current: () => true,
        onRetry: () => {},
      },
    );
    expect(outcome.published).toBe(true);
    expect(room.tries.slice(3)).toEqual(["audio:stall"]);
    await connection.disconnect();
  });

  it("every try failing says so in words, stays connected and receiving; a re-join publishes again", async () => {
    const { connection, waits, states } = setup(Array<Outcome>(PUBLISH_ATTEMPTS).fill("fail"));
    await connection.connect();
    const room = PublishRoom.last as PublishRoom;
    expect(room.tries.filter((t) => t.startsWith("audio"))).toHaveLength(PUBLISH_ATTEMPTS);
    // Backing off 1, 2, 4, 8 s (bounded).
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(states.at(-1)).toBe("failed");
    const error = connection.error.getSnapshot();
    expect(error).toBeInstanceOf(LiveKitConnectionError);
    expect(error?.message).toBe(WORDS);
    expect((error as LiveKitConnectionError).code).toBe("publish_failed");
    expect(connection.status.getSnapshot()).toBe("connected");
    // The video track was still published: only the microphone is missing.
    expect(room.tries.at(-1)).toBe("video:ok");

    // The SFU drops us; the re-join publishes both tracks (they now go through).
    room.emit("disconnected");
    for (let i = 0; i < 50 && connection.publishing.getSnapshot() !== "published"; i++)
      await new Promise((r) => setTimeout(r, 1));
    expect(connection.publishing.getSnapshot()).toBe("published");
    expect(connection.error.getSnapshot()).toBeUndefined();
    await connection.disconnect();
  });

  it("a watch-only connection publishes nothing and stays idle", async () => {
    PublishRoom.script = [];
    const connection = new LiveKitConnection({
      focus: { serviceUrl: "https://other/jwt" },
      token: () => Promise.resolve(token),
      keys: {
        ownKey: new ObservableValue<OwnKey | undefined>(undefined),
        participants: new ObservableValue<readonly RtcParticipant[]>([]),
      },
      e2eeWorker: () => "worker",
      load: () => Promise.resolve(fakeModule),
    });
    await connection.connect();
    expect((PublishRoom.last as PublishRoom).tries).toEqual([]);
    expect(connection.publishing.getSnapshot()).toBe("idle");
    await connection.disconnect();
  });
});
