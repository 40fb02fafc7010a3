/**
 * Persistence of the send queue: every pending event is in the store before
 * its first PUT, leaves it once the server accepted it, and a new queue on
 * the same store (a reload) sends what was left exactly once, with the same
 * txn ids and in the same order.
 */
import { describe, expect, it } from "vitest";
import { SendQueue } from "../../src/send";
import { MemoryStore } from "../../src/store/MemoryStore";
import type { Store } from "../../src/store/Store";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { batchWith, deferred, forbidden, networkError, ScriptedHttp, txnOf } from "./helpers";

const ROOM = "!room:x";

function queueOn(store: Store, http = new ScriptedHttp()) {
  const scheduler = new FakeScheduler([0.5]);
  return { queue: new SendQueue({ http, store, scheduler, retry: { maxAttempts: 1 } }), http, scheduler };
}

describe("persistence", () => {
  it("stores an event before its PUT and removes it once the server accepted it", async () => {
    const store = new MemoryStore();
    const http = new ScriptedHttp();
    const answer = deferred<unknown>();
    let storedAtPut: unknown[] = [];
    http.handler = async () => {
      storedAtPut = await store.getPendingEvents();
      return answer.promise;
    };
    const { queue } = queueOn(store, http);
    await queue.start();
    const ev = queue.send(ROOM, "m.room.message", { body: "hi" });
    await flush();
    expect(storedAtPut).toEqual([
      expect.objectContaining({ txnId: ev.txnId, roomId: ROOM, kind: "event", content: { body: "hi" } }),
    ]);
    answer.resolve({ event_id: "$hi" });
    await flush();
    expect(await store.getPendingEvents()).toEqual([]);
  });

  it("keeps a failed event with its reason", async () => {
    const store = new MemoryStore();
    const { queue, http } = queueOn(store);
    http.handler = () => Promise.reject(forbidden());
    await queue.start();
    const ev = queue.send(ROOM, "m.room.message", { body: "no" });
    await flush();
    const [stored] = await store.getPendingEvents();
    expect(stored).toMatchObject({
      txnId: ev.txnId,
      status: "not_sent",
      failure: { kind: "forbidden", message: "You don't have permission to send this" },
    });
  });

  it("a reload resends what was pending with the same txn ids, in order, before new sends", async () => {
    const store = new MemoryStore();
    const first = queueOn(store);
    first.http.handler = () => new Promise(() => undefined);
    await first.queue.start();
    const a = first.queue.send(ROOM, "m.room.message", { body: "a" });
    const b = first.queue.send(ROOM, "m.room.message", { body: "b" });
    const c = first.queue.send("!other:x", "m.reaction", { body: "c" });
    await flush();
    first.queue.dispose();

    const second = queueOn(store);
    // The reload happens later: new txn ids get a later timestamp.
    await second.scheduler.advance(5_000);
    const d = second.queue.send(ROOM, "m.room.message", { body: "d" });
    await flush();
    expect(second.http.requests).toHaveLength(0);
    await second.queue.start();
    await flush();
    const sent = second.http.requests.map(txnOf);
    expect(sent.filter((t) => t !== c.txnId)).toEqual([a.txnId, b.txnId, d.txnId]);
    expect(sent).toContain(c.txnId);
    expect(
      second.queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => [e.txnId, e.status]),
    ).toEqual([
      [a.txnId, "sent"],
      [b.txnId, "sent"],
      [d.txnId, "sent"],
    ]);
    expect(await store.getPendingEvents()).toEqual([]);
  });

  it("after a reload, a refused event stays not_sent; one that lacked a connection goes again", async () => {
    const store = new MemoryStore();
    const first = queueOn(store);
    first.http.handler = (o) => Promise.reject(o.path.includes("refused") ? forbidden() : networkError());
    await first.queue.start();
    const refused = first.queue.send("!refused:x", "m.room.message", { body: "r" });
    const offline = first.queue.send(ROOM, "m.room.message", { body: "o" });
    await flush();
    expect(first.queue.get(offline.txnId)?.failure?.kind).toBe("unreachable");
    first.queue.dispose();

    const second = queueOn(store);
    await second.queue.start();
    await flush();
    expect(second.queue.get(refused.txnId)).toMatchObject({
      status: "not_sent",
      failure: { kind: "forbidden", message: "You don't have permission to send this" },
    });
    expect(second.queue.get(offline.txnId)?.status).toBe("sent");
    expect(second.http.requests.map(txnOf)).toEqual([offline.txnId]);
  });

  it("a redaction of a local echo survives a reload pointing at the event id it learnt", async () => {
    const store = new MemoryStore();
    const first = queueOn(store);
    first.http.handler = (o) =>
      o.path.includes("/redact/") ? new Promise(() => undefined) : Promise.resolve({ event_id: "$target" });
    await first.queue.start();
    const answer = deferred<unknown>();
    const handler = first.http.handler;
    first.http.handler = (o) => (o.path.includes("/send/") ? answer.promise : handler(o));
    const ev = first.queue.send(ROOM, "m.room.message", { body: "x" });
    await flush();
    const redaction = first.queue.redact(ROOM, ev.txnId);
    answer.resolve({ event_id: "$target" });
    await flush();
    first.queue.dispose();

    const second = queueOn(store);
    await second.queue.start();
    await flush();
    expect(second.http.requests.map((r) => decodeURIComponent(r.path))).toEqual([
      `/rooms/${ROOM}/redact/$target/${redaction?.txnId ?? ""}`,
    ]);
  });

  it("skips records it cannot read instead of crashing", async () => {
    const store = new MemoryStore();
    await store.putPendingEvent({ txnId: "bad", roomId: ROOM, seq: "x", kind: "event" } as never);
    await store.putPendingEvent({
      txnId: "worse",
      roomId: ROOM,
      seq: 1,
      kind: "other",
      content: {},
    } as never);
    await store.putPendingEvent({
      txnId: "good",
      roomId: ROOM,
      seq: 2,
      kind: "event",
      eventType: "m.room.message",
      content: { body: "ok" },
      status: "sending",
      createdAt: 1,
    });
    const { queue, http } = queueOn(store);
    await queue.start();
    await flush();
    expect(http.requests.map(txnOf)).toEqual(["good"]);
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual(["good"]);
  });

  it("an event whose echo the cached sync delivers before the queue restores it is not sent again", async () => {
    const store = new MemoryStore();
    const first = queueOn(store);
    first.http.handler = () => new Promise(() => undefined);
    await first.queue.start();
    const ev = first.queue.send(ROOM, "m.room.message", { body: "made it" });
    await flush();
    first.queue.dispose();

    const second = queueOn(store);
    const echoes: string[] = [];
    second.queue.onRemoteEcho((e) => echoes.push(e.eventId));
    second.queue.handleSync(batchWith(ROOM, [{ event_id: "$made", unsigned: { transaction_id: ev.txnId } }]));
    await second.queue.start();
    await flush();
    expect(second.http.requests).toHaveLength(0);
    expect(second.queue.room(ROOM).getSnapshot()).toEqual([]);
    expect(echoes).toEqual(["$made"]);
    expect(await store.getPendingEvents()).toEqual([]);
  });
});
