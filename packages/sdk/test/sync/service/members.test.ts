/**
 * Out-of-band member loading over HTTP: NotStarted -> InProgress ->
 * Finished, back to NotStarted on failure or clear, members stored in
 * oob_membership_events by room and state key, one request for concurrent
 * loads, the at/not_membership query, and untrusted answers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { memberEvents, MemberLoader, OobMemberState } from "../../../src/sync/members";
import { SyncService } from "../../../src/sync/SyncService";
import {
  call,
  clientFor,
  quietLogger,
  recording,
  RecordingProcessor,
  register,
  startServer,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let roomId: string;

beforeAll(async () => {
  server = await startServer(44);
  [alice, bob, carol] = await Promise.all([
    register(server, "alice"),
    register(server, "bob"),
    register(server, "carol"),
  ]);
  roomId = String((await call(server, alice, "POST", "/createRoom", { preset: "public_chat" }))["room_id"]);
  await call(server, bob, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  await call(server, carol, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  await call(server, carol, "POST", `/rooms/${encodeURIComponent(roomId)}/leave`, {});
});
afterEach(() => server.faults.reset());
afterAll(async () => {
  await server.stop();
});

function setup() {
  const http = recording(clientFor(server, alice));
  const store = new MemoryStore();
  const loader = new MemberLoader({ http, store });
  const states: OobMemberState[] = [];
  loader.state(roomId).subscribe((s) => states.push(s));
  const memberRequests = () => http.requests.filter((r) => r.path.endsWith("/members"));
  return { http, store, loader, states, memberRequests };
}

describe("MemberLoader", () => {
  it("loads members (not those who left) at the given token, stores them and finishes", async () => {
    const { loader, store, states, memberRequests } = setup();
    expect(loader.state(roomId).getSnapshot()).toBe(OobMemberState.NotStarted);
    const token = String((await call(server, alice, "GET", "/sync?timeout=0"))["next_batch"]);
    const members = await loader.load(roomId, token);
    expect(states).toEqual([OobMemberState.InProgress, OobMemberState.Finished]);
    expect(members.map((m) => m["state_key"]).sort()).toEqual([alice.userId, bob.userId].sort());
    expect(memberRequests()[0]?.query).toMatchObject({ at: token, not_membership: "leave" });
    const stored = await store.getOutOfBandMembers(roomId);
    expect(stored?.map((m) => m["state_key"]).sort()).toEqual([alice.userId, bob.userId].sort());
    expect(stored?.every((m) => m["room_id"] === roomId)).toBe(true);
  });

  it("shares one request between concurrent loads of a room", async () => {
    const { loader, memberRequests } = setup();
    const [a, b] = await Promise.all([loader.load(roomId), loader.load(roomId)]);
    expect(a).toEqual(b);
    expect(memberRequests()).toHaveLength(1);
  });

  it("answers from the store once loaded (no second request)", async () => {
    const { loader, memberRequests } = setup();
    await loader.load(roomId);
    await loader.load(roomId);
    expect(memberRequests()).toHaveLength(1);
  });

  it("goes back to NotStarted on failure, and a later load succeeds", async () => {
    const { loader, states, store } = setup();
    server.faults.add({ path: "/members", status: 500, times: 1 });
    await expect(loader.load(roomId)).rejects.toMatchObject({ httpStatus: 500 });
    expect(states).toEqual([OobMemberState.InProgress, OobMemberState.NotStarted]);
    expect(await store.getOutOfBandMembers(roomId)).toBeNull();
    await loader.load(roomId);
    expect(loader.state(roomId).getSnapshot()).toBe(OobMemberState.Finished);
  });

  it("goes back to NotStarted on clear and forgets the stored members", async () => {
    const { loader, store, memberRequests } = setup();
    await loader.load(roomId);
    await loader.clear(roomId);
    expect(loader.state(roomId).getSnapshot()).toBe(OobMemberState.NotStarted);
    expect(await store.getOutOfBandMembers(roomId)).toBeNull();
    await loader.load(roomId);
    expect(memberRequests()).toHaveLength(2);
  });

  it("discards the answer of a load that a clear overtook", async () => {
    const { loader, store } = setup();
    server.faults.add({ path: "/members", delayMs: 150, times: 1 });
    const pending = loader.load(roomId);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await loader.clear(roomId);
    await pending;
    expect(loader.state(roomId).getSnapshot()).toBe(OobMemberState.NotStarted);
    expect(await store.getOutOfBandMembers(roomId)).toBeNull();
  });

  it("keeps only usable member events of an untrusted answer", () => {
    const events = memberEvents(
      {
        chunk: [
          { type: "m.room.member", state_key: "__proto__", content: { membership: "join" } },
          { type: "m.room.member", state_key: "@a:x", content: { membership: "join" } },
          { type: "m.room.message", state_key: "@b:x", content: {} },
          { type: "m.room.member", state_key: 5, content: {} },
          { type: "m.room.member", state_key: "@c:x", content: "join" },
          null,
          "junk",
          [],
        ],
      },
      "!r:x",
    );
    expect(events.map((e) => e["state_key"])).toEqual(["__proto__", "@a:x"]);
    expect(Object.getPrototypeOf(events[0])).toBe(Object.prototype);
    for (const junk of [null, 5, "x", {}, { chunk: "no" }, { chunk: {} }])
      expect(memberEvents(junk, "!r:x")).toEqual([]);
  });
});

describe("SyncService.loadMembers", () => {
  it("fails with 'Client is not running' before start", async () => {
    const svc = new SyncService({
      http: clientFor(server, alice),
      store: new MemoryStore(),
      userId: alice.userId,
      processor: (s) => new RecordingProcessor(s),
      logger: quietLogger(),
    });
    await expect(svc.loadMembers(roomId)).rejects.toThrow("Client is not running");
    expect(svc.memberState(roomId).getSnapshot()).toBe(OobMemberState.NotStarted);
  });
});
