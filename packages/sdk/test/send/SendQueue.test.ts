/**
 * The send queue on fake time with a scripted server: local echo and txn
 * ids, every status transition, order per room, blocking, cancel and resend
 * rules, and the encryption guard.
 */
import { describe, expect, it } from "vitest";
import { MatrixError } from "../../src/http/errors";
import { SendQueue } from "../../src/send";
import type { PendingEvent, SendQueueOptions } from "../../src/send";
import { MemoryStore } from "../../src/store/MemoryStore";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { batchWith, deferred, forbidden, ScriptedHttp, txnOf } from "./helpers";

const ROOM = "!room:x";

async function setup(options: Partial<SendQueueOptions> = {}) {
  const http = new ScriptedHttp();
  const scheduler = new FakeScheduler([0.5]);
  const store = new MemoryStore();
  const queue = new SendQueue({ http, store, scheduler, ...options });
  await queue.start();
  return { http, scheduler, store, queue };
}

/** Records every status the first event of a room's list shows. */
function statusLog(queue: SendQueue, roomId: string): Array<string | null> {
  const log: Array<string | null> = [];
  queue.room(roomId).subscribe((snapshot) => {
    const item = snapshot[0];
    const status = item ? item.status : "gone";
    if (log[log.length - 1] !== status) log.push(status);
  });
  return log;
}

const text = (body: string) => ({ msgtype: "m.text", body });

describe("local echo and transaction ids", () => {
  it("shows the event at once as queued, with an 'm' + timestamp + counter txn id", async () => {
    const { queue, scheduler } = await setup();
    const a = queue.send(ROOM, "m.room.message", text("one"));
    const b = queue.send(ROOM, "m.room.message", text("two"));
    expect(a.status).toBe("queued");
    expect(a.txnId).toBe(`m${scheduler.now()}.0`);
    expect(b.txnId).toBe(`m${scheduler.now()}.1`);
    expect(a.content).toEqual(text("one"));
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual([a.txnId, b.txnId]);
  });

  it("moves queued -> sending -> sent, and the remote echo removes the local echo", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = () => answer.promise;
    const log = statusLog(queue, ROOM);
    const echoes: string[] = [];
    queue.onRemoteEcho((e) => echoes.push(`${e.txnId}=${e.eventId}`));
    const txn = queue.send(ROOM, "m.room.message", text("hi")).txnId;
    await flush();
    expect(queue.get(txn)?.status).toBe("sending");
    expect(http.paths).toEqual([`/rooms/${ROOM}/send/m.room.message/${txn}`]);
    expect(http.requests[0]?.body).toEqual(text("hi"));
    answer.resolve({ event_id: "$real" });
    await flush();
    expect(queue.get(txn)).toMatchObject({ status: "sent", eventId: "$real" });
    queue.handleSync(batchWith(ROOM, [{ event_id: "$real", unsigned: { transaction_id: txn } }]));
    expect(queue.get(txn)).toBeUndefined();
    expect(queue.room(ROOM).getSnapshot()).toEqual([]);
    expect(log).toEqual(["queued", "sending", "sent", "gone"]);
    expect(echoes).toEqual([`${txn}=$real`]);
  });

  it("publishes the room's echoes as frozen snapshots with insert, update and remove diffs", async () => {
    const { queue } = await setup();
    const kinds: string[] = [];
    queue.room(ROOM).subscribe((_snapshot, diffs) => kinds.push(...diffs.map((d) => d.type)));
    const ev = queue.send(ROOM, "m.room.message", text("x"));
    expect(Object.isFrozen(queue.room(ROOM).getSnapshot())).toBe(true);
    expect(Object.isFrozen(ev)).toBe(true);
    await flush();
    queue.handleSync(
      batchWith(ROOM, [{ event_id: `$ev-${ev.txnId}`, unsigned: { transaction_id: ev.txnId } }]),
    );
    expect(kinds).toEqual(["insert", "update", "update", "remove"]);
  });

  it("an echo arriving before the PUT answers clears the status once, with no duplicate", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = () => answer.promise;
    const ev = queue.send(ROOM, "m.room.message", text("race"));
    await flush();
    const settled = queue.whenSettled(ev.txnId);
    queue.handleSync(batchWith(ROOM, [{ event_id: "$fast", unsigned: { transaction_id: ev.txnId } }]));
    expect(await settled).toMatchObject({ status: null, eventId: "$fast" });
    answer.resolve({ event_id: "$fast" });
    await flush();
    expect(queue.room(ROOM).getSnapshot()).toEqual([]);
    expect(http.requests).toHaveLength(1);
  });

  it("matches an echo by the event id the PUT returned when the txn id is missing", async () => {
    const { queue } = await setup();
    const ev = queue.send(ROOM, "m.room.message", text("x"));
    await flush();
    const eventId = queue.get(ev.txnId)?.eventId;
    expect(eventId).toBe(`$ev-${ev.txnId}`);
    queue.handleSync(batchWith(ROOM, [{ event_id: eventId }]));
    expect(queue.get(ev.txnId)).toBeUndefined();
  });

  it("ignores other people's events and other rooms", async () => {
    const { queue } = await setup();
    const ev = queue.send(ROOM, "m.room.message", text("x"));
    await flush();
    queue.handleSync(
      batchWith("!other:x", [{ event_id: "$ev-" + ev.txnId, unsigned: { transaction_id: ev.txnId } }]),
    );
    queue.handleSync(batchWith(ROOM, [{ event_id: "$someone", unsigned: { transaction_id: "m1.0" } }]));
    expect(queue.get(ev.txnId)?.status).toBe("sent");
  });
});

