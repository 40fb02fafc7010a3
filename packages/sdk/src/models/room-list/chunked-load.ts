/**
 * The chunked load of the stored snapshot after a summary-first start: the
 * restored batch is applied to the Rooms model a part at a time (account
 * data first, then rooms by recent activity, newest first), yielding to the
 * main thread between parts so the page answers input while 3,000 rooms
 * fold. A part's size adapts to take about `budgetMs`. `now(roomId)`
 * applies one room at once (the user opened it before its turn).
 */
import type { ProcessedSync } from "../../sync/processor/types";
import { yieldToMain } from "../../util/yield";
import type { YieldFn } from "../../util/yield";

export { yieldToMain };
export type { YieldFn };

type Kind = "join" | "invite" | "knock" | "leave";

export interface ChunkedLoadOptions {
  batch: ProcessedSync;
  /** Applies a part of the batch (Rooms' batch fold). */
  apply: (part: ProcessedSync) => void;
  /** Rooms with a larger value load first (the seeded latest activity). */
  order: (roomId: string) => number;
  /** Rooms to load before all others (opened before the load began). */
  first?: readonly string[];
  yieldToMain?: YieldFn;
  /** Aimed time of one part, in ms. */
  budgetMs?: number;
  now?: () => number;
}

/** Aimed duration of one part: short enough for a key press to be answered within a frame or two. */
export const CHUNK_BUDGET_MS = 12;

export class ChunkedLoad {
  private readonly pending: Array<{ id: string; kind: Kind }> = [];
  private readonly done = new Set<string>();

  constructor(private readonly options: ChunkedLoadOptions) {
    const rooms = options.batch.rooms;
    for (const kind of ["join", "invite", "knock", "leave"] as const)
      for (const id of rooms[kind].keys()) this.pending.push({ id, kind });
    const order = new Map(this.pending.map((p) => [p.id, options.order(p.id)]));
    for (const id of options.first ?? []) if (order.has(id)) order.set(id, Number.POSITIVE_INFINITY);
    this.pending.sort((a, b) => (order.get(b.id) ?? 0) - (order.get(a.id) ?? 0));
  }

  /** Applies the whole batch, a part per task. */
  async run(): Promise<void> {
    const { batch, apply } = this.options;
    const now = this.options.now ?? (() => performance.now());
    const budget = this.options.budgetMs ?? CHUNK_BUDGET_MS;
    const yieldFn = this.options.yieldToMain ?? yieldToMain;
    // Account data first: m.direct decides the DM flags of every room after it.
    apply(this.part([], batch.accountData));
    let size = 16;
    let i = 0;
    while (i < this.pending.length) {
      await yieldFn();
      const ids: Array<{ id: string; kind: Kind }> = [];
      for (; i < this.pending.length && ids.length < size; i++) {
        const p = this.pending[i];
        if (p !== undefined && !this.done.has(p.id)) ids.push(p);
      }
      const start = now();
      for (const p of ids) this.done.add(p.id);
      apply(this.part(ids, []));
      const took = now() - start;
      if (took < budget / 2) size = Math.min(size * 2, 1024);
      else if (took > budget * 2) size = Math.max(1, Math.floor(size / 2));
    }
  }

  /** Applies one room's part now, if it is still pending. */
  now(roomId: string): void {
    if (this.done.has(roomId)) return;
    const p = this.pending.find((x) => x.id === roomId);
    if (p === undefined) return;
    this.done.add(roomId);
    this.options.apply(this.part([p], []));
  }

  private part(
    ids: ReadonlyArray<{ id: string; kind: Kind }>,
    accountData: ProcessedSync["accountData"],
  ): ProcessedSync {
    const { batch } = this.options;
    const rooms: ProcessedSync["rooms"] = {
      join: new Map(),
      invite: new Map(),
      knock: new Map(),
      leave: new Map(),
    };
    for (const { id, kind } of ids) {
      const update = batch.rooms[kind].get(id);
      // The maps are typed per kind; each id is read from and written to the same kind.
      if (update !== undefined) (rooms[kind] as Map<string, unknown>).set(id, update);
    }
    return { ...batch, rooms, accountData, presence: [], toDevice: [] };
  }
}
