/**
 * The sync benchmark fixture: a deterministic (seeded) account with N joined
 * rooms (full state, 50 members, some rooms of 2,000 members, 2-member
 * direct chats), 50 timeline events a room with replies, edits, reactions and
 * thread replies, receipts, unread counts, account data (m.direct,
 * m.push_rules, tags, m.fully_read), a few invites and presence, followed by
 * 200 incremental batches. Written to bench/fixtures/ (git-ignored) on
 * demand and reused while the generator version and seed match.
 *
 * Command: `npx tsx bench/sync/fixture.ts [--rooms 100,1000,3000] [--seed 1] [--force]`
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { BasicEvent, PresenceEvent, StrippedStateEvent } from "@lattice/sdk/api/types/events";
import type { InvitedRoom, JoinedRoom, SyncResponse } from "@lattice/sdk/api/types/sync";
import { batchToken, buildBatch } from "./fixture-batches";
import { pushRules } from "./fixture-pushrules";
import { buildThreadIndex } from "./fixture-threads";
import type { ThreadIndex } from "./fixture-threads";
import { buildRoom } from "./fixture-rooms";
import { BENCH_USER_ID, World, displayName } from "./fixture-world";
import type { RoomMemory } from "./fixture-world";

/** Bump when the generated content changes, so stale fixtures on disk are regenerated. */
export const FIXTURE_VERSION = 2;
export const DEFAULT_SEED = 1;
export const DEFAULT_SIZES = [100, 1000, 3000] as const;
export const DEFAULT_BATCHES = 200;
export const MEMBERS_PER_ROOM = 50;
export const BIG_ROOM_MEMBERS = 2000;
export const TIMELINE_PER_ROOM = 50;
/** One room in BIG_ROOM_EVERY has BIG_ROOM_MEMBERS members. */
const BIG_ROOM_EVERY = 100;
const DIRECT_SHARE = 0.05;
const USER_POOL = 5000;

/** Facts about a fixture, written beside it and checked by the runner. */
export interface FixtureMeta {
  version: number;
  seed: number;
  rooms: number;
  bigRooms: number;
  directRooms: number;
  invites: number;
  batches: number;
  /** Events in the initial sync (state + timeline), and in all incremental batches. */
  initialEvents: number;
  batchEvents: number;
  userId: string;
  /** next_batch of the last incremental batch. */
  finalToken: string;
}

export interface Fixture {
  meta: FixtureMeta;
  initial: SyncResponse;
  batches: SyncResponse[];
  /** What GET /pushrules/ answers (the same rules as the m.push_rules account data). */
  pushRules: Record<string, unknown>;
  /** Thread roots and replies, for the event and relations lookups. */
  threads: ThreadIndex;
}

export interface FixtureOptions {
  rooms: number;
  seed?: number;
  batches?: number;
}

/** Generates a fixture in memory. The same options always give the same fixture. */
export function generateFixture(options: FixtureOptions): Fixture {
  const seed = options.seed ?? DEFAULT_SEED;
  const batchCount = options.batches ?? DEFAULT_BATCHES;
  const world = new World(seed * 7919 + options.rooms);
  const join: Record<string, JoinedRoom> = {};
  const memories: RoomMemory[] = [];
  const direct: Record<string, string[]> = {};
  let bigRooms = 0;
  let initialEvents = 0;
  for (let i = 0; i < options.rooms; i++) {
    const big = i % BIG_ROOM_EVERY === BIG_ROOM_EVERY / 2 || (options.rooms < BIG_ROOM_EVERY && i === 0);
    const isDirect = !big && world.rng.chance(DIRECT_SHARE);
    const memberCount = big ? BIG_ROOM_MEMBERS : isDirect ? 2 : MEMBERS_PER_ROOM;
    const { room, memory } = buildRoom(world, {
      memberCount,
      isDirect,
      timelineCount: TIMELINE_PER_ROOM,
      userPool: USER_POOL,
    });
    if (big) bigRooms += 1;
    const partner = memory.members[1];
    if (isDirect && partner !== undefined) (direct[partner] ??= []).push(memory.roomId);
    join[memory.roomId] = room;
    memories.push(memory);
    initialEvents += (room.state?.events?.length ?? 0) + (room.timeline?.events.length ?? 0);
  }
  const invite = invites(world, Math.max(1, Math.floor(options.rooms / 100)));
  const localpart = BENCH_USER_ID.slice(1, BENCH_USER_ID.indexOf(":"));
  const rules = pushRules(BENCH_USER_ID, localpart);
  const accountData: BasicEvent[] = [
    { type: "m.direct", content: structuredClone(direct) },
    { type: "m.push_rules", content: rules },
    {
      type: "im.vector.setting.breadcrumbs",
      content: { recent_rooms: memories.slice(0, 10).map((m) => m.roomId) },
    },
  ];
  const initial: SyncResponse = {
    next_batch: batchToken(0),
    rooms: { join, invite, leave: {}, knock: {} },
    account_data: { events: accountData },
    presence: { events: presence(world, memories) },
    to_device: { events: [] },
    device_lists: { changed: [], left: [] },
    device_one_time_keys_count: { signed_curve25519: 50 },
  };
  // Counted now: the batches change m.direct later.
  const directRooms = Object.values(direct).reduce((n, ids) => n + ids.length, 0);
  const batches: SyncResponse[] = [];
  let batchEvents = 0;
  for (let i = 1; i <= batchCount; i++) {
    const batch = buildBatch(world, i, memories, direct);
    for (const room of Object.values(batch.rooms?.join ?? {}))
      batchEvents += room.timeline?.events.length ?? 0;
    batches.push(batch);
  }
  const meta: FixtureMeta = {
    version: FIXTURE_VERSION,
    seed,
    rooms: options.rooms,
    bigRooms,
    directRooms,
    invites: Object.keys(invite).length,
    batches: batchCount,
    initialEvents,
    batchEvents,
    userId: BENCH_USER_ID,
    finalToken: batchToken(batchCount),
  };
  return { meta, initial, batches, pushRules: rules, threads: buildThreadIndex([initial, ...batches]) };
}

