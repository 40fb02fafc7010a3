/**
 * Shared pieces of the sliding sync tests: a client (SyncService with the
 * real SyncProcessor and the Rooms model) in a chosen sync mode over the test
 * homeserver, a comparable view of a room model snapshot, and shortcuts for
 * setting up rooms over HTTP. Builds on the sync service test helpers.
 */
import { startTestServer } from "@lattice/testserver";
import { Rooms } from "../../../src/models/room/Rooms";
import type { RoomSnapshot } from "../../../src/models/room/Room";
import type { Store } from "../../../src/store/Store";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import type { SyncMode } from "../../../src/sync/sliding/SelectingSyncTransport";
import { SyncService } from "../../../src/sync/SyncService";
import type { PlatformAdapter } from "../../../src/sync/platform";
import type { Scheduler } from "../../../src/util/scheduler";
import type { SyncState } from "../../../src/sync/SyncLoop";
import { call, clientFor, fastScheduler, quietLogger, recording } from "../service/helpers";
import type { TestServerHandle, TestUser } from "../service/helpers";

export { call, register, sendText, waitFor } from "../service/helpers";

/** Starts a test homeserver that advertises sliding sync (as it does by default). */
export function startServer(seed: number): Promise<TestServerHandle> {
  return startTestServer({ seed });
}
export type { TestServerHandle, TestUser } from "../service/helpers";

/** The sliding sync path the server serves. */
export const SLIDING_PATH = "/_matrix/client/unstable/org.matrix.simplified_msc3575/sync";

export interface TestClientOptions {
  mode?: SyncMode;
  store?: Store;
  scheduler?: Scheduler;
  pollTimeoutMs?: number;
  platform?: PlatformAdapter;
  onUnknownToken?: () => void;
}

/** A sync client: service, processor, room models, the requests it sent and the batches it processed. */
export function syncClient(server: TestServerHandle, user: TestUser, options: TestClientOptions = {}) {
  const http = recording(clientFor(server, user));
  const logger = quietLogger();
  const batches: ProcessedSync[] = [];
  let processor: SyncProcessor | undefined;
  const svc = new SyncService({
    http,
    store: options.store ?? new MemoryStore(),
    userId: user.userId,
    ...(options.mode !== undefined ? { syncMode: options.mode } : {}),
    processor: (store) => {
      processor = new SyncProcessor({ store, logger });
      processor.subscribe((batch) => {
        batches.push(batch);
      });
      return processor;
    },
    pollTimeoutMs: options.pollTimeoutMs ?? 1_000,
    requestMarginMs: 3_000,
    scheduler: options.scheduler ?? fastScheduler(),
    logger,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.onUnknownToken ? { onUnknownToken: options.onUnknownToken } : {}),
  });
  const states: Array<SyncState | null> = [];
  svc.state.subscribe((state) => states.push(state));
  if (!processor) throw new Error("processor not built");
  const rooms = new Rooms({ userId: user.userId, http, source: processor });
  /** Paths of the sync requests sent (v2 /sync or the sliding endpoint). */
  const syncPaths = (): string[] =>
    http.requests
      .filter((r) => r.path === "/sync")
      .map((r) => `${r.prefix ?? "/_matrix/client/v3"}${r.path}`);
  /** Live (not restored) timeline event ids of a room, in the order emitted. */
  const liveIds = (roomId: string): string[] =>
    batches
      .filter((b) => !b.fromCache)
      .flatMap((b) => [
        ...(b.rooms.join.get(roomId)?.timeline.events ?? []),
        ...(b.rooms.leave.get(roomId)?.timeline.events ?? []),
      ])
      .map((e) => e.event_id);
  return { svc, rooms, http, logger, batches, states, syncPaths, liveIds, processor };
}

export type SyncClient = ReturnType<typeof syncClient>;

/** The parts of a room snapshot both protocols must agree on, as plain sorted data. */
export function roomView(snapshot: RoomSnapshot, recent: readonly { event_id: string }[]) {
  const state: Record<string, string> = {};
  for (const type of snapshot.state.types().sort()) {
    for (const [key, event] of snapshot.state.ofType(type)) {
      state[`${type}|${key}`] = "event_id" in event ? String(event.event_id) : JSON.stringify(event.content);
    }
  }
  return {
    category: snapshot.category,
    name: snapshot.name,
    members: [...snapshot.members.values()].map((m) => `${m.userId}:${m.membership}:${m.name}`).sort(),
    state,
    summary: snapshot.summary,
    unread: snapshot.unread,
    tags: Object.fromEntries(snapshot.tags),
    accountData: Object.fromEntries([...snapshot.accountData].map(([type, e]) => [type, e.content])),
    receipts: snapshot.receipts
      .all()
      .map((r) => JSON.stringify(r))
      .sort(),
    latestEvent: snapshot.latestEvent?.event_id,
    inviter: snapshot.inviter,
    isDirect: snapshot.isDirect,
    recent: recent.map((e) => e.event_id),
  };
}

/** Every room of a client as comparable views, by room id. */
export function roomsView(client: SyncClient): Record<string, ReturnType<typeof roomView>> {
  const out: Record<string, ReturnType<typeof roomView>> = {};
  for (const [id, room] of client.rooms.all.getSnapshot())
    out[id] = roomView(room.getSnapshot(), room.recentEvents);
  return out;
}

/** Creates a room as `user`; returns its id. */
export async function createRoom(
  server: TestServerHandle,
  user: TestUser,
  body: Record<string, unknown> = {},
): Promise<string> {
  return String((await call(server, user, "POST", "/createRoom", body))["room_id"]);
}

/** The path of a room endpoint. */
export function roomPath(roomId: string, rest: string): string {
  return `/rooms/${encodeURIComponent(roomId)}${rest}`;
}