describe("order per room", () => {
  it("sends a room's events one after another, other rooms in parallel", async () => {
    const { queue, http } = await setup();
    const answers = new Map<string, ReturnType<typeof deferred<unknown>>>();
    http.handler = (o) => {
      const d = deferred<unknown>();
      answers.set(txnOf(o), d);
      return d.promise;
    };
    const a = queue.send(ROOM, "m.room.message", text("a"));
    const b = queue.send(ROOM, "m.room.message", text("b"));
    const c = queue.send("!other:x", "m.room.message", text("c"));
    await flush();
    expect(http.requests.map(txnOf)).toEqual([a.txnId, c.txnId]);
    expect(queue.get(b.txnId)?.status).toBe("queued");
    answers.get(a.txnId)?.resolve({ event_id: "$a" });
    await flush();
    expect(http.requests.map(txnOf)).toEqual([a.txnId, c.txnId, b.txnId]);
  });

  it("a failure blocks the events behind it; resending the failed one sends all in order", async () => {
    const { queue, http } = await setup();
    let refuse = true;
    http.handler = (o) =>
      refuse ? Promise.reject(forbidden()) : Promise.resolve({ event_id: `$${txnOf(o)}` });
    const a = queue.send(ROOM, "m.room.message", text("a"));
    const b = queue.send(ROOM, "m.room.message", text("b"));
    await flush();
    const failedA = queue.get(a.txnId);
    expect(failedA?.status).toBe("not_sent");
    expect(failedA?.failure?.kind).toBe("forbidden");
    expect(failedA?.failure?.message).toBe("You don't have permission to send this");
    expect(failedA?.failure?.error).toBeInstanceOf(MatrixError);
    expect((failedA?.failure?.error as MatrixError).errcode).toBe("M_FORBIDDEN");
    expect(queue.get(b.txnId)).toMatchObject({
      status: "not_sent",
      failure: { kind: "blocked", message: "Event blocked by other events not yet sent" },
    });
    expect(http.requests).toHaveLength(1);
    expect(() => queue.resend(b.txnId)).toThrow("Event blocked by other events not yet sent");
    refuse = false;
    queue.resend(a.txnId);
    expect(queue.get(b.txnId)?.status).toBe("queued");
    await flush();
    expect(http.requests.map(txnOf)).toEqual([a.txnId, a.txnId, b.txnId]);
    expect(queue.get(a.txnId)?.status).toBe("sent");
    expect(queue.get(b.txnId)?.status).toBe("sent");
  });

  it("a later send behind a failed event is blocked at once", async () => {
    const { queue, http } = await setup();
    http.handler = () => Promise.reject(forbidden());
    queue.send(ROOM, "m.room.message", text("a"));
    await flush();
    const late = queue.send(ROOM, "m.room.message", text("late"));
    await flush();
    expect(queue.get(late.txnId)?.failure?.message).toBe("Event blocked by other events not yet sent");
    expect(http.requests).toHaveLength(1);
  });
});

