/**
 * The processing phases: persist then emit, a failed write aborts the batch
 * (and its events are emitted once the write succeeds), the decrypt hook,
 * throttled and forced saves, de-duplication, and restore.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/MemoryStore";
import type { StoredSync } from "../../../src/store/Store";
import { SyncProcessor, SyncWriteError } from "../../../src/sync/processor/SyncProcessor";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import { SyncParseError } from "../../../src/sync/validate/parseSync";
import { message, recordingLogger } from "./fixtures";

/** A MemoryStore whose throttle and failures the test controls, recording what happens in order. */
class ControlledStore extends MemoryStore {
  readonly log: string[] = [];
  want = false;
  failSave = 0;
  override wantsSave(): boolean {
    return this.want;
  }
  override setSync(sync: StoredSync): void {
    this.log.push(`setSync ${sync.nextBatch}`);
    super.setSync(sync);
  }
  override save(force = false): Promise<void> {
    if (this.failSave > 0) {
      this.failSave -= 1;
      this.log.push("save failed");
      return Promise.reject(new Error("disk full"));
    }
    this.log.push(`save ${force}`);
    return Promise.resolve();
  }
}

const R = "!r:x";

function sync(next: string, events: unknown[], extra: Record<string, unknown> = {}) {
  return {
    next_batch: next,
    rooms: { join: { [R]: { timeline: { events, prev_batch: `p-${next}` } } } },
    ...extra,
  };
}

function setup(
  store = new ControlledStore(),
  decrypt?: ConstructorParameters<typeof SyncProcessor>[0]["decrypt"],
) {
  const logger = recordingLogger();
  const processor = new SyncProcessor({ store, logger, ...(decrypt ? { decrypt } : {}) });
  const batches: ProcessedSync[] = [];
  processor.subscribe((b) => {
    store.log.push(`emit ${b.nextBatch}`);
    batches.push(b);
  });
  const ids = () => batches.flatMap((b) => b.rooms.join.get(R)?.timeline.events.map((e) => e.event_id) ?? []);
  return { store, logger, processor, batches, ids };
}

