/**
 * LiveKitCall over a fake `client.rtc`, a fake token service and a fake
 * livekit-client: it refuses without a LiveKit focus (and writes no
 * membership), joins the membership before the SFU, asks the token with
 * an OpenID token and our member id, shows members (with their key index)
 * and never an SFU participant without a membership, and leaves both.
 */
import { describe, expect, it, vi } from "vitest";
import { ObservableValue } from "../../../src/util/observable";
import type { OwnKey, ParticipantKeys, RtcParticipant } from "../../../src/rtc/keys/EncryptionManager";
import { legacyIdentity } from "../../../src/rtc/keys/identity";
import type { LiveKitModule, LkParticipant, LkRoomOptions } from "../../../src/rtc/livekit/api";
import { LiveKitCall, LiveKitCallError, NO_LIVEKIT_FOCUS } from "../../../src/rtc/livekit/call";
import type { RtcForLiveKit } from "../../../src/rtc/livekit/call";
import type { CallMembership, RtcTransport } from "../../../src/rtc/membership/types";

class FakeRoom {
  static last: FakeRoom | undefined;
  readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  state = "disconnected";
  readonly remoteParticipants = new Map<string, LkParticipant>();
  readonly localParticipant = {
    identity: "me",
    isSpeaking: false,
    connectionQuality: "good",
    isEncrypted: true,
    trackPublications: new Map(),
    publishTrack: () => Promise.resolve(),
    unpublishTrack: () => Promise.resolve(),
  };
  constructor(readonly options: LkRoomOptions) {
    FakeRoom.last = this;
  }
  on(event: string, l: (...args: unknown[]) => void): void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(l);
    this.listeners.set(event, set);
  }
  off(event: string, l: (...args: unknown[]) => void): void {
    this.listeners.get(event)?.delete(l);
  }
  emit(event: string): void {
    for (const l of this.listeners.get(event) ?? []) l();
  }
  connect(): Promise<void> {
    this.state = "connected";
    return Promise.resolve();
  }
  disconnect(): Promise<void> {
    return Promise.resolve();
  }
  setE2EEEnabled(): Promise<void> {
    return Promise.resolve();
  }
}

const fakeModule: LiveKitModule = {
  Room: FakeRoom,
  BaseKeyProvider: class {
    onSetEncryptionKey(): void {}
  },
  createKeyMaterialFromBuffer: (b) => Promise.resolve(b),
};

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = `${b64({ alg: "HS256" })}.${b64({ sub: "me", video: { room: "R" } })}.sig`;

function remote(identity: string): LkParticipant {
  return {
    identity,
    isSpeaking: true,
    connectionQuality: "good",
    isEncrypted: true,
    trackPublications: new Map(),
  };
}

function fakeRtc(transports: readonly RtcTransport[]) {
  const log: string[] = [];
  const keys = new ObservableValue<ParticipantKeys>({
    latestIndex: 3,
    keys: new Map([[3, new Uint8Array(16)]]),
  });
  const participants = new ObservableValue<readonly RtcParticipant[]>([]);
  const ownKey = new ObservableValue<OwnKey | undefined>({ index: 1, key: new Uint8Array(16) });
  const memberships = new ObservableValue<readonly CallMembership[]>([]);
  const rtc: RtcForLiveKit = {
    discovery: { get: () => Promise.resolve({ transports, source: transports.length ? "server" : "none" }) },
    join: (roomId, joinOptions) => {
      log.push(`join ${roomId}${joinOptions?.focusSelection ? ` ${joinOptions.focusSelection}` : ""}`);
      return Promise.resolve();
    },
    leave: (roomId) => {
      log.push(`leave ${roomId}`);
      return Promise.resolve(true);
    },
    participants: () => participants,
    ownKey: () => ownKey,
    session: () => ({ memberships }),
  };
  const bob: RtcParticipant = {
    userId: "@bob:hs",
    deviceId: "B",
    memberId: "@bob:hs:B",
    identity: legacyIdentity("@bob:hs", "B"),
    membership: {} as CallMembership,
    keys,
  };
  return { rtc, log, participants, bob };
}

