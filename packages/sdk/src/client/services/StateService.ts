/**
 * State events (name, topic, join rules, widgets, call members...). They do
 * not go through the send queue: a state change is not a message in a
 * conversation, it has no local echo to order behind others, and replaying
 * it after a reconnect could overwrite a change someone made meanwhile. So
 * it is sent at once and fails at once, with a reason the UI can show
 * (`StateSendError`, the same failure kinds as the send queue's). The checks
 * that need no server come first: a known room ('Unknown room'), guests
 * send no state events (SPEC §6), and the power levels' state level for the
 * type (FORBIDDEN_LOCALLY). State events are never encrypted.
 *
 * m.room.member is the exception to the state-level check: the auth rules
 * judge a membership event by the membership rules (join, invite, kick and
 * ban levels), never by state_default, so a plain member may set their own
 * per-room display name and avatar. Those are left to the server.
 */
import { sendStateEvent } from "../../api/send";
import type { HttpApi } from "../../http/types";
import type { JsonObject } from "../../store/Store";
import { assertCanSendStateEvent } from "../../sync/guests";
import { classifyFailure } from "../../send/failure";
import type { SendFailure } from "../../send/failure";
import { forbiddenLocally } from "../errors";
import type { Actor, RoomLookup, RunningGuard } from "./types";
import { ALWAYS_RUNNING } from "./types";

export interface StateServiceOptions {
  http: HttpApi;
  actor: Actor;
  rooms: RoomLookup;
  running?: RunningGuard;
}

/** A state event the server did not take; `failure` says why (network, forbidden, ...). */
export class StateSendError extends Error {
  override readonly name = "StateSendError";
  constructor(
    readonly failure: SendFailure,
    options?: { cause?: unknown },
  ) {
    super(failure.message, options);
  }
}

/** Sends state events directly, after the local checks. */
export class StateService {
  constructor(private readonly options: StateServiceOptions) {}

  /** Sets a state event; resolves with its event id. */
  async setState(roomId: string, type: string, stateKey: string, content: JsonObject): Promise<string> {
    (this.options.running ?? ALWAYS_RUNNING).requireRunning();
    const room = this.options.rooms.get(roomId).getSnapshot();
    assertCanSendStateEvent(this.options.actor);
    const judgedByMembership = type === "m.room.member";
    if (!judgedByMembership && !room.state.powerLevels.canSendEvent(this.options.actor.userId, type, true)) {
      throw forbiddenLocally(`set ${type}`, roomId);
    }
    try {
      return (await sendStateEvent(this.options.http, roomId, type, content, stateKey)).event_id;
    } catch (error) {
      throw new StateSendError(classifyFailure(error), { cause: error });
    }
  }
}
