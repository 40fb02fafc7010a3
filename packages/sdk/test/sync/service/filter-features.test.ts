/**
 * The sync filter follows the server's features: on a v1.2 server (the
 * legacy test homeserver) it goes without unread_thread_notifications and
 * the first sync completes; a filter id stored for another definition (an
 * older build's filter with the field) is not reused there, while the same
 * definition's id is; the id is stored with the definition it stands for.
 */
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFilter } from "../../../src/api/filter";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { clientOptionsFilterIdStore, toStoredOptions } from "../../../src/sync/client-options";
import type { CacheOptions } from "../../../src/sync/client-options";
import { buildSyncFilter } from "../../../src/sync/filters";
import { SyncService } from "../../../src/sync/SyncService";
import { clientFor, quietLogger, recording, register, waitFor } from "./helpers";
import type { TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer({ profile: "legacy", seed: "filter-features" });
  alice = await register(server, "alice");
});
afterAll(() => server.stop());

describe("the sync filter on a v1.2 server", () => {
  it("leaves out unread_thread_notifications, syncs, and stores the id with its definition", async () => {
    const store = new MemoryStore();
    const http = recording(clientFor(server, alice));
    const service = new SyncService({
      http,
      store,
      userId: alice.userId,
      logger: quietLogger(),
      pollTimeoutMs: 500,
    });
    await service.start();
    try {
      await waitFor(
        () => /^(prepared|syncing)$/.test(service.state.getSnapshot() ?? ""),
        10_000,
        "the first sync",
      );
      const uploads = http.requests.filter((r) => r.method === "POST" && r.path.endsWith("/filter"));
      expect(uploads).toHaveLength(1);
      expect(JSON.stringify(uploads[0]?.body)).not.toContain("unread_thread_notifications");
      const stored = await store.getClientOptions();
      expect(typeof stored?.["filterId"]).toBe("string");
      expect(stored?.["filterFor"]).toBe(
        JSON.stringify(buildSyncFilter({ unreadThreadNotifications: false })),
      );
      const onServer = await getFilter(http, alice.userId, String(stored?.["filterId"]));
      expect(JSON.stringify(onServer)).not.toContain("unread_thread_notifications");
    } finally {
      await service.stop();
    }
  });

  it("reuses a stored id only for the same definition", async () => {
    const options: CacheOptions = {
      userId: alice.userId,
      guest: false,
      lazyLoadMembers: true,
      initialSyncLimit: 30,
      filter: JSON.stringify(buildSyncFilter()),
    };
    const store = new MemoryStore();
    await store.open();
    // An older build stored an id for the full filter (no filterFor: it stands for `filter`).
    await store.storeClientOptions(toStoredOptions(options, "old-id"));
    const ids = clientOptionsFilterIdStore(store, options);
    expect(await ids.get(options.filter)).toBe("old-id");
    expect(
      await ids.get(JSON.stringify(buildSyncFilter({ unreadThreadNotifications: false }))),
    ).toBeUndefined();
    const stripped = JSON.stringify(buildSyncFilter({ unreadThreadNotifications: false }));
    await ids.set("new-id", stripped);
    expect(await ids.get(stripped)).toBe("new-id");
    expect(await ids.get(options.filter)).toBeUndefined();
  });
});
