/**
 * Our part in one room's session while joined: the membership manager that
 * keeps us in it, the key transports, the encryption manager, and the
 * raised hands and reactions. It owns
 * every timer and subscription it starts, and `end()` releases them all.
 */
import type { Scheduler } from "../util/scheduler";
import type { ReadonlyObservable } from "../util/observable";
import type { EncryptionManager, OwnKey, RtcParticipant } from "./keys/EncryptionManager";
import type { KeyTransports } from "./keys/transports";
import type { CallReactions } from "./reactions/CallReactions";
import type { RtcSession } from "./session/RtcSession";
import type { MembershipManager } from "./session/MembershipManager";

export interface RoomCallParts {
  session: RtcSession;
  membership: MembershipManager;
  transports: KeyTransports;
  encryption: EncryptionManager;
  scheduler: Scheduler;
  reactions: CallReactions;
}

export class RoomCall {
  private readonly unsubscribes: Array<() => void> = [];

  constructor(readonly parts: RoomCallParts) {}

  get participants(): ReadonlyObservable<readonly RtcParticipant[]> {
    return this.parts.encryption.participants;
  }

  get ownKey(): ReadonlyObservable<OwnKey | undefined> {
    return this.parts.encryption.ownKey;
  }

  /** Raised hands and reactions in this call. */
  get reactions(): CallReactions {
    return this.parts.reactions;
  }

  /** Takes a subscription made for this call; `end()` releases it. */
  own(unsubscribe: () => void): void {
    this.unsubscribes.push(unsubscribe);
  }

  /** Joins the session, then makes and sends the first key; keys follow the memberships. */
  async start(): Promise<void> {
    const { session, membership, transports, encryption } = this.parts;
    await session.join(membership);
    encryption.join(session.memberships.getSnapshot());
    this.unsubscribes.push(
      session.memberships.subscribe((list) => encryption.onMemberships(list)),
      // After the switch to the room transport, everyone gets the key again by it.
      transports.mode.subscribe((mode) => {
        if (mode === "room") encryption.resendAll();
      }),
    );
    // The hands raised before we came are read in the background: the join does not wait for them.
    void this.parts.reactions.start();
  }

  /** Leaves (false when not joined or when the leave outlasted the time-out) and releases everything. */
  async leave(): Promise<boolean> {
    const left = await this.parts.session.leave();
    this.end();
    return left;
  }

  /** The page is unloading. */
  unload(): void {
    this.parts.session.unload();
    this.end();
  }

  /** Releases the key machinery (also after an eviction or a failed membership). */
  end(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.parts.encryption.leave();
    this.parts.reactions.end();
  }
}
