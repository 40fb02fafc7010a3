/**
 * The timeline view model over HTTP against the test homeserver: alice
 * reads through ClientViewModel (fake-indexeddb), bob writes through the
 * SDK's createClient. Paging back to the start with date separators and
 * grouping, read receipts sent and shown, typing, local echo states
 * (sending, failed with a reason, retried), reactions toggled, redaction,
 * an edit shown with its history, membership runs summarised, and a jump
 * to an event that is not loaded.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { createClient, createHttpClient, loginWithPassword, Session } from "../sdk";
import type { Client } from "../sdk";
import { ClientViewModel } from "./ClientViewModel";
import type { TimelineViewModel } from "./TimelineViewModel";
import type { MessageRow, PendingRow, StateRow, TimelineRow } from "./timeline/rows";
import { until as poll } from "./rooms/testing";

let server: TestServerHandle;
let alice: ClientViewModel;
let bob: Client;
let roomId: string;

/** The shared poll, with these tests' 15 s bound. */
const until = (check: () => boolean, what: string, timeoutMs = 15_000): Promise<true> =>
  poll(check, what, timeoutMs);

async function signIn(user: string): Promise<Session> {
  const session = new Session(new MemorySessionStorage());
  const http = createHttpClient({ baseUrl: server.url, retry: false });
  await session.signIn(await loginWithPassword(http, { userId: user }, `lattice-${user}`));
  return session;
}

const messages = (rows: readonly TimelineRow[]): MessageRow[] =>
  rows.filter((r): r is MessageRow => r.kind === "message");
const bodyOf = (r: MessageRow): unknown => r.item.content["body"];

async function send(body: string, extra: Record<string, unknown> = {}): Promise<string> {
  const p = bob.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body, ...extra });
  const settled = await bob.sendQueue.whenSettled(p.txnId);
  if (settled?.eventId === undefined) throw new Error(`not sent: ${body}`);
  return settled.eventId;
}

function timeline(): TimelineViewModel {
  const vm = alice.room.getSnapshot()?.timeline;
  if (vm === undefined) throw new Error("no open room");
  return vm;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.url, { historySize: 2, log: () => undefined });
  bob = createClient({ session: await signIn("bob"), crypto: false, httpOptions: { retry: false } });
  await bob.start();
  const created = await bob.http.request<{ room_id: string }>({
    method: "POST",
    path: "/createRoom",
    body: { name: "Timeline test", preset: "public_chat" },
  });
  roomId = created.room_id;
  await until(() => bob.rooms.find(roomId) !== undefined, "bob's room");
  for (let i = 0; i < 70; i++) await send(`history ${i}`);
  alice = new ClientViewModel({
    session: await signIn("alice"),
    indexedDB: new IDBFactory(),
    platformScope: {},
  });
  await alice.start();
  await alice.client.moderation.join(roomId);
  await until(() => alice.client.rooms.find(roomId)?.getSnapshot().category === "join", "alice joined");
  alice.roomList.select(roomId);
  await until(() => timeline().loading.getSnapshot() === false, "the timeline");
}, 90_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