function invites(world: World, count: number): Record<string, InvitedRoom> {
  const out: Record<string, InvitedRoom> = {};
  for (let i = 0; i < count; i++) {
    const inviter = world.poolUser(USER_POOL);
    const events: StrippedStateEvent[] = [
      {
        type: "m.room.create",
        state_key: "",
        sender: inviter,
        content: { room_version: "10", creator: inviter },
      },
      {
        type: "m.room.name",
        state_key: "",
        sender: inviter,
        content: { name: `Invite ${world.sentence(1, 2)}` },
      },
      { type: "m.room.join_rules", state_key: "", sender: inviter, content: { join_rule: "invite" } },
      {
        type: "m.room.member",
        state_key: inviter,
        sender: inviter,
        content: { membership: "join", displayname: displayName(inviter) },
      },
      { type: "m.room.member", state_key: BENCH_USER_ID, sender: inviter, content: { membership: "invite" } },
    ];
    out[world.roomId()] = { invite_state: { events } };
  }
  return out;
}

function presence(world: World, rooms: RoomMemory[]): PresenceEvent[] {
  const seen = new Set<string>();
  for (const room of rooms.slice(0, 20)) for (const m of room.members.slice(1, 4)) seen.add(m);
  return [...seen].map((sender) => ({
    type: "m.presence",
    sender,
    content: {
      presence: world.rng.pick(["online", "unavailable", "offline"]),
      last_active_ago: world.rng.int(0, 600_000),
    },
  }));
}

/** Where fixtures live (git-ignored). */
export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** The folder of one fixture: initial.json, batches.ndjson (one batch a line), pushrules.json,
 * threads.json, meta.json. */
export function fixtureDir(rooms: number, seed = DEFAULT_SEED): string {
  return join(FIXTURES_DIR, `sync-${rooms}-seed${seed}-v${FIXTURE_VERSION}`);
}

/** Writes a fixture to disk; meta.json goes last and marks the folder complete. */
export function writeFixture(
  fixture: Fixture,
  dir = fixtureDir(fixture.meta.rooms, fixture.meta.seed),
): string {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, "initial.json"), JSON.stringify(fixture.initial));
  writeFileSync(join(tmp, "batches.ndjson"), fixture.batches.map((b) => JSON.stringify(b)).join("\n"));
  writeFileSync(join(tmp, "pushrules.json"), JSON.stringify(fixture.pushRules));
  writeFileSync(join(tmp, "threads.json"), JSON.stringify(fixture.threads));
  writeFileSync(join(tmp, "meta.json"), JSON.stringify(fixture.meta, null, 2));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}

/** Reads a fixture's meta.json, or undefined when the folder is missing, incomplete or stale. */
export function readFixtureMeta(dir: string): FixtureMeta | undefined {
  const file = join(dir, "meta.json");
  if (!existsSync(file)) return undefined;
  const meta = JSON.parse(readFileSync(file, "utf8")) as FixtureMeta;
  return meta.version === FIXTURE_VERSION ? meta : undefined;
}

/** Returns the folder of the fixture, generating it first when it is missing or stale. */
export function ensureFixture(
  rooms: number,
  seed = DEFAULT_SEED,
  force = false,
): { dir: string; meta: FixtureMeta } {
  const dir = fixtureDir(rooms, seed);
  const existing = force ? undefined : readFixtureMeta(dir);
  if (existing) return { dir, meta: existing };
  const fixture = generateFixture({ rooms, seed });
  writeFixture(fixture, dir);
  return { dir, meta: fixture.meta };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      rooms: { type: "string", default: DEFAULT_SIZES.join(",") },
      seed: { type: "string", default: String(DEFAULT_SEED) },
      force: { type: "boolean", default: false },
    },
  });
  for (const rooms of values.rooms.split(",").map(Number)) {
    const started = performance.now();
    const { dir, meta } = ensureFixture(rooms, Number(values.seed), values.force);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `${rooms} rooms: ${meta.initialEvents} initial events, ${meta.batchEvents} in ${meta.batches} batches -> ${dir} (${secs}s)`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
