/**
 * Guests (SPEC §6): a plain empty filter, no lazy loading, no cached sync
 * (a MemoryStore, nothing restored, the persistent store untouched), and
 * the guards that stop receipts, typing and state events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { GuestForbiddenError } from "../../../src/sync/errors";
import {
  assertCanSendReceipt,
  assertCanSendStateEvent,
  assertCanSendTyping,
  canSendEphemeral,
} from "../../../src/sync/guests";
import { SyncService } from "../../../src/sync/SyncService";
import {
  clientFor,
  fastScheduler,
  quietLogger,
  recording,
  RecordingProcessor,
  register,
  startServer,
  waitFor,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let guest: TestUser;

beforeAll(async () => {
  server = await startServer(47);
  guest = await register(server, "guest");
});
afterAll(async () => {
  await server.stop();
});

describe("guest guards", () => {
  it.each([
    [assertCanSendReceipt, "Guests cannot send receipts", "receipt"],
    [assertCanSendTyping, "Guests cannot send typing notifications", "typing"],
    [assertCanSendStateEvent, "Guests cannot send state events", "state_event"],
  ] as const)("%o throws for guests only", (guard, message, action) => {
    expect(() => guard({ guest: false })).not.toThrow();
    let caught: unknown;
    try {
      guard({ guest: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GuestForbiddenError);
    expect((caught as GuestForbiddenError).message).toBe(message);
    expect((caught as GuestForbiddenError).action).toBe(action);
  });

  it("says whether ephemeral events may be sent", () => {
    expect(canSendEphemeral({ guest: true })).toBe(false);
    expect(canSendEphemeral({ guest: false })).toBe(true);
  });
});

describe("guest sync", () => {
  it("syncs with a plain empty filter on a MemoryStore, restoring nothing and leaving the given store alone", async () => {
    const persistent = new MemoryStore();
    persistent.setSync({ nextBatch: "s_cached", roomsData: { rooms: ["!cached:x"] } });
    await persistent.storeClientOptions({ cached: true });
    const http = recording(clientFor(server, guest));
    let processor: RecordingProcessor | undefined;
    const svc = new SyncService({
      http,
      store: persistent,
      userId: guest.userId,
      guest: true,
      lazyLoadMembers: true,
      processor: (s) => (processor = new RecordingProcessor(s)),
      pollTimeoutMs: 100,
      scheduler: fastScheduler(),
      logger: quietLogger(),
    });
    expect(svc.guest).toBe(true);
    expect(svc.store).not.toBe(persistent);
    expect(svc.store.kind).toBe("memory");
    expect(processor?.store).toBe(svc.store);
    await svc.start();
    await waitFor(() => svc.state.getSnapshot() === "syncing", 5_000, "guest syncing");
    await svc.stop();
    expect(processor?.restoreCalls).toBe(0);
    expect(processor?.rooms).not.toContain("!cached:x");
    const filterPost = http.requests.find((r) => r.method === "POST" && r.path.endsWith("/filter"));
    expect(filterPost?.body).toEqual({});
    expect(JSON.stringify(http.requests)).not.toContain("lazy_load_members");
    expect(http.requests.find((r) => r.path === "/sync")?.query).not.toHaveProperty("since");
    // The persistent store is untouched.
    expect((await persistent.getSync())?.nextBatch).toBe("s_cached");
    expect(await persistent.getClientOptions()).toEqual({ cached: true });
    expect((await svc.store.getClientOptions())?.["lazyLoadMembers"]).toBe(false);
  });
});
