/**
 * Two users on fake media and fake time, each with a CallRouter, and a
 * "room" between them: what one side sends is recorded and, unless held,
 * delivered to the other side as a room event.
 */
import { expect } from "vitest";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import type { Call } from "../../src/voip/call/Call";
import { CallRouter } from "../../src/voip/call/router";
import type { CallContent, CallEventTypeName, IncomingCallEvent } from "../../src/voip/call/types";
import { FakeNetwork } from "./fakes";
import type { FakePlatform } from "./fakes";

export const ROOM = "!room:hs";

export interface Sent {
  type: CallEventTypeName;
  content: CallContent;
}

export interface Side {
  userId: string;
  deviceId: string;
  platform: FakePlatform;
  router: CallRouter;
  sent: Sent[];
  /** When true, sent events are recorded but not delivered. */
  hold: boolean;
  failSends: boolean;
  /** When true, sends are delivered at once but resolve only on releaseSends(). */
  deferSends: boolean;
  releaseSends(): void;
  other?: Side;
  sentOf(type: string): Sent[];
}

export function makeSide(
  userId: string,
  deviceId: string,
  network: FakeNetwork,
  scheduler: FakeScheduler,
  platformOptions: { restartIce?: boolean; dtmf?: boolean } = {},
): Side {
  const platform = network.platform(platformOptions);
  const deferred: Array<() => void> = [];
  const side: Side = {
    userId,
    deviceId,
    platform,
    sent: [],
    hold: false,
    failSends: false,
    deferSends: false,
    releaseSends: () => {
      for (const resolve of deferred.splice(0)) resolve();
    },
    sentOf: (type) => side.sent.filter((s) => s.type === type),
    router: new CallRouter({
      userId,
      deviceId,
      platform,
      scheduler,
      iceServers: () => [{ urls: "stun:stun.example.org" }],
      signallerFor: () => ({
        send: (type, content) => {
          if (side.failSends) return Promise.reject(new Error("send failed"));
          side.sent.push({ type, content });
          const other = side.other;
          if (other && !side.hold)
            queueMicrotask(
              () => void other.router.handleRoomEvents(ROOM, [{ type, sender: userId, content }]),
            );
          return Promise.resolve();
        },
      }),
    }),
  };
  return side;
}

export function setup(options: { alice?: { restartIce?: boolean; dtmf?: boolean } } = {}): {
  scheduler: FakeScheduler;
  network: FakeNetwork;
  alice: Side;
  bob: Side;
} {
  const scheduler = new FakeScheduler([0.5]);
  const network = new FakeNetwork();
  const alice = makeSide("@alice:hs", "ALICE", network, scheduler, options.alice);
  const bob = makeSide("@bob:hs", "BOB", network, scheduler);
  alice.other = bob;
  bob.other = alice;
  return { scheduler, network, alice, bob };
}

/** An invite as a room event from `sender`, for the validity rules. */
export function invite(sender: string, content: Partial<CallContent>, ageMs = 0): IncomingCallEvent {
  return {
    type: "m.call.invite",
    sender,
    ageMs,
    content: {
      call_id: "c1",
      party_id: "PEER",
      version: "1",
      lifetime: 60_000,
      offer: { type: "offer", sdp: JSON.stringify({ ufrag: "nobody", media: [] }) },
      ...content,
    },
  };
}

export { flush };

/** Alice calls bob, who answers with audio; resolves once both calls are connected (fake time). */
export async function connectedPair(
  options: Parameters<typeof setup>[0] = {},
): Promise<ReturnType<typeof setup> & { outbound: Call; inbound: Call }> {
  const env = setup(options);
  await env.alice.router.placeCall(ROOM, env.bob.userId);
  await flush();
  const outbound = env.alice.router.calls.getSnapshot()[0] as Call;
  const inbound = env.bob.router.calls.getSnapshot()[0] as Call;
  await inbound.answer({ audio: true, video: false });
  await env.scheduler.advance(2_000);
  expect(outbound.state.getSnapshot()).toBe("connected");
  expect(inbound.state.getSnapshot()).toBe("connected");
  return { ...env, outbound, inbound };
}