describe("cancel", () => {
  it("cancels queued and not_sent events, refuses sending and sent ones", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = () => answer.promise;
    const a = queue.send(ROOM, "m.room.message", text("a"));
    const b = queue.send(ROOM, "m.room.message", text("b"));
    await flush();
    expect(() => queue.cancel(a.txnId)).toThrow("Events in other states cannot be cancelled");
    const settled = queue.whenSettled(b.txnId);
    queue.cancel(b.txnId);
    expect((await settled)?.status).toBe("cancelled");
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual([a.txnId]);
    answer.resolve({ event_id: "$a" });
    await flush();
    expect(() => queue.cancel(a.txnId)).toThrow("Events in other states cannot be cancelled");
    expect(http.requests.map(txnOf)).toEqual([a.txnId]);
  });

  it("cancelling a failed event lets the events it blocked go", async () => {
    const { queue, http } = await setup();
    let refuse = true;
    http.handler = () => (refuse ? Promise.reject(forbidden()) : Promise.resolve({ event_id: "$ok" }));
    const a = queue.send(ROOM, "m.room.message", text("a"));
    const b = queue.send(ROOM, "m.room.message", text("b"));
    await flush();
    refuse = false;
    queue.cancel(a.txnId);
    await flush();
    expect(queue.get(a.txnId)).toBeUndefined();
    expect(queue.get(b.txnId)?.status).toBe("sent");
  });

  it("refuses unknown txn ids and resends of events that did not fail", async () => {
    const { queue, http } = await setup();
    http.handler = () => new Promise(() => undefined);
    const a = queue.send(ROOM, "m.room.message", text("a"));
    expect(() => queue.cancel("__proto__")).toThrow(/No pending event/);
    await flush();
    expect(() => queue.resend(a.txnId)).toThrow(/Only events that failed/);
  });
});

describe("encryption", () => {
  it("refuses to send into an encrypted room without an encrypt function", async () => {
    const { queue, http } = await setup({ isRoomEncrypted: (r) => r === ROOM });
    const ev = queue.send(ROOM, "m.room.message", text("secret"));
    await flush();
    expect(queue.get(ev.txnId)?.failure).toEqual({
      kind: "encryption_unsupported",
      message: "This room is configured to use encryption, but your client does not support encryption.",
    });
    expect(http.requests).toHaveLength(0);
  });

  it("learns m.room.encryption from sync batches", async () => {
    const { queue, http } = await setup();
    queue.handleSync(batchWith(ROOM, [], [{ type: "m.room.encryption", state_key: "", content: {} }]));
    const ev = queue.send(ROOM, "m.room.message", text("secret"));
    const plain = queue.send("!plain:x", "m.room.message", text("open"));
    await flush();
    expect(queue.get(ev.txnId)?.failure?.message).toBe(
      "This room is configured to use encryption, but your client does not support encryption.",
    );
    expect(queue.get(plain.txnId)?.status).toBe("sent");
    expect(http.requests).toHaveLength(1);
  });

  it("encrypts (status encrypting) and sends the encrypted event under the same txn id", async () => {
    const encryption = deferred<{ type: string; content: Record<string, unknown> }>();
    const calls: unknown[] = [];
    const { queue, http } = await setup({
      isRoomEncrypted: () => true,
      encrypt: (roomId, type, content) => {
        calls.push([roomId, type, content]);
        return encryption.promise;
      },
    });
    const ev = queue.send(ROOM, "m.room.message", text("secret"));
    await flush();
    expect(queue.get(ev.txnId)?.status).toBe("encrypting");
    expect(calls).toEqual([[ROOM, "m.room.message", text("secret")]]);
    encryption.resolve({ type: "m.room.encrypted", content: { ciphertext: "xyz" } });
    await flush();
    expect(http.paths).toEqual([`/rooms/${ROOM}/send/m.room.encrypted/${ev.txnId}`]);
    expect(http.requests[0]?.body).toEqual({ ciphertext: "xyz" });
    // The local echo keeps the plaintext.
    expect(queue.get(ev.txnId)).toMatchObject({ status: "sent", content: text("secret") });
  });

  it("an event cancelled while encrypting is never sent; a failed encryption is not_sent", async () => {
    const encryption = deferred<{ type: string; content: Record<string, unknown> }>();
    let fail = false;
    const { queue, http } = await setup({
      isRoomEncrypted: () => true,
      encrypt: () => (fail ? Promise.reject(new Error("no session")) : encryption.promise),
    });
    const ev = queue.send(ROOM, "m.room.message", text("secret"));
    await flush();
    queue.cancel(ev.txnId);
    encryption.resolve({ type: "m.room.encrypted", content: {} });
    await flush();
    expect(http.requests).toHaveLength(0);
    fail = true;
    const next = queue.send(ROOM, "m.room.message", text("again"));
    await flush();
    expect(queue.get(next.txnId)?.failure?.kind).toBe("encryption_failed");
  });
});

