/**
 * Unit tests of the sync and peeking request builders: cache-buster rules
 * (with fake time), filter encoding, the MSC4222 state-after names, the
 * left-rooms sync and the peeking defaults.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { peekEvents, PEEK_EVENTS_TIMEOUT_MS } from "./peeking";
import {
  CACHE_BUSTER_PARAM,
  buildSyncQuery,
  leftRoomsFilter,
  roomStateAfter,
  stateAfterFlavour,
  sync,
  syncLeftRooms,
} from "./sync";
import { recordingHttp } from "./testing/recording-http";

afterEach(() => {
  vi.useRealTimers();
});

describe("buildSyncQuery", () => {
  it("adds a cache-buster from the current time on a sync without since", () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_700_000_123_456);
    expect(buildSyncQuery({})).toEqual({ [CACHE_BUSTER_PARAM]: 1_700_000_123_456 });
    vi.setSystemTime(1_700_000_200_000);
    expect(buildSyncQuery({})[CACHE_BUSTER_PARAM]).toBe(1_700_000_200_000);
  });

  it("never adds a cache-buster when since is given, and not when disabled", () => {
    expect(buildSyncQuery({ since: "s1" })).toEqual({ since: "s1" });
    expect(buildSyncQuery({ cacheBuster: false })).toEqual({});
    expect(buildSyncQuery({ cacheBuster: 42 })).toEqual({ [CACHE_BUSTER_PARAM]: 42 });
  });

  it("sends a filter id as is and an inline filter as JSON", () => {
    expect(buildSyncQuery({ since: "s", filter: "66696p746572" }).filter).toBe("66696p746572");
    const inline = { room: { timeline: { limit: 30, lazy_load_members: true } } };
    const encoded = buildSyncQuery({ since: "s", filter: inline }).filter;
    expect(typeof encoded).toBe("string");
    expect(JSON.parse(String(encoded))).toEqual(inline);
  });

  it("passes timeout 0 through (catching up) rather than dropping it", () => {
    expect(buildSyncQuery({ since: "s", timeout: 0 })).toEqual({ since: "s", timeout: 0 });
  });

  it("asks for state_after under the stable or the unstable name", () => {
    expect(buildSyncQuery({ since: "s", useStateAfter: "stable" })).toEqual({
      since: "s",
      use_state_after: true,
    });
    expect(buildSyncQuery({ since: "s", useStateAfter: "unstable" })).toEqual({
      since: "s",
      "org.matrix.msc4222.use_state_after": true,
    });
    expect(buildSyncQuery({ since: "s" })).not.toHaveProperty("use_state_after");
  });

  it("carries set_presence and full_state", () => {
    expect(buildSyncQuery({ since: "s", set_presence: "offline", full_state: true })).toEqual({
      since: "s",
      set_presence: "offline",
      full_state: true,
    });
  });
});

describe("sync", () => {
  it("GETs /sync with the local time-out and signal the caller chose", async () => {
    const http = recordingHttp({ next_batch: "n1" });
    const controller = new AbortController();
    const answer = await sync(http, {
      since: "s0",
      timeout: 30_000,
      requestTimeoutMs: 40_000,
      signal: controller.signal,
    });
    expect(answer).toEqual({ next_batch: "n1" });
    const req = http.only();
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/sync");
    expect(req.prefix).toBeUndefined();
    expect(req.timeoutMs).toBe(40_000);
    expect(req.signal).toBe(controller.signal);
    expect(req.query).toEqual({ since: "s0", timeout: 30_000 });
  });

  it("syncs left rooms with include_leave and timeout 0", async () => {
    const http = recordingHttp();
    await syncLeftRooms(http, { cacheBuster: false });
    const query = http.only().query ?? {};
    expect(query.timeout).toBe(0);
    expect(JSON.parse(String(query.filter))).toEqual(leftRoomsFilter());
    expect(leftRoomsFilter().room?.include_leave).toBe(true);
  });

  it("syncs left rooms with a stored filter id when given", async () => {
    const http = recordingHttp();
    await syncLeftRooms(http, { filterId: "left1", cacheBuster: false });
    expect(http.only().query).toEqual({ filter: "left1", timeout: 0 });
  });
});

describe("state after", () => {
  it("picks the stable name from Matrix 1.16 on, else the unstable flag, else none", () => {
    expect(stateAfterFlavour({ versions: ["v1.15", "v1.16"] })).toBe("stable");
    expect(stateAfterFlavour({ versions: ["v1.20"] })).toBe("stable");
    expect(stateAfterFlavour({ versions: ["v2.0"] })).toBe("stable");
    expect(
      stateAfterFlavour({ versions: ["v1.15"], unstable_features: { "org.matrix.msc4222": true } }),
    ).toBe("unstable");
    expect(
      stateAfterFlavour({ versions: ["v1.15"], unstable_features: { "org.matrix.msc4222": false } }),
    ).toBe(undefined);
    expect(stateAfterFlavour({ versions: ["r0.6.1", "v1.9"] })).toBe(undefined);
    expect(stateAfterFlavour({})).toBe(undefined);
  });

  it("reads state_after under either name", () => {
    const batch = { events: [] };
    expect(roomStateAfter({ state_after: batch })).toBe(batch);
    expect(roomStateAfter({ "org.matrix.msc4222.state_after": batch })).toBe(batch);
    expect(roomStateAfter({ state: batch })).toBeUndefined();
  });
});

describe("peekEvents", () => {
  it("long-polls 30 s by default and leaves out a missing from", async () => {
    const http = recordingHttp({ chunk: [] });
    await peekEvents(http, { roomId: "!r:example.org" });
    expect(PEEK_EVENTS_TIMEOUT_MS).toBe(30_000);
    expect(http.only()).toMatchObject({
      method: "GET",
      path: "/events",
      query: { room_id: "!r:example.org", timeout: 30_000, from: undefined },
    });
  });
});