describe("TimelineViewModel", () => {
  it("shows the newest events grouped under a date, and pages back to the start", async () => {
    const vm = timeline();
    const first = messages(vm.rows.getSnapshot());
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(70);
    expect(bodyOf(first[first.length - 1] as MessageRow)).toBe("history 69");
    // One sender, one minute: every message after the first of a run continues it.
    expect(first.slice(1).every((r) => r.continued)).toBe(true);
    expect(vm.rows.getSnapshot()[0]).toHaveProperty("day");
    // Alice's join is a state line.
    const joins = vm.rows.getSnapshot().filter((r): r is StateRow => r.kind === "state");
    expect(joins.some((r) => r.text.includes("joined"))).toBe(true);
    for (let i = 0; i < 10 && !vm.atStart.getSnapshot(); i++) await vm.loadOlder();
    expect(vm.atStart.getSnapshot()).toBe(true);
    const all = messages(vm.rows.getSnapshot());
    expect(all.map(bodyOf)).toEqual(Array.from({ length: 70 }, (_, i) => `history ${i}`));
    expect(
      vm.rows
        .getSnapshot()
        .some((r) => r.kind === "state" && r.text === "Bob Builder created and configured the room."),
    ).toBe(true);
  });

  it("sends a read receipt for a visible event, and shows bob's receipt", async () => {
    const vm = timeline();
    const last = messages(vm.rows.getSnapshot()).at(-1)?.item.eventId ?? "";
    vm.markVisible(last);
    await until(
      () => bob.rooms.find(roomId)?.getSnapshot().receipts.of(alice.userId)?.eventId === last,
      "alice's receipt at bob",
    );
    await bob.receipts.sendReceipt(roomId, last);
    await until(
      () => messages(timeline().rows.getSnapshot()).at(-1)?.readers.includes(bob.userId) === true,
      "bob's receipt shown",
    );
  });

  it("shows who is typing", async () => {
    await bob.typing.setTyping(roomId, true);
    await until(() => timeline().typing.getSnapshot() === "Bob Builder is typing…", "typing");
    await bob.typing.setTyping(roomId, false);
    await until(() => timeline().typing.getSnapshot() === null, "typing stopped");
  });

  it("shows a local echo while sending, the failure with its reason, then the retried message", async () => {
    const vm = timeline();
    server.faults.add({
      path: /\/send\/m\.room\.message\//,
      method: "PUT",
      status: 403,
      errcode: "M_FORBIDDEN",
      times: 1,
    });
    const p = alice.client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "echo me" });
    const pendingRow = (): PendingRow | undefined =>
      vm.rows.getSnapshot().find((r): r is PendingRow => r.kind === "pending" && r.pending.txnId === p.txnId);
    await until(() => pendingRow() !== undefined, "the local echo");
    await until(() => pendingRow()?.pending.status === "not_sent", "the failure");
    expect(pendingRow()?.pending.failure?.message.length).toBeGreaterThan(0);
    vm.actions.resend(p.txnId);
    await until(
      () => messages(vm.rows.getSnapshot()).some((r) => bodyOf(r) === "echo me"),
      "the remote echo",
    );
    expect(pendingRow()).toBeUndefined();
    // A cancelled failure goes away.
    server.faults.add({
      path: /\/send\/m\.room\.message\//,
      method: "PUT",
      status: 403,
      errcode: "M_FORBIDDEN",
      times: 1,
    });
    const q = alice.client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "never" });
    await until(
      () => vm.rows.getSnapshot().some((r) => r.kind === "pending" && r.pending.status === "not_sent"),
      "fail",
    );
    vm.actions.cancel(q.txnId);
    await until(
      () => !vm.rows.getSnapshot().some((r) => r.kind === "pending" && r.pending.txnId === q.txnId),
      "gone",
    );
  });

  it("toggles a reaction, deletes a message, and shows an edit with its history", async () => {
    let vm = timeline();
    const target = await send("react to me");
    await until(() => vm.find(target) !== undefined, "the message");
    vm.actions.toggleReaction(target, "👍");
    await until(
      () => vm.find(target)?.reactions[0]?.senders.includes(alice.userId) === true,
      "reaction added",
    );
    const item = vm.find(target);
    expect(item !== undefined && vm.actions.hasReacted(item, "👍")).toBe(true);
    const reactionId = vm.find(target)?.reactions[0]?.events[0]?.event_id ?? "";
    vm.actions.toggleReaction(target, "👍");
    await until(() => vm.find(target)?.reactions.length === 0, "reaction removed");
    // The removed (redacted) reaction is no item of its own, in the SDK's window or the rows.
    expect(vm.find(reactionId)).toBeUndefined();
    expect(vm.rows.getSnapshot().some((r) => r.kind === "message" && r.item.eventId === reactionId)).toBe(
      false,
    );
    // Nor in a timeline opened afresh from the room's kept events (the reaction now redacted there).
    alice.roomList.select(null);
    alice.roomList.select(roomId);
    await until(() => timeline() !== vm && !timeline().loading.getSnapshot(), "the reopened timeline");
    vm = timeline();
    await until(() => vm.find(target) !== undefined, "the message again");
    expect(vm.find(reactionId)).toBeUndefined();
    expect(vm.find(target)?.reactions).toEqual([]);
    // Back to the start again, as the later tests expect of the open timeline.
    for (let i = 0; i < 10 && !vm.atStart.getSnapshot(); i++) await vm.loadOlder();

    // Alice created nothing here but bob's room gives moderators the power; alice may delete her own.
    const own = alice.client.sendQueue.send(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "delete me",
    });
    const ownId = (await alice.client.sendQueue.whenSettled(own.txnId))?.eventId ?? "";
    await until(() => vm.find(ownId) !== undefined, "own message");
    const ownItem = vm.find(ownId);
    expect(ownItem !== undefined && vm.actions.canRedact(ownItem)).toBe(true);
    const bobItem = vm.find(target);
    expect(bobItem !== undefined && vm.actions.canRedact(bobItem)).toBe(false);
    vm.actions.redact(ownId, "typo");
    await until(() => vm.find(ownId)?.redacted === true, "redacted");

    const edited = await send("first draft");
    await send(" * second draft", {
      "m.new_content": { msgtype: "m.text", body: "second draft" },
      "m.relates_to": { rel_type: "m.replace", event_id: edited },
    });
    await until(() => vm.find(edited)?.edited === true, "edit applied");
    expect(vm.find(edited)?.content["body"]).toBe("second draft");
    const history = await vm.actions.editHistory(edited);
    expect(history.map((v) => v.body)).toEqual(["first draft", "second draft"]);
  });

  it("jumps to an event that is not loaded, and back to the live end", async () => {
    const vm = timeline();
    const old = messages(vm.rows.getSnapshot()).find((r) => bodyOf(r) === "history 3")?.item.eventId ?? "";
    expect(old).not.toBe("");
    // Reopen the room so only the newest events are loaded, then jump.
    alice.roomList.select(null);
    alice.openEvent(roomId, old);
    const jumped = timeline();
    await until(() => jumped.highlighted.getSnapshot() === old, "the jump");
    expect(jumped.find(old)).toBeDefined();
    expect(jumped.atLiveEnd.getSnapshot()).toBe(false);
    await jumped.jumpToLatest();
    expect(jumped.atLiveEnd.getSnapshot()).toBe(true);
    expect(messages(jumped.rows.getSnapshot()).some((r) => bodyOf(r) === "second draft")).toBe(true);
  });
});
