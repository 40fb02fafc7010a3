/**
 * Choosing the protocol: a server that does not advertise MSC4186 is synced
 * with v2; one that advertises it but answers the endpoint as unrecognised
 * (404, 405, 400 M_UNRECOGNIZED) falls back to v2 with a log line; the
 * option forces either mode; and a stored token is only ever sent to the
 * protocol it came from.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { decodeSlidingToken, isSlidingToken } from "../../../src/sync/sliding/token";
import { createRoom, register, SLIDING_PATH, startServer, syncClient, waitFor } from "./helpers";
import type { SyncClient, TestServerHandle, TestUser } from "./helpers";

const FEATURE = "org.matrix.simplified_msc3575";
const V2_PATH = "/_matrix/client/v3/sync";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;
let client: SyncClient | undefined;

beforeAll(async () => {
  server = await startServer(4187);
  alice = await register(server, "alice");
  roomId = await createRoom(server, alice, { name: "Fallback" });
});
afterEach(async () => {
  await client?.svc.stop();
  client = undefined;
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.faults.reset();
  server.ctx.unstableFeatures.set(FEATURE, true);
});
afterAll(async () => {
  await server.stop();
});

async function syncedWith(mode: "auto" | "v2" | "sliding", store = new MemoryStore()): Promise<SyncClient> {
  client = syncClient(server, alice, { mode, store });
  await client.svc.start();
  const c = client;
  await waitFor(() => c.rooms.find(roomId) !== undefined, 5_000, "the room");
  return c;
}

describe("protocol choice", () => {
  it("uses v2 when the server does not advertise sliding sync", async () => {
    server.ctx.unstableFeatures.delete(FEATURE);
    const c = await syncedWith("auto");
    expect(c.svc.syncMode.getSnapshot()).toBe("v2");
    expect(new Set(c.syncPaths())).toEqual(new Set([V2_PATH]));
    expect(server.faults.hits).toHaveLength(0);
  });

  it.each([
    { status: 404, errcode: "M_NOT_FOUND" },
    { status: 405, errcode: "M_UNRECOGNIZED" },
    { status: 400, errcode: "M_UNRECOGNIZED" },
  ])(
    "falls back to v2, with a log line, when the advertised endpoint answers $status $errcode",
    async (fault) => {
      server.faults.add({ path: SLIDING_PATH, ...fault });
      const c = await syncedWith("auto");
      expect(c.svc.syncMode.getSnapshot()).toBe("v2");
      expect(c.syncPaths()[0]).toBe(SLIDING_PATH);
      expect(
        c
          .syncPaths()
          .slice(1)
          .every((p) => p === V2_PATH),
      ).toBe(true);
      expect(c.logger.lines).toContain(
        "Sliding sync is advertised but its endpoint is not recognised; using sync v2",
      );
      // The fallback happened inside one loop iteration: no failure was counted.
      expect(c.svc.state.getSnapshot()).not.toBe("reconnecting");
    },
  );

  it("does not fall back on other errors: a 500 is a failure the loop retries with sliding sync", async () => {
    server.faults.add({ path: SLIDING_PATH, status: 500, times: 1 });
    const c = await syncedWith("auto");
    expect(c.svc.syncMode.getSnapshot()).toBe("sliding");
    expect(new Set(c.syncPaths())).toEqual(new Set([SLIDING_PATH]));
  });

  it("forces v2 on a server that advertises sliding sync, and sliding on one that does not", async () => {
    const v2 = await syncedWith("v2");
    expect(new Set(v2.syncPaths())).toEqual(new Set([V2_PATH]));
    await v2.svc.stop();
    server.ctx.unstableFeatures.delete(FEATURE);
    const sliding = await syncedWith("sliding");
    expect(sliding.svc.syncMode.getSnapshot()).toBe("sliding");
    expect(new Set(sliding.syncPaths())).toEqual(new Set([SLIDING_PATH]));
  });

  it("never sends a stored v2 token as a pos, nor a stored pos as a v2 since", async () => {
    const store = new MemoryStore();
    const v2 = await syncedWith("v2", store);
    await waitFor(() => v2.batches.length >= 2, 5_000, "two v2 batches");
    await v2.svc.stop();
    const v2Token = (await store.getSync())?.nextBatch;
    expect(v2Token).toEqual(expect.any(String));
    expect(isSlidingToken(v2Token)).toBe(false);

    const sliding = await syncedWith("sliding", store);
    // The room comes from the store first; the sliding transport loads on its first request.
    await waitFor(() => sliding.syncPaths().length > 0, 5_000, "a sliding request");
    const firstSliding = sliding.http.requests.find((r) => r.path === "/sync");
    expect(firstSliding?.query).not.toHaveProperty("pos");
    await waitFor(
      () => sliding.batches.filter((b) => !b.fromCache).length >= 2,
      5_000,
      "two sliding batches",
    );
    await sliding.svc.stop();
    const slidingToken = (await store.getSync())?.nextBatch;
    expect(isSlidingToken(slidingToken)).toBe(true);

    // Continuing in sliding mode sends the stored pos...
    const again = await syncedWith("sliding", store);
    await waitFor(() => again.syncPaths().length > 0, 5_000, "a sliding request");
    const resumed = again.http.requests.find((r) => r.path === "/sync");
    expect(resumed?.query?.["pos"]).toBe(decodeSlidingToken(slidingToken)?.pos);
    await again.svc.stop();

    // ...and v2 starts afresh instead of sending it as since.
    const back = await syncedWith("v2", store);
    await waitFor(() => back.syncPaths().length > 0, 5_000, "a v2 request");
    const firstV2 = back.http.requests.find((r) => r.path === "/sync");
    expect(firstV2?.query).not.toHaveProperty("since");
    expect(back.rooms.find(roomId)?.getSnapshot().name.name).toBe("Fallback");
  });
});