describe("redactions and reactions", () => {
  it("redacting a local echo that has not left just cancels it", async () => {
    const { queue, http } = await setup();
    http.handler = () => new Promise(() => undefined);
    queue.send(ROOM, "m.room.message", text("first"));
    const ev = queue.send(ROOM, "m.room.message", text("oops"));
    expect(queue.redact(ROOM, ev.txnId, "typo")).toBeNull();
    await flush();
    expect(queue.get(ev.txnId)).toBeUndefined();
    expect(http.requests).toHaveLength(1);
  });

  it("redacts a sent event with its own txn id, and a sending local echo once its id is known", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = (o) =>
      o.path.includes("/send/") ? answer.promise : Promise.resolve({ event_id: "$redaction" });
    const ev = queue.send(ROOM, "m.room.message", text("regret"));
    await flush();
    const redaction = queue.redact(ROOM, ev.txnId, "gone") as PendingEvent;
    expect(redaction).toMatchObject({ kind: "redaction", status: "queued", redacts: ev.txnId });
    expect(redaction.txnId).not.toBe(ev.txnId);
    answer.resolve({ event_id: "$regret" });
    await flush();
    expect(http.paths[1]).toBe(`/rooms/${ROOM}/redact/$regret/${redaction.txnId}`);
    expect(http.requests[1]?.body).toEqual({ reason: "gone" });
    expect(queue.get(redaction.txnId)).toMatchObject({ status: "sent", redacts: "$regret" });
    const other = queue.redact(ROOM, "$someone-else") as PendingEvent;
    await flush();
    expect(http.paths[2]).toBe(`/rooms/${ROOM}/redact/$someone-else/${other.txnId}`);
    expect(http.requests[2]?.body).toEqual({});
  });

  it("sends reactions as m.annotation, pointing at a local echo's event id once sent", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = (o) =>
      http.requests.length === 1 ? answer.promise : Promise.resolve({ event_id: `$${txnOf(o)}` });
    const ev = queue.send(ROOM, "m.room.message", text("nice"));
    await flush();
    const reaction = queue.react(ROOM, ev.txnId, "👍");
    answer.resolve({ event_id: "$nice" });
    await flush();
    expect(http.paths[1]).toBe(`/rooms/${ROOM}/send/m.reaction/${reaction.txnId}`);
    expect(http.requests[1]?.body).toEqual({
      "m.relates_to": { rel_type: "m.annotation", event_id: "$nice", key: "👍" },
    });
    queue.react(ROOM, "$known", "🎉");
    await flush();
    expect((http.requests[2]?.body as Record<string, unknown>)["m.relates_to"]).toMatchObject({
      event_id: "$known",
    });
  });

  it("sends an edit of a local echo still on its way, pointing at its event id once known", async () => {
    const { queue, http } = await setup();
    const answer = deferred<unknown>();
    http.handler = (o) =>
      http.requests.length === 1 ? answer.promise : Promise.resolve({ event_id: `$${txnOf(o)}` });
    const ev = queue.send(ROOM, "m.room.message", text("tpyo"));
    await flush();
    expect(queue.get(ev.txnId)?.status).toBe("sending");
    const edit = {
      msgtype: "m.text",
      body: "* typo",
      "m.new_content": text("typo"),
      "m.relates_to": { rel_type: "m.replace", event_id: ev.txnId },
    };
    const pending = queue.sendRelated(ROOM, "m.room.message", edit, ev.txnId);
    expect(pending.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: ev.txnId });
    await flush();
    expect(http.requests).toHaveLength(1);
    answer.resolve({ event_id: "$tpyo" });
    await flush();
    expect(http.paths[1]).toBe(`/rooms/${ROOM}/send/m.room.message/${pending.txnId}`);
    expect(http.requests[1]?.body).toEqual({
      ...edit,
      "m.relates_to": { rel_type: "m.replace", event_id: "$tpyo" },
    });
    // A sent target (or a plain event id) is pointed at directly.
    queue.sendRelated(ROOM, "m.room.message", edit, ev.txnId);
    queue.sendRelated(ROOM, "m.room.message", edit, "$known");
    await flush();
    const targets = http.requests.slice(2).map((r) => (r.body as Record<string, unknown>)["m.relates_to"]);
    expect(targets).toEqual([
      { rel_type: "m.replace", event_id: "$tpyo" },
      { rel_type: "m.replace", event_id: "$known" },
    ]);
  });

  it("an edit of a local echo that gets cancelled is cancelled too", async () => {
    const { queue, http } = await setup();
    http.handler = () => Promise.reject(forbidden());
    queue.send(ROOM, "m.room.message", text("first"));
    await flush();
    const ev = queue.send(ROOM, "m.room.message", text("nice"));
    const edit = queue.sendRelated(
      ROOM,
      "m.room.message",
      { "m.relates_to": { rel_type: "m.replace" } },
      ev.txnId,
    );
    queue.cancel(ev.txnId);
    expect(queue.get(edit.txnId)).toBeUndefined();
  });

  it("a reaction to a local echo that gets cancelled is cancelled too", async () => {
    const { queue, http } = await setup();
    http.handler = () => Promise.reject(forbidden());
    const first = queue.send(ROOM, "m.room.message", text("first"));
    await flush();
    const ev = queue.send(ROOM, "m.room.message", text("nice"));
    const reaction = queue.react(ROOM, ev.txnId, "👍");
    queue.cancel(ev.txnId);
    expect(queue.get(reaction.txnId)).toBeUndefined();
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual([first.txnId]);
  });
});