function options(rtc: RtcForLiveKit, log: string[]) {
  return {
    rtc,
    roomId: "!r:hs",
    userId: "@me:hs",
    deviceId: "ME",
    openIdToken: () => {
      log.push("openid");
      return Promise.resolve({
        access_token: "oid",
        token_type: "Bearer" as const,
        matrix_server_name: "hs",
        expires_in: 3600,
      });
    },
    e2eeWorker: () => "worker",
    load: () => Promise.resolve(fakeModule),
    fetch: ((url: string, init: { body: string }) => {
      log.push(`POST ${url} ${init.body}`);
      return Promise.resolve(new Response(JSON.stringify({ url: "ws://sfu", jwt }), { status: 200 }));
    }) as unknown as typeof fetch,
  };
}

describe("LiveKitCall", () => {
  it("refuses without a LiveKit focus, in words, and writes no membership", async () => {
    const { rtc, log } = fakeRtc([{ type: "mesh" }]);
    const call = new LiveKitCall(options(rtc, log));
    const error = await call.join().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveKitCallError);
    expect((error as Error).message).toBe(NO_LIVEKIT_FOCUS);
    expect(NO_LIVEKIT_FOCUS).toBe("The server offers no LiveKit call service");
    expect(log.filter((l) => l.startsWith("join"))).toEqual([]);
    expect(call.status.getSnapshot()).toBe("failed");
  });

  it("joins the membership, then the SFU with an OpenID token; shows members only; leaves both", async () => {
    const { rtc, log, participants, bob } = fakeRtc([{ type: "livekit", livekitServiceUrl: "https://jwt" }]);
    const call = new LiveKitCall(options(rtc, log));
    await call.join();
    // Its membership says multi_sfu: it publishes on its own focus, where peers then look for it.
    expect(log[0]).toBe("join !r:hs multi_sfu");
    expect(log[1]).toBe("openid");
    // A state-form member (the default): the legacy endpoint, so the SFU names us userId:deviceId.
    expect(log[2]?.startsWith("POST https://jwt/sfu/get ")).toBe(true);
    const post = JSON.parse(log[2]?.replace("POST https://jwt/sfu/get ", "") ?? "{}") as Record<
      string,
      unknown
    >;
    expect(post["room"]).toBe("!r:hs");
    expect(post["device_id"]).toBe("ME");
    expect((post["openid_token"] as Record<string, unknown>)["access_token"]).toBe("oid");
    expect(call.status.getSnapshot()).toBe("connected");

    const room = FakeRoom.last as FakeRoom;
    // On the SFU: Bob and a stranger with no membership.
    room.remoteParticipants.set(bob.identity, remote(bob.identity));
    room.remoteParticipants.set("@eve:hs:E", remote("@eve:hs:E"));
    participants.set([bob]);
    room.emit("participantConnected");
    // Bob's hashed identity is computed asynchronously: wait for the view to include him.
    await vi.waitFor(() =>
      expect(call.participants.getSnapshot().map((p) => [p.userId, p.isLocal, p.keyIndex])).toEqual([
        ["@me:hs", true, 1],
        ["@bob:hs", false, 3],
      ]),
    );
    const shown = call.participants.getSnapshot();
    expect(shown[1]?.speaking).toBe(true);

    // Bob's delayed leave fired: he is gone from the view while the SFU still holds him.
    participants.set([]);
    await vi.waitFor(() => expect(call.participants.getSnapshot().map((p) => p.userId)).toEqual(["@me:hs"]));

    await call.leave();
    expect(log.at(-1)).toBe("leave !r:hs");
    expect(call.status.getSnapshot()).toBe("disconnected");
    expect(call.participants.getSnapshot()).toEqual([]);
  });
});
