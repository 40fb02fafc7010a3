/**
 * A scripted homeserver for reload tests: a seeded list of sync batches over
 * a few rooms, answered by token (`s<k>` means "after batch k"), plus a
 * SyncTransport over it that answers a set number of requests and then
 * long-polls until stopped. With `resend`, an answer repeats the last event
 * of the previous batch, as a server does when a client continues from an
 * older token, so the processor must de-duplicate against its snapshot.
 * No Node APIs: the browser reload page bundles it too.
 */
import type { SyncResponse } from "../../../src/api/types/sync";
import type { SyncRequest, SyncTransport } from "../../../src/sync/SyncLoop";

/** A small seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface ScriptedEvent {
  roomId: string;
  eventId: string;
}

export class ScriptedServer {
  /** batches[k]: the events of batch k, in order. */
  readonly batches: ScriptedEvent[][] = [];
  readonly rooms: string[];

  constructor(
    seed: number,
    batchCount: number,
    roomCount = 5,
    private readonly resend = true,
  ) {
    const random = seededRandom(seed);
    this.rooms = Array.from({ length: roomCount }, (_, i) => `!room${i}:x`);
    let n = 0;
    for (let k = 0; k < batchCount; k++) {
      const count = k === 0 ? roomCount : 1 + Math.floor(random() * 3);
      const batch: ScriptedEvent[] = [];
      for (let i = 0; i < count; i++) {
        const roomId =
          k === 0 ? (this.rooms[i] as string) : (this.rooms[Math.floor(random() * roomCount)] as string);
        batch.push({ roomId, eventId: `$e${n++}` });
      }
      this.batches.push(batch);
    }
  }

  /** Every event id sent, in order. */
  allEventIds(): string[] {
    return this.batches.flat().map((e) => e.eventId);
  }

  /** The index of the batch a token is after (-1 for none). */
  static position(since: string | undefined): number {
    return since === undefined ? -1 : Number(since.slice(1));
  }

  /** The answer to a sync continuing from `since`, or null when there is nothing more. */
  answer(since: string | undefined): SyncResponse | null {
    const k = ScriptedServer.position(since) + 1;
    const batch = this.batches[k];
    if (!batch) return null;
    const previous = this.batches[k - 1];
    const repeated = this.resend && previous ? previous.slice(-1) : [];
    const join: Record<
      string,
      { state?: { events: unknown[] }; timeline: { events: unknown[]; prev_batch: string } }
    > = {};
    for (const event of [...repeated, ...batch]) {
      const room = (join[event.roomId] ??= { timeline: { events: [], prev_batch: `p${k}` } });
      if (k === 0) {
        room.state = {
          events: [
            {
              event_id: `$create-${event.roomId}`,
              type: "m.room.create",
              state_key: "",
              sender: "@a:x",
              origin_server_ts: 0,
              content: { room_version: "11" },
            },
          ],
        };
      }
      room.timeline.events.push({
        event_id: event.eventId,
        type: "m.room.message",
        sender: "@a:x",
        origin_server_ts: 1_000 + Number(event.eventId.slice(2)),
        content: { body: event.eventId },
      });
    }
    return { next_batch: `s${k}`, rooms: { join } } as SyncResponse;
  }
}

/** Answers `budget` sync requests from the server, then long-polls until aborted (resolving `drained`). */
export class ScriptedTransport implements SyncTransport {
  readonly requests: Array<string | undefined> = [];
  private resolveDrained: () => void = () => undefined;
  readonly drained: Promise<void>;

  constructor(
    private readonly server: ScriptedServer,
    private budget: number,
  ) {
    this.drained = new Promise((resolve) => (this.resolveDrained = resolve));
  }

  sync(request: SyncRequest): Promise<SyncResponse> {
    this.requests.push(request.since);
    const answer = this.budget > 0 ? this.server.answer(request.since) : null;
    if (answer === null) {
      this.resolveDrained();
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    this.budget -= 1;
    return Promise.resolve(answer);
  }

  probe(): Promise<void> {
    return Promise.resolve();
  }
}