describe("hidden events (call signalling)", () => {
  it("are encrypted and sent in order, but show no local echo and are not persisted", async () => {
    const { queue, http, store } = await setup({
      isRoomEncrypted: () => true,
      encrypt: (_roomId, type, content) =>
        Promise.resolve({ type: "m.room.encrypted", content: { was: type, ...content } }),
    });
    const shown: string[] = [];
    queue.room(ROOM).subscribe((list) => shown.push(...list.map((e) => e.type)));
    const answer = deferred<unknown>();
    const reply = http.handler;
    http.handler = async (o) => {
      await answer.promise;
      return reply(o);
    };
    const message = queue.send(ROOM, "m.room.message", text("hi"));
    const key = queue.send(ROOM, "io.element.call.encryption_keys", { keys: [] }, { hidden: true });
    await flush();
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual([message.txnId]);
    expect((await store.getPendingEvents()).map((e) => e.txnId)).toEqual([message.txnId]);
    answer.resolve(undefined);
    const settled = await queue.whenSettled(key.txnId);
    expect(settled).toMatchObject({ status: "sent", eventId: `$ev-${key.txnId}` });
    expect(http.paths).toEqual([
      `/rooms/${ROOM}/send/m.room.encrypted/${message.txnId}`,
      `/rooms/${ROOM}/send/m.room.encrypted/${key.txnId}`,
    ]);
    expect(http.requests[1]?.body).toEqual({ was: "io.element.call.encryption_keys", keys: [] });
    expect(shown).not.toContain("io.element.call.encryption_keys");
    queue.handleSync(
      batchWith(ROOM, [{ event_id: `$ev-${key.txnId}`, unsigned: { transaction_id: key.txnId } }]),
    );
    expect(queue.get(key.txnId)).toBeUndefined();
    expect(
      queue
        .room(ROOM)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual([message.txnId]);
  });
});

describe("persisted order", () => {
  it("gives events sent in the same millisecond increasing seqs, so a reload keeps their order", async () => {
    const { queue, http, store, scheduler } = await setup();
    const answer = deferred<unknown>();
    http.handler = () => answer.promise;
    const now = scheduler.now();
    const sent = ["a", "b", "c"].map((body) => queue.send(ROOM, "m.room.message", text(body)).txnId);
    expect(scheduler.now()).toBe(now);
    await flush();
    const stored = await store.getPendingEvents();
    expect(stored.map((e) => e.txnId)).toEqual(sent);
    const seqs = stored.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(3);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    queue.dispose();
  });
});