describe("SyncProcessor", () => {
  it("persists before it emits; the first snapshot is saved at once, later ones when the throttle allows", async () => {
    const { store, processor } = setup();
    await processor.process(sync("s1", [message("a")]));
    await processor.process(sync("s2", [message("b")]), { since: "s1" });
    store.want = true;
    await processor.process(sync("s3", [message("c")]), { since: "s2" });
    expect(store.log).toEqual([
      "setSync s1",
      "save true",
      "emit s1",
      "emit s2",
      "setSync s3",
      "save false",
      "emit s3",
    ]);
    expect((await store.getSync())?.nextBatch).toBe("s3");
  });

  it("aborts a batch whose write fails, then emits it once with the refetched one, without duplicates", async () => {
    const { store, processor, ids, batches } = setup();
    await processor.process(sync("s1", [message("a")]));
    store.want = true;
    store.failSave = 1;
    const b = message("b");
    await expect(processor.process(sync("s2", [b]), { since: "s1" })).rejects.toBeInstanceOf(SyncWriteError);
    expect(batches.map((x) => x.nextBatch)).toEqual(["s1"]);
    // The loop fetches the same batch again: s2 is emitted once, with b.
    await processor.process(sync("s2", [b]), { since: "s1" });
    expect(batches.map((x) => x.nextBatch)).toEqual(["s1", "s2"]);
    expect(batches[1]?.rooms.join.get(R)?.timeline.events.map((e) => e.event_id)).toEqual([b.event_id]);
    expect(ids().filter((id) => id === b.event_id)).toHaveLength(1);
    expect(store.log.filter((l) => l.startsWith("emit"))).toEqual(["emit s1", "emit s2"]);
  });

  it("emits a failed batch and a newer refetched one in order, each event once", async () => {
    const { store, processor, ids, batches } = setup();
    const a = message("a");
    await processor.process(sync("s1", [a]));
    store.want = true;
    store.failSave = 1;
    const b = message("b");
    const c = message("c");
    await expect(processor.process(sync("s2", [b]), { since: "s1" })).rejects.toBeInstanceOf(SyncWriteError);
    // Meanwhile the server moved on: the refetch from s1 ends at s3 and holds b and c.
    await processor.process(sync("s3", [b, c]), { since: "s1" });
    expect(batches.map((x) => x.nextBatch)).toEqual(["s1", "s2", "s3"]);
    expect(ids()).toEqual([a.event_id, b.event_id, c.event_id]);
    expect((await store.getSync())?.nextBatch).toBe("s3");
  });

  it("keeps the write error as the cause", async () => {
    const { store, processor } = setup();
    store.failSave = 1;
    const error = await processor.process(sync("s1", [])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncWriteError);
    expect((error as Error).cause).toEqual(new Error("disk full"));
  });

  it("throws SyncParseError for an unusable answer and emits nothing", async () => {
    const { processor, batches } = setup();
    await expect(processor.process({ rooms: {} })).rejects.toBeInstanceOf(SyncParseError);
    await expect(processor.process("<html>")).rejects.toBeInstanceOf(SyncParseError);
    expect(batches).toEqual([]);
    expect(processor.nextBatch).toBeUndefined();
  });

  it("emits what the decrypt hook returns but persists the events as received", async () => {
    const encrypted = message("x", { type: "m.room.encrypted", content: { ciphertext: "zzz" } });
    const { store, processor, batches } = setup(new ControlledStore(), (batch) => {
      const room = batch.rooms.join.get(R);
      if (!room) return Promise.resolve(batch);
      const events = room.timeline.events.map((e) =>
        e.type === "m.room.encrypted" ? { ...e, type: "m.room.message", content: { body: "secret" } } : e,
      );
      const join = new Map(batch.rooms.join).set(R, { ...room, timeline: { ...room.timeline, events } });
      return Promise.resolve({ ...batch, rooms: { ...batch.rooms, join } });
    });
    await processor.process(sync("s1", [encrypted]));
    expect(batches[0]?.rooms.join.get(R)?.timeline.events[0]?.content).toEqual({ body: "secret" });
    expect(JSON.stringify(await store.getSync())).not.toContain("secret");
    expect(JSON.stringify(await store.getSync())).toContain("zzz");
  });

  it("aborts the batch when the decrypt hook throws, before anything is accumulated", async () => {
    const { processor, batches } = setup(new ControlledStore(), () => Promise.reject(new Error("olm")));
    await expect(processor.process(sync("s1", [message("a")]))).rejects.toThrow("olm");
    expect(processor.nextBatch).toBeUndefined();
    expect(batches).toEqual([]);
  });

  it("does not emit a timeline event the snapshot already holds", async () => {
    const { processor, ids } = setup();
    const a = message("a");
    const b = message("b");
    await processor.process(sync("s1", [a]));
    await processor.process(sync("s2", [a, b]), { since: "s1" });
    expect(ids()).toEqual([a.event_id, b.event_id]);
  });

  it("logs a failing subscriber and still emits to the others", async () => {
    const { processor, logger, batches } = setup();
    processor.subscribe(() => {
      throw new Error("boom");
    });
    const seen: string[] = [];
    processor.subscribe((b) => void seen.push(b.nextBatch));
    await processor.process(sync("s1", []));
    expect(seen).toEqual(["s1"]);
    expect(batches).toHaveLength(1);
    expect(logger.lines).toContain("Sync: subscriber failed");
  });

  it("surfaces to-device, device lists, key counts, presence and account data in the batch; stages presence", async () => {
    const { store, processor, batches } = setup();
    await processor.process({
      next_batch: "s1",
      to_device: { events: [{ type: "m.room_key", sender: "@b:x", content: { k: 1 } }] },
      device_lists: { changed: ["@b:x"], left: [] },
      device_one_time_keys_count: { signed_curve25519: 10 },
      device_unused_fallback_key_types: ["signed_curve25519"],
      presence: { events: [{ type: "m.presence", sender: "@b:x", content: { presence: "online" } }] },
      account_data: { events: [{ type: "m.direct", content: {} }] },
    });
    const batch = batches[0];
    expect(batch?.toDevice).toEqual([{ type: "m.room_key", sender: "@b:x", content: { k: 1 } }]);
    expect(batch?.deviceLists.changed).toEqual(["@b:x"]);
    expect(batch?.oneTimeKeysCount?.get("signed_curve25519")).toBe(10);
    expect(batch?.unusedFallbackKeyTypes).toEqual(["signed_curve25519"]);
    expect(batch?.presence[0]?.sender).toBe("@b:x");
    expect(batch?.accountData).toEqual([{ type: "m.direct", content: {} }]);
    expect((await store.getUsers())[0]).toMatchObject({
      userId: "@b:x",
      presence: { content: { presence: "online" } },
    });
    expect(await store.getAccountData()).toEqual([{ type: "m.direct", content: {} }]);
  });

  it("restores the stored snapshot as a first batch and continues from its token", async () => {
    const store = new ControlledStore();
    const first = setup(store);
    const a = message("a");
    await first.processor.process(sync("s1", [a]));
    await first.processor.process(sync("s2", [message("b")]), { since: "s1" });
    await first.processor.stop();

    const second = setup(store);
    const token = await second.processor.restore();
    expect(token).toBe("s2");
    expect(second.batches[0]?.fromCache).toBe(true);
    expect(second.ids()).toHaveLength(2);
    // The server answers from s2 with one old event again and one new.
    const c = message("c");
    await second.processor.process(sync("s3", [a, c]), { since: "s2" });
    expect(second.ids().filter((id) => id === a.event_id)).toHaveLength(1);
    expect(second.ids()).toContain(c.event_id);
  });

  it("restores a large snapshot in parts, yielding to the main thread between them, to the same batch", async () => {
    const store = new ControlledStore();
    const first = setup(store);
    const join: Record<string, unknown> = {};
    const seventh = message("m7");
    for (let i = 0; i < 40; i++)
      join[`!r${i}:x`] = {
        timeline: { events: [i === 7 ? seventh : message(`m${i}`)], prev_batch: `p${i}` },
      };
    await first.processor.process({ next_batch: "s1", rooms: { join } });
    await first.processor.stop();

    const restoreWith = async (step: number) => {
      let clock = 0;
      const order: string[] = [];
      const processor = new SyncProcessor({
        store,
        logger: recordingLogger(),
        // Each look at the clock is `step` ms later: a part ends once RESTORE_BUDGET_MS have passed.
        now: () => (clock += step),
        yieldToMain: () => {
          order.push("yield");
          return Promise.resolve();
        },
      });
      const batches: ProcessedSync[] = [];
      processor.subscribe((b) => {
        order.push("emit");
        batches.push(b);
      });
      expect(await processor.restore()).toBe("s1");
      return { order, batch: batches[0] };
    };
    const slow = await restoreWith(5);
    const fast = await restoreWith(0);
    expect(slow.order.filter((o) => o === "yield").length).toBeGreaterThan(5);
    expect(slow.order.at(-1)).toBe("emit");
    expect(fast.order).toEqual(["emit"]);
    expect(slow.batch?.rooms.join.size).toBe(40);
    expect([...(slow.batch?.rooms.join.keys() ?? [])]).toEqual([...(fast.batch?.rooms.join.keys() ?? [])]);
    expect(slow.batch?.rooms.join.get("!r7:x")?.timeline.events.map((e) => e.event_id)).toEqual([
      seventh.event_id,
    ]);
  });

  it("returns undefined and logs when there is no snapshot or it cannot be read", async () => {
    const { processor } = setup();
    expect(await processor.restore()).toBeUndefined();
    const store = new ControlledStore();
    store.setSync({ nextBatch: "s", roomsData: { version: 0 } });
    const broken = setup(store);
    expect(await broken.processor.restore()).toBeUndefined();
    expect(broken.logger.lines).toContain("Sync: discarding the stored sync snapshot");
    expect(broken.batches).toEqual([]);
  });

  it("flush forces a save of the latest snapshot (page hide), even inside the throttle", async () => {
    const { store, processor } = setup();
    await processor.process(sync("s1", [message("a")]));
    await processor.process(sync("s2", [message("b")]), { since: "s1" });
    expect((await store.getSync())?.nextBatch).toBe("s1");
    await processor.flush();
    expect(store.log.slice(-2)).toEqual(["setSync s2", "save true"]);
    expect((await store.getSync())?.nextBatch).toBe("s2");
  });

  it("runs the restored snapshot through the decrypt hook too", async () => {
    const store = new ControlledStore();
    const first = setup(store);
    await first.processor.process(
      sync("s1", [message("x", { type: "m.room.encrypted", content: { c: 1 } })]),
    );
    const seenByHook: string[] = [];
    const second = setup(store, (batch) => {
      for (const room of batch.rooms.join.values())
        seenByHook.push(...room.timeline.events.map((e) => e.type));
      return Promise.resolve(batch);
    });
    await second.processor.restore();
    expect(seenByHook).toEqual(["m.room.encrypted"]);
    expect(second.batches[0]?.fromCache).toBe(true);
  });
});
