/**
 * The LiveKit connection over a fake livekit-client module: it joins with
 * encryption on and a fresh token, publishes the platform's tracks, feeds
 * keys to the key provider under our token identity, shows participants
 * with their encryption state, joins again with a new token after the SFU
 * drops it, and says in words when it cannot.
 */
import { describe, expect, it } from "vitest";
import { ObservableValue } from "../../../src/util/observable";
import type { OwnKey, ParticipantKeys, RtcParticipant } from "../../../src/rtc/keys/EncryptionManager";
import type {
  LiveKitModule,
  LkParticipant,
  LkRoomOptions,
  LkTrack,
  LkTrackPublication,
} from "../../../src/rtc/livekit/api";
import {
  LiveKitConnection,
  LiveKitConnectionError,
  JOIN_ATTEMPTS,
  RECONNECT_ATTEMPTS,
} from "../../../src/rtc/livekit/connection";
import { SfuTokenError, type SfuToken } from "../../../src/rtc/livekit/token";
import type { MediaTrack } from "../../../src/voip/platform";

const track = (kind: "audio" | "video"): MediaTrack => ({
  id: `${kind}-1`,
  kind,
  enabled: true,
  stop: () => {},
});

class FakeRoom {
  static last: FakeRoom | undefined;
  static failConnect = false;
  /** Connects that fail before the next ones go through (an SFU that does not answer in time). */
  static failNextConnects = 0;
  readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  readonly connects: string[] = [];
  readonly published: MediaTrack[] = [];
  readonly sources: unknown[] = [];
  readonly unpublished: MediaTrack[] = [];
  e2ee = false;
  state = "disconnected";
  readonly remoteParticipants = new Map<string, LkParticipant>();
  readonly localParticipant = {
    identity: "",
    isSpeaking: false,
    connectionQuality: "excellent",
    isEncrypted: true,
    trackPublications: new Map<string, LkTrackPublication>(),
    publishTrack: (t: MediaTrack, options?: Record<string, unknown>) => {
      this.published.push(t);
      this.sources.push(options?.["source"]);
      return Promise.resolve();
    },
    unpublishTrack: (t: MediaTrack) => {
      this.unpublished.push(t);
      return Promise.resolve();
    },
  };
  constructor(readonly options: LkRoomOptions) {
    FakeRoom.last = this;
  }
  on(event: string, listener: (...args: unknown[]) => void): void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
  }
  off(event: string, listener: (...args: unknown[]) => void): void {
    this.listeners.get(event)?.delete(listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  connect(url: string, jwt: string): Promise<void> {
    this.connects.push(`${url} ${jwt}`);
    if (FakeRoom.failConnect) return Promise.reject(new Error("ws failed"));
    if (FakeRoom.failNextConnects > 0) {
      FakeRoom.failNextConnects--;
      return Promise.reject(new Error("could not establish signal connection"));
    }
    this.state = "connected";
    return Promise.resolve();
  }
  disconnect(): Promise<void> {
    this.state = "disconnected";
    return Promise.resolve();
  }
  setE2EEEnabled(on: boolean): Promise<void> {
    this.e2ee = on;
    return Promise.resolve();
  }
}

const keysSet: Array<[string | undefined, number | undefined, number]> = [];
const fakeModule: LiveKitModule = {
  Room: FakeRoom,
  BaseKeyProvider: class {
    onSetEncryptionKey(key: unknown, identity?: string, index?: number): void {
      keysSet.push([identity, index, (key as Uint8Array)[0] ?? -1]);
    }
  },
  createKeyMaterialFromBuffer: (buffer) => Promise.resolve(new Uint8Array(buffer)),
};

function setup(tokens: Array<SfuToken | Error>) {
  const ownKey = new ObservableValue<OwnKey | undefined>({ index: 0, key: new Uint8Array(16).fill(5) });
  const participants = new ObservableValue<readonly RtcParticipant[]>([]);
  let asked = 0;
  const connection = new LiveKitConnection({
    focus: { serviceUrl: "https://focus/jwt" },
    token: () => {
      const next = tokens[Math.min(asked++, tokens.length - 1)] as SfuToken | Error;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    keys: { ownKey, participants },
    e2eeWorker: () => "worker",
    tracks: () => Promise.resolve([track("audio"), track("video")]),
    load: () => Promise.resolve(fakeModule),
    sleep: () => Promise.resolve(),
  });
  return { connection, ownKey, participants, asked: () => asked };
}

const token = (jwt: string): SfuToken => ({
  url: "ws://sfu",
  jwt,
  endpoint: "get_token",
  identity: "me-id",
  room: "R",
  expiresAt: undefined,
});

const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("LiveKitConnection", () => {
  it("joins encrypted, publishes, keys our identity, shows participants waiting for keys then encrypted", async () => {
    keysSet.length = 0;
    FakeRoom.failConnect = false;
    const { connection, participants } = setup([token("j1")]);
    await connection.connect();
    const room = FakeRoom.last as FakeRoom;
    expect(room.e2ee).toBe(true);
    expect(room.options.e2ee?.worker).toBe("worker");
    expect(room.connects).toEqual(["ws://sfu j1"]);
    expect(room.published.map((t) => t.kind)).toEqual(["audio", "video"]);
    // Named as the microphone and the camera: Element Call renders only those sources.
    expect(room.sources).toEqual(["microphone", "camera"]);
    await flush();
    expect(keysSet).toEqual([["me-id", 0, 5]]);
    expect(connection.status.getSnapshot()).toBe("connected");

    room.remoteParticipants.set("bob", {
      identity: "@bob:hs:B",
      isSpeaking: true,
      connectionQuality: "good",
      isEncrypted: true,
      trackPublications: new Map([
        ["v", { kind: "video", source: "camera", isMuted: false, track: undefined }],
      ]),
    });
    room.emit("participantConnected");
    const bob = () => connection.participants.getSnapshot().find((p) => !p.isLocal);
    expect(bob()).toMatchObject({
      identity: "@bob:hs:B",
      speaking: true,
      connectionQuality: "good",
      videoMuted: false,
    });
    expect(bob()?.encryption).toBe("waiting_for_keys");

    const keys = new ObservableValue<ParticipantKeys>({
      latestIndex: 0,
      keys: new Map([[0, new Uint8Array(16).fill(7)]]),
    });
    participants.set([
      {
        userId: "@bob:hs",
        deviceId: "B",
        memberId: "@bob:hs:B",
        identity: "@bob:hs:B",
        membership: {} as RtcParticipant["membership"],
        keys,
      },
    ]);
    await flush();
    await new Promise((r) => setTimeout(r, 10));
    expect(bob()?.encryption).toBe("encrypted");
    room.emit("encryptionError", new Error("decrypt"), { identity: "@bob:hs:B" });
    expect(bob()?.encryption).toBe("decryption_failed");

    // A frame under a key index never given to us (the sender's old key, from before we joined)
    // fails while the frames under its current key decrypt: video frames decoded end the failure.
    let decoded = 0;
    const stats = (): Promise<Map<string, Record<string, unknown>>> =>
      Promise.resolve(new Map([["in", { type: "inbound-rtp", framesDecoded: (decoded += 10) }]]));
    const camera = { kind: "video", source: "camera", isMuted: false, mediaStreamTrack: track("video") };
    (room.remoteParticipants.get("bob")?.trackPublications as Map<string, LkTrackPublication>).set("v", {
      ...camera,
      track: { ...camera, getRTCStatsReport: stats },
    });
    room.emit("encryptionError", new Error("missing key at index 0"), { identity: "@bob:hs:B" });
    expect(bob()?.encryption).toBe("decryption_failed");
    await new Promise((r) => setTimeout(r, 10));
    expect(bob()?.encryption).toBe("encrypted");
    // Frames that stop decoding keep the failure.
    const stalled = (): Promise<Map<string, Record<string, unknown>>> =>
      Promise.resolve(new Map([["in", { type: "inbound-rtp", framesDecoded: 5 }]]));
    (room.remoteParticipants.get("bob")?.trackPublications as Map<string, LkTrackPublication>).set("v", {
      ...camera,
      track: { ...camera, getRTCStatsReport: stalled },
    });
    room.emit("encryptionError", new Error("invalid key"), { identity: "@bob:hs:B" });
    await new Promise((r) => setTimeout(r, 10));
    expect(bob()?.encryption).toBe("decryption_failed");
    await connection.disconnect();
    expect(connection.status.getSnapshot()).toBe("disconnected");
  });

  it("shares a screen as the screen_share sources, republishes it after a re-join, shows others' screens apart", async () => {
    FakeRoom.failConnect = false;
    const { connection } = setup([token("j1"), token("j2")]);
    await connection.connect();
    const room = FakeRoom.last as FakeRoom;
    const screen = [track("video"), track("audio")];
    await connection.publishScreen(screen);
    expect(room.sources.slice(2)).toEqual(["screen_share", "screen_share_audio"]);
    room.emit("disconnected");
    await flush();
    await new Promise((r) => setTimeout(r, 10));
    // Camera, microphone and both screen tracks again on the new join.
    expect(room.published.slice(4)).toEqual([...room.published.slice(0, 2), ...screen]);
    await connection.unpublishScreen();
    expect(room.unpublished).toEqual(screen);

    const camera = { id: "cam", kind: "video", enabled: true, stop: () => {} } as MediaTrack;
    const shown = { id: "scr", kind: "video", enabled: true, stop: () => {} } as MediaTrack;
    room.remoteParticipants.set("carol", {
      identity: "@carol:hs:C",
      isSpeaking: false,
      connectionQuality: "good",
      isEncrypted: true,
      trackPublications: new Map<string, LkTrackPublication>([
        [
          "c",
          { kind: "video", source: "camera", isMuted: false, track: { mediaStreamTrack: camera } as LkTrack },
        ],
        [
          "s",
          {
            kind: "video",
            source: "screen_share",
            isMuted: false,
            track: { mediaStreamTrack: shown } as LkTrack,
          },
        ],
      ]),
    });
    room.emit("participantConnected");
    const carol = connection.participants.getSnapshot().find((p) => !p.isLocal);
    expect(carol?.video).toBe(camera);
    expect(carol?.screen).toBe(shown);
    // Carol stops sharing: livekit-client fires trackUnsubscribed while the publication still
    // holds its track, and trackUnpublished once it has left the list; her screen goes then.
    const carolPubs = room.remoteParticipants.get("carol")?.trackPublications as Map<
      string,
      LkTrackPublication
    >;
    room.emit("trackUnsubscribed");
    expect(connection.participants.getSnapshot().find((p) => !p.isLocal)?.screen).toBe(shown);
    carolPubs.delete("s");
    room.emit("trackUnpublished");
    const after = connection.participants.getSnapshot().find((p) => !p.isLocal);
    expect(after?.screen).toBeUndefined();
    expect(after?.video).toBe(camera);
    await connection.disconnect();
  });

  it("joins again with a new token after the SFU drops it, and republishes", async () => {
    FakeRoom.failConnect = false;
    const { connection, asked } = setup([token("j1"), token("j2")]);
    await connection.connect();
    const room = FakeRoom.last as FakeRoom;
    room.emit("reconnecting");
    expect(connection.status.getSnapshot()).toBe("reconnecting");
    room.emit("reconnected");
    expect(connection.status.getSnapshot()).toBe("connected");
    room.emit("disconnected");
    await flush();
    await new Promise((r) => setTimeout(r, 10));
    expect(asked()).toBe(2);
    expect(room.connects).toEqual(["ws://sfu j1", "ws://sfu j2"]);
    expect(room.published.length).toBe(4);
    expect(connection.status.getSnapshot()).toBe("connected");
    await connection.disconnect();
  });

  it("says in words when the token service or the SFU cannot be reached", async () => {
    FakeRoom.failConnect = false;
    const down = new SfuTokenError("unreachable", "https://focus/jwt");
    const first = setup([down]);
    await expect(first.connection.connect()).rejects.toThrow(
      "The call service cannot be reached (https://focus/jwt)",
    );
    expect(first.connection.status.getSnapshot()).toBe("failed");

    FakeRoom.failConnect = true;
    const second = setup([token("j1")]);
    const error = await second.connection.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveKitConnectionError);
    expect((error as Error).message).toBe("The call's media server cannot be reached (ws://sfu)");
    // Tried JOIN_ATTEMPTS times, each with a new token, before giving up.
    expect(second.asked()).toBe(JOIN_ATTEMPTS);
    expect(first.asked()).toBe(1);

    // An SFU that does not answer the first try: the second, with a new token, joins.
    FakeRoom.failConnect = false;
    FakeRoom.failNextConnects = 1;
    const slow = setup([token("j1"), token("j2")]);
    const errors: Array<string | undefined> = [];
    slow.connection.error.subscribe((e) => errors.push(e?.message));
    await slow.connection.connect();
    expect((FakeRoom.last as FakeRoom).connects).toEqual(["ws://sfu j1", "ws://sfu j2"]);
    expect(slow.connection.status.getSnapshot()).toBe("connected");
    expect(errors).toEqual(["The call's media server cannot be reached (ws://sfu)", undefined]);

    // Lost for good: every re-join fails, then the connection fails with the reason.
    FakeRoom.failConnect = false;
    const third = setup([token("j1"), down]);
    await third.connection.connect();
    (FakeRoom.last as FakeRoom).emit("disconnected");
    for (let i = 0; i < 20; i++) await flush();
    expect(third.asked()).toBe(1 + RECONNECT_ATTEMPTS);
    expect(third.connection.status.getSnapshot()).toBe("failed");
    expect(third.connection.error.getSnapshot()?.message).toBe(
      "The call service cannot be reached (https://focus/jwt)",
    );
  });
});
