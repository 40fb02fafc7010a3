/**
 * The Lattice call peer, bundled into a Chromium page (peer-pages.ts): the
 * SDK's client without crypto, over the web app's browser media platform
 * (src/platform), placing, ringing, answering and hanging up 1:1 calls
 * through `client.voip`. It exposes the common PeerApi as `window.peer`; the
 * remote stream plays in the page's #remote-video and #remote-audio.
 */
import { createClient } from "@lattice/sdk";
import type { Client, voip } from "@lattice/sdk";
import { createBrowserMediaPlatform, domStream } from "../../src/platform";
import type { PeerApi, PeerCall, PeerSession } from "./peer-api";
import { nowMs, selectedTypeOf, showRemoteStream } from "./peer-api";

let client: Client | undefined;
type Call = voip.Call;

const known: Array<{ call: Call; view: PeerCall }> = [];

function need(): Client {
  if (!client) throw new Error("the Lattice peer is not started");
  return client;
}

function byId(callId: string): Call {
  const found = known.find((k) => k.call.callId === callId);
  if (!found) throw new Error(`no call ${callId}`);
  return found.call;
}

/** Follows one call: its state into the view, its remote stream into the page. */
function track(call: Call, view: PeerCall): void {
  known.push({ call, view });
  const sync = (): void => {
    const state = call.state.getSnapshot();
    view.state = state;
    if (call.hangupParty !== undefined) view.hangupParty = call.hangupParty;
    if (call.hangupReason !== undefined) view.hangupReason = call.hangupReason;
    if (state === "connected") view.marks.connected ??= nowMs();
    if (state === "ended") view.marks.ended ??= nowMs();
    const remote = call.media.remoteFeed()?.stream;
    if (remote && state !== "ended") showRemoteStream(domStream(remote));
  };
  call.state.subscribe(sync);
  call.feeds.subscribe(sync);
  // The caller's set-up steps, for the bench's breakdown of the time to ringing.
  call.events.on("setup", (step) => {
    if (step !== "invite_sent") view.marks[step] ??= nowMs();
  });
  // Glare: the losing outgoing call hands over to the incoming one, which never rings.
  call.events.on("replaced", (successor) => {
    if (!known.some((k) => k.call === successor))
      track(successor, { callId: successor.callId, direction: "inbound", state: "ringing", marks: {} });
  });
  sync();
}

/** Resolves when `probe` holds, checked on each change of `source`. */
function until<T>(
  source: { getSnapshot(): T; subscribe(l: (v: T) => void): () => void },
  probe: (v: T) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (probe(source.getSnapshot())) return resolve();
    const stop = source.subscribe((v) => {
      if (!probe(v)) return;
      queueMicrotask(() => stop());
      resolve();
    });
  });
}

const peer: PeerApi = {
  async start(session: PeerSession) {
    const forceTurn = session.forceTurn === true;
    const c = createClient({
      baseUrl: session.baseUrl,
      accessToken: session.accessToken,
      userId: session.userId,
      deviceId: session.deviceId,
      crypto: false,
      voip: { platform: createBrowserMediaPlatform(), forceTurn: () => forceTurn },
    });
    client = c;
    const voip = await c.voip();
    // Every call the client creates, including those it ends by itself (the losing invite of glare).
    voip.calls.subscribe((calls) => {
      for (const call of calls)
        if (!known.some((k) => k.call === call))
          track(call, {
            callId: call.callId,
            direction: call.direction ?? "inbound",
            state: call.state.getSnapshot(),
            marks: {},
          });
    });
    voip.onIncoming((call) => {
      const ringing = nowMs();
      const view = known.find((k) => k.call === call)?.view;
      if (view) view.marks.ringing = ringing;
      else track(call, { callId: call.callId, direction: "inbound", state: "ringing", marks: { ringing } });
    });
    await c.start();
    await until(c.sync.state, (s) => s === "syncing" || s === "prepared");
    // The client fetches TURN at start without waiting; a relay-only call needs the credentials first.
    if (forceTurn) await until(voip.turn.current, (t) => t.servers.length > 0);
  },

  async place(roomId, _opponent, video) {
    const placed = nowMs();
    const call = await (await need().voip()).placeCall(roomId, { video });
    const sent = nowMs();
    const view = known.find((k) => k.call === call)?.view;
    // Placing a call to someone whose call rings here answers theirs: that call stays the inbound one.
    if (view && call.direction === "inbound") return call.callId;
    if (view) {
      view.direction = "outbound";
      view.marks.placed = placed;
      view.marks.sent = sent;
    } else
      track(call, {
        callId: call.callId,
        direction: "outbound",
        state: call.state.getSnapshot(),
        marks: { placed, sent },
      });
    return call.callId;
  },

  async answer(callId, video) {
    const entry = known.find((k) => k.call.callId === callId);
    if (!entry) throw new Error(`no call ${callId}`);
    entry.view.marks.answered = nowMs();
    await entry.call.answer({ audio: true, video });
  },

  async hangup(callId) {
    await byId(callId).hangup("user_hangup");
  },

  calls: () => known.map((k) => ({ ...k.view, marks: { ...k.view.marks } })),

  async selectedCandidateType(callId) {
    const pc = byId(callId).peer;
    if (!pc) return undefined;
    const entries = await pc.getStats();
    const report = new Map(entries.map((e) => [e.id, e]));
    return selectedTypeOf(report);
  },

  async preCallCheck() {
    const r = await (await need().voip()).preCallCheck();
    return {
      relay: r.candidateTypes.relay,
      turnConfigured: r.turnConfigured,
      turnReachable: r.turnReachable,
    };
  },

  async stop() {
    await client?.dispose();
  },
};

window.peer = peer;
