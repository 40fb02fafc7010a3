/**
 * The bench's loopback server over a 100-room fixture in a temporary folder:
 * the initial sync, batches chained by token, the held tail, filters, the
 * thread lookups matrix-js-sdk makes, older history, and M_UNRECOGNIZED for the rest.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFixture, writeFixture } from "./fixture";
import type { Fixture } from "./fixture";
import { BASE_TS } from "./fixture-world";
import { HISTORY_PAGES } from "./history";
import { startBenchServer } from "./server";
import type { BenchServer } from "./server";

let dir: string;
let fixture: Fixture;
let server: BenchServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lattice-bench-"));
  fixture = generateFixture({ rooms: 100, batches: 5 });
  writeFixture(fixture, join(dir, "fixture"));
  server = await startBenchServer({ dir: join(dir, "fixture") });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("bench sync server", () => {
  it("serves the initial sync, then each batch by since token", async () => {
    const initial = await get("/_matrix/client/v3/sync?timeout=0");
    expect(initial.body.next_batch).toBe("s0");
    expect(Object.keys((initial.body.rooms as { join: object }).join)).toHaveLength(100);
    const second = await get("/_matrix/client/v3/sync?since=s0&timeout=30000");
    expect(second.body).toEqual(JSON.parse(JSON.stringify(fixture.batches[0])));
    const last = await get("/_matrix/client/v3/sync?since=s4");
    expect(last.body.next_batch).toBe("s5");
  });

  it("holds a sync past the last batch briefly, then answers empty with the same token", async () => {
    const started = Date.now();
    const tail = await get("/_matrix/client/v3/sync?since=s5&timeout=200");
    expect(tail.body).toEqual({ next_batch: "s5" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("answers versions, capabilities, push rules and stores filters", async () => {
    expect((await get("/_matrix/client/versions")).body.versions).toContain("v1.12");
    expect((await get("/_matrix/client/v3/capabilities")).body.capabilities).toBeDefined();
    expect((await get("/_matrix/client/v3/pushrules/")).body).toEqual(fixture.pushRules);
    const filter = { room: { state: { lazy_load_members: true } } };
    const created = await get("/_matrix/client/v3/user/%40bench%3Abench.local/filter", {
      method: "POST",
      body: JSON.stringify(filter),
    });
    const id = String(created.body.filter_id);
    expect((await get(`/_matrix/client/v3/user/%40bench%3Abench.local/filter/${id}`)).body).toEqual(filter);
    expect((await get("/_matrix/client/v3/user/%40bench%3Abench.local/filter/nope")).status).toBe(404);
  });

  it("answers thread roots and their relations from the fixture, in their room only", async () => {
    const [rootId, entry] = Object.entries(fixture.threads)[0] ?? [];
    if (!rootId || !entry) throw new Error("the fixture has no thread");
    const room = encodeURIComponent(entry.root.room_id);
    const event = await get(`/_matrix/client/v3/rooms/${room}/event/${encodeURIComponent(rootId)}`);
    expect(event.body.event_id).toBe(rootId);
    const relations = await get(
      `/_matrix/client/v1/rooms/${room}/relations/${encodeURIComponent(rootId)}?dir=b`,
    );
    const chunk = relations.body.chunk as Array<{ event_id: string }>;
    expect(chunk.map((e) => e.event_id)).toEqual(entry.replies.map((e) => e.event_id).reverse());
    const elsewhere = await get(
      `/_matrix/client/v3/rooms/!other%3Abench.local/event/${encodeURIComponent(rootId)}`,
    );
    expect(elsewhere.status).toBe(404);
  });

  it("serves older history page by page until it runs out, the same for the same token", async () => {
    const room = encodeURIComponent("!a:bench.local");
    const path = (from: string): string =>
      `/_matrix/client/v3/rooms/${room}/messages?dir=b&limit=30${from === "" ? "" : `&from=${from}`}`;
    const first = await get(path(""));
    const chunk = first.body.chunk as Array<{ event_id: string; room_id: string; origin_server_ts: number }>;
    expect(chunk).toHaveLength(30);
    expect(chunk.every((e) => e.room_id === "!a:bench.local")).toBe(true);
    // Newest first (dir=b), and older than the fixture's first event.
    expect(chunk[0]?.origin_server_ts).toBeGreaterThan(chunk[29]?.origin_server_ts ?? Infinity);
    expect(chunk[0]?.origin_server_ts).toBeLessThan(BASE_TS);
    expect(first.body.end).toBe("old1");
    expect(await get(path("old1"))).toEqual(await get(path("old1")));
    const last = await get(path(`old${HISTORY_PAGES - 1}`));
    expect(last.body.end).toBeUndefined();
    expect((await get(path(`old${HISTORY_PAGES}`))).body.chunk).toEqual([]);
    expect(server.stats.routes.get("messages")).toBe(5);
  });

  it("answers anything else with 404 M_UNRECOGNIZED and counts it", async () => {
    const res = await get("/_matrix/client/v3/voip/turnServer");
    expect(res).toEqual({ status: 404, body: { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" } });
    expect(server.stats.unrecognised.get("GET /_matrix/client/v3/voip/turnServer")).toBe(1);
  });
});
