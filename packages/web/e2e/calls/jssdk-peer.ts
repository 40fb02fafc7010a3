/**
 * The matrix-js-sdk call peer, bundled into a Chromium page (peer-pages.ts):
 * a MatrixClient without crypto (the room is unencrypted), signed in with a
 * token, whose MatrixCall places, rings, answers and hangs up 1:1 calls.
 * It exposes the common PeerApi as `window.peer`; the remote stream plays in
 * the page's #remote-video and #remote-audio elements for the media checks.
 */
import { ClientEvent, createClient, createNewMatrixCall, SyncState } from "matrix-js-sdk";
import type { MatrixCall, MatrixClient } from "matrix-js-sdk";
import { CallErrorCode, CallEvent, CallState } from "matrix-js-sdk/lib/webrtc/call";
import { CallEventHandlerEvent } from "matrix-js-sdk/lib/webrtc/callEventHandler";
import type { PeerApi, PeerCall, PeerSession } from "./peer-api";
import { nowMs, selectedTypeOf, showRemoteStream } from "./peer-api";

let client: MatrixClient | undefined;
const known: Array<{ call: MatrixCall; view: PeerCall }> = [];

function need(): MatrixClient {
  if (!client) throw new Error("the js-sdk peer is not started");
  return client;
}

function byId(callId: string): MatrixCall {
  const found = known.find((k) => k.call.callId === callId);
  if (!found) throw new Error(`no call ${callId}`);
  return found.call;
}

/** Follows one call: its state into the view, its remote stream into the page. */
function track(call: MatrixCall, view: PeerCall): void {
  known.push({ call, view });
  const sync = (): void => {
    view.callId = call.callId;
    view.state = call.state;
    if (call.hangupParty !== undefined) view.hangupParty = call.hangupParty;
    if (call.hangupReason !== undefined) view.hangupReason = call.hangupReason;
    if (call.state === CallState.Connected) view.marks.connected ??= nowMs();
    if (call.state === CallState.Ended) view.marks.ended ??= nowMs();
    const stream = call.remoteUsermediaStream;
    if (stream && call.state !== CallState.Ended) showRemoteStream(stream);
  };
  call.on(CallEvent.State, sync);
  call.on(CallEvent.Hangup, sync);
  call.on(CallEvent.FeedsChanged, sync);
  // Glare: the losing outgoing call hands over to the incoming one, which never rings.
  call.on(CallEvent.Replaced, (successor: MatrixCall) => {
    if (!known.some((k) => k.call === successor))
      track(successor, { callId: successor.callId, direction: "inbound", state: successor.state, marks: {} });
  });
  sync();
}

const peer: PeerApi = {
  async start(session: PeerSession) {
    client = createClient({
      baseUrl: session.baseUrl,
      accessToken: session.accessToken,
      userId: session.userId,
      deviceId: session.deviceId,
      forceTURN: session.forceTurn === true,
    });
    const c = client;
    c.on(CallEventHandlerEvent.Incoming, (call: MatrixCall) => {
      track(call, {
        callId: call.callId,
        direction: "inbound",
        state: call.state,
        marks: { ringing: nowMs() },
      });
    });
    const prepared = new Promise<void>((resolve, reject) => {
      c.on(ClientEvent.Sync, (state: SyncState) => {
        if (state === SyncState.Prepared || state === SyncState.Syncing) resolve();
        if (state === SyncState.Error) reject(new Error("js-sdk sync failed"));
      });
    });
    await c.startClient({ initialSyncLimit: 1 });
    await prepared;
  },

  async place(roomId, opponent, video) {
    const placed = nowMs();
    const call = createNewMatrixCall(need(), roomId, { invitee: opponent });
    if (!call) throw new Error("matrix-js-sdk says this browser cannot call");
    const view: PeerCall = {
      callId: call.callId,
      direction: "outbound",
      state: call.state,
      marks: { placed },
    };
    track(call, view);
    const sent = new Promise<void>((resolve) => {
      const check = (): void => {
        const ready = [CallState.InviteSent, CallState.Connecting, CallState.Connected, CallState.Ended];
        if (ready.includes(call.state)) resolve();
      };
      call.on(CallEvent.State, check);
      check();
    });
    await (video ? call.placeVideoCall() : call.placeVoiceCall());
    await sent;
    return call.callId;
  },

  async answer(callId, video) {
    const entry = known.find((k) => k.call.callId === callId);
    if (!entry) throw new Error(`no call ${callId}`);
    entry.view.marks.answered = nowMs();
    await entry.call.answer(true, video);
  },

  hangup(callId) {
    byId(callId).hangup(CallErrorCode.UserHangup, false);
    return Promise.resolve();
  },

  calls() {
    // Calls the client created and ended by itself (the losing invite of glare) never ring: adopt them here.
    for (const call of client?.callEventHandler?.calls.values() ?? [])
      if (!known.some((k) => k.call === call))
        track(call, { callId: call.callId, direction: "inbound", state: call.state, marks: {} });
    return known.map((k) => ({ ...k.view, marks: { ...k.view.marks } }));
  },

  async selectedCandidateType(callId) {
    const pc = byId(callId).peerConn;
    return pc ? selectedTypeOf(await pc.getStats()) : undefined;
  },

  stop() {
    client?.stopClient();
    return Promise.resolve();
  },
};

window.peer = peer;
