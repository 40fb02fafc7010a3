/**
 * The options and events of a 1:1 call: where its events go (a room for
 * 1:1 calls, one device for group calls), what it runs on, and what it
 * reports besides its observable state.
 */
import type { Scheduler } from "../../util/scheduler";
import type { IceServer, MediaPlatform } from "../platform";
import type { Call } from "./Call";
import type { CallContent, CallError, CallEventTypeName } from "./types";

/** Where the call's events go: a room (1:1) or a device (group calls). */
export interface CallSignaller {
  send(type: CallEventTypeName, content: CallContent): Promise<void>;
}

export interface CallOptions {
  roomId: string;
  userId: string;
  /** Our party id; a call cannot start without one. */
  deviceId: string | undefined;
  /** The other user: the invitee of an outbound call, the sender of an inbound one. */
  opponentUserId: string;
  platform: MediaPlatform;
  scheduler: Scheduler;
  signaller: CallSignaller;
  /** The ICE servers to use now (TURN, and the fallback STUN when allowed). */
  iceServers: () => IceServer[];
  /** Relay candidates only. */
  forceTurn?: boolean;
  callId?: string;
  /** Whether to name the opponent as invitee (default true). */
  sendInvitee?: boolean;
  /** False when the local tracks are shared with other calls (mesh group calls): ending leaves them running. */
  ownsLocalMedia?: boolean;
}

export type CallParty = "local" | "remote";

/**
 * The steps of placing a call, reported as they happen so the time from
 * pressing Call to the invite leaving can be profiled: media captured, the
 * offer made (local description set), the invite handed to the room's send
 * queue, and the server's answer to it.
 */
export type CallSetupStep = "media_ready" | "offer_created" | "invite_sending" | "invite_sent";

export interface CallEvents extends Record<string, unknown> {
  error: CallError;
  /** This call lost glare (or was otherwise superseded) by `successor`. */
  replaced: Call;
  /** The opponent asked us to move to another call (m.call.replaces). */
  transferRequested: CallContent;
  /** An outbound call passed a step of its set-up. */
  setup: CallSetupStep;
}
