/**
 * A small page for the LiveKit call tests (the web app has no group call
 * view yet): it runs the SDK's LiveKit connection, with this page as the
 * platform edge (the fake camera and microphone through getUserMedia, the
 * encryption worker from the web app's platform module), and shows every
 * remote participant's video and audio in elements the media checks read.
 *
 * Keys arrive as the MatrixRTC encryption manager publishes them (our key,
 * and each remote participant's keys as observables); the test plays the
 * key transport and hands each page the others' keys, or withholds them.
 */
import { ObservableValue } from "@lattice/sdk/util/observable";
import type { OwnKey, ParticipantKeys, RtcParticipant } from "@lattice/sdk/rtc/keys/EncryptionManager";
import { LiveKitConnection } from "@lattice/sdk/rtc/livekit/connection";
import { requestSfuToken } from "@lattice/sdk/rtc/livekit/token";
import type { OpenIdToken } from "@lattice/sdk/api/types/server";
import type { MediaTrack } from "@lattice/sdk/voip/platform";
import { createE2eeWorker } from "../../src/platform/livekit";

export interface JoinRequest {
  serviceUrl: string;
  roomId: string;
  homeserverUrl: string;
  accessToken: string;
  userId: string;
  deviceId: string;
  /** Our media key, hex. */
  keyHex: string;
}

export interface RemoteKey {
  userId: string;
  deviceId: string;
  index: number;
  keyHex: string;
}

export interface PageState {
  status: string;
  error: string | undefined;
  participants: Array<{
    identity: string;
    isLocal: boolean;
    encryption: string;
    video: boolean;
    audio: boolean;
  }>;
}

const hex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));

const ownKey = new ObservableValue<OwnKey | undefined>(undefined);
const participants = new ObservableValue<readonly RtcParticipant[]>([]);
const keysByDevice = new Map<string, ObservableValue<ParticipantKeys>>();
let connection: LiveKitConnection | undefined;
const shown = new Map<string, { video: HTMLVideoElement; audio: HTMLAudioElement }>();

function render(): void {
  const root = document.getElementById("remote") as HTMLElement;
  for (const p of connection?.participants.getSnapshot() ?? []) {
    if (p.isLocal) continue;
    let els = shown.get(p.identity);
    if (!els) {
      const video = document.createElement("video");
      video.autoplay = true;
      video.muted = true;
      video.playsInline = true;
      video.dataset["identity"] = p.identity;
      const audio = document.createElement("audio");
      audio.autoplay = true;
      audio.dataset["identity"] = p.identity;
      root.append(video, audio);
      els = { video, audio };
      shown.set(p.identity, els);
    }
    const video = p.video as unknown as MediaStreamTrack | undefined;
    const audio = p.audio as unknown as MediaStreamTrack | undefined;
    const current = (els.video.srcObject as MediaStream | null)?.getVideoTracks()[0];
    if (video && current !== video) els.video.srcObject = new MediaStream([video]);
    const currentAudio = (els.audio.srcObject as MediaStream | null)?.getAudioTracks()[0];
    if (audio && currentAudio !== audio) els.audio.srcObject = new MediaStream([audio]);
  }
}

async function openIdToken(request: JoinRequest): Promise<OpenIdToken> {
  const res = await fetch(
    `${request.homeserverUrl}/_matrix/client/v3/user/${encodeURIComponent(request.userId)}/openid/request_token`,
    { method: "POST", headers: { Authorization: `Bearer ${request.accessToken}` }, body: "{}" },
  );
  return (await res.json()) as OpenIdToken;
}

async function join(request: JoinRequest): Promise<void> {
  ownKey.set({ index: 0, key: hex(request.keyHex) });
  const media = await navigator.mediaDevices.getUserMedia({
    audio: true,
    video: { width: 320, height: 240 },
  });
  connection = new LiveKitConnection({
    focus: { serviceUrl: request.serviceUrl },
    token: async () =>
      requestSfuToken({
        serviceUrl: request.serviceUrl,
        roomId: request.roomId,
        openIdToken: await openIdToken(request),
        member: {
          id: `${request.userId}:${request.deviceId}`,
          userId: request.userId,
          deviceId: request.deviceId,
        },
      }),
    keys: { ownKey, participants },
    e2eeWorker: createE2eeWorker,
    tracks: () => Promise.resolve(media.getTracks() as unknown as MediaTrack[]),
  });
  connection.participants.subscribe(render);
  await connection.connect();
}

function setRemoteKeys(keys: readonly RemoteKey[]): void {
  for (const k of keys) {
    const device = `${k.userId}|${k.deviceId}`;
    let slot = keysByDevice.get(device);
    if (!slot) {
      slot = new ObservableValue<ParticipantKeys>({ latestIndex: undefined, keys: new Map() });
      keysByDevice.set(device, slot);
      const memberId = `${k.userId}:${k.deviceId}`;
      const participant: RtcParticipant = {
        userId: k.userId,
        deviceId: k.deviceId,
        memberId,
        identity: memberId,
        membership: {} as RtcParticipant["membership"],
        keys: slot,
      };
      participants.set([...participants.getSnapshot(), participant]);
    }
    const before = slot.getSnapshot();
    slot.set({ latestIndex: k.index, keys: new Map([...before.keys, [k.index, hex(k.keyHex)]]) });
  }
}

function state(): PageState {
  return {
    status: connection?.status.getSnapshot() ?? "idle",
    error: connection?.error.getSnapshot()?.message,
    participants: (connection?.participants.getSnapshot() ?? []).map((p) => ({
      identity: p.identity,
      isLocal: p.isLocal,
      encryption: p.encryption,
      video: p.video !== undefined,
      audio: p.audio !== undefined,
    })),
  };
}

async function joinError(request: JoinRequest): Promise<string> {
  try {
    await join(request);
    return "joined";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const api = {
  join,
  joinError,
  setRemoteKeys,
  rotateOwnKey: (index: number, keyHex: string) => ownKey.set({ index, key: hex(keyHex) }),
  state,
  leave: () => connection?.disconnect(),
};

declare global {
  interface Window {
    lkTest: typeof api;
  }
}
window.lkTest = api;
