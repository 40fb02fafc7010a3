/**
 * The shared context of the fixture generator: the seeded random source,
 * the clock, id minting and the user pool, plus what each room remembers
 * (members, message ids, thread roots) so later events can relate to earlier
 * ones. Everything is derived from the seed, nothing from the real clock.
 */
import type { ClientEventWithoutRoomId, EventContent } from "@lattice/sdk/api/types/events";
import { BASE64URL, Prng } from "./prng";

/** The homeserver name every id in the fixture lives on. */
export const SERVER_NAME = "bench.local";
/** The user the bench clients sync as. */
export const BENCH_USER_ID = `@bench:${SERVER_NAME}`;
/** origin_server_ts of the first event (fixed, so the fixture is deterministic). */
export const BASE_TS = 1_700_000_000_000;

/** What the generator remembers about a room after its initial sync. */
export interface RoomMemory {
  roomId: string;
  /** Joined members, the bench user first. */
  members: string[];
  /** Ids of m.room.message events (targets of replies, edits, reactions), with their senders. */
  messages: Array<{ eventId: string; sender: string }>;
  /** Event ids of thread roots. */
  threadRoots: string[];
  isDirect: boolean;
}

export class World {
  readonly rng: Prng;
  private ts = BASE_TS;
  private userCounter = 0;

  constructor(seed: number) {
    this.rng = new Prng(seed);
  }

  /** The next timestamp: time moves forward a few seconds per event. */
  tick(): number {
    this.ts += this.rng.int(200, 5000);
    return this.ts;
  }

  eventId(): string {
    return `$${this.rng.string(43, BASE64URL)}`;
  }

  roomId(): string {
    return `!${this.rng.string(18)}:${SERVER_NAME}`;
  }

  /** A user from the pool: most are reused across rooms, as in a real account. */
  poolUser(poolSize: number): string {
    return `@user${this.rng.int(0, poolSize - 1)}:${SERVER_NAME}`;
  }

  /** A user seen nowhere before (joins in incremental batches, big rooms). */
  freshUser(): string {
    this.userCounter += 1;
    return `@fresh${this.userCounter}_${this.rng.string(4).toLowerCase()}:${SERVER_NAME}`;
  }

  /** A timeline or state event with the fields /sync gives. */
  event(type: string, sender: string, content: EventContent, stateKey?: string): ClientEventWithoutRoomId {
    const event: ClientEventWithoutRoomId = {
      event_id: this.eventId(),
      type,
      sender,
      origin_server_ts: this.tick(),
      content,
      unsigned: { age: this.rng.int(100, 100_000) },
    };
    if (stateKey !== undefined) event.state_key = stateKey;
    return event;
  }

  /** Some words of chat text. */
  sentence(minWords = 3, maxWords = 18): string {
    const n = this.rng.int(minWords, maxWords);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(this.rng.pick(WORDS));
    return words.join(" ");
  }
}

/** Display name of a user id (its localpart, capitalised). */
export function displayName(userId: string): string {
  const local = userId.slice(1, userId.indexOf(":"));
  return local.charAt(0).toUpperCase() + local.slice(1);
}

const WORDS = [
  "the",
  "meeting",
  "is",
  "moved",
  "to",
  "tomorrow",
  "please",
  "review",
  "my",
  "patch",
  "lattice",
  "sync",
  "room",
  "works",
  "again",
  "thanks",
  "for",
  "the",
  "fix",
  "lunch",
  "anyone",
  "seen",
  "this",
  "bug",
  "before",
  "deploy",
  "done",
  "coffee",
  "later",
  "sounds",
  "good",
  "agreed",
  "not",
  "sure",
  "about",
  "that",
  "let's",
  "discuss",
  "in",
  "thread",
];
