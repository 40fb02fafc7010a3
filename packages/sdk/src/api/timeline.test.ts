/**
 * Unit tests of the timeline family: filters travel JSON-encoded, absent
 * parameters stay absent, and timestamp_to_event falls back to MSC3030's
 * prefix through the real HTTP client.
 */
import { describe, expect, it } from "vitest";
import { createHttpClient } from "../http/client";
import { fallbackFetch } from "./testing/fallback-fetch";
import { recordingHttp } from "./testing/recording-http";
import { eventContext, getStateEvent, messages, timestampToEvent } from "./timeline";

describe("messages", () => {
  it("JSON-encodes the filter and keeps dir, limit, from and to", async () => {
    const http = recordingHttp({ start: "a", chunk: [] });
    const filter = { lazy_load_members: true, not_types: ["m.room.member"] };
    await messages(http, "!r:x", { dir: "b", limit: 30, from: "t1", to: "t0", filter });
    const query = http.only().query ?? {};
    expect(query).toMatchObject({ dir: "b", limit: 30, from: "t1", to: "t0" });
    expect(JSON.parse(String(query.filter))).toEqual(filter);
  });

  it("leaves the filter out when there is none", async () => {
    const http = recordingHttp({ start: "a", chunk: [] });
    await messages(http, "!r:x", { dir: "f" });
    expect(http.only().query?.filter).toBeUndefined();
  });
});

describe("eventContext", () => {
  it("encodes the event id and the filter", async () => {
    const http = recordingHttp();
    await eventContext(http, "!r:x", "$e/1", { limit: 1, filter: { limit: 1 } });
    expect(http.only()).toMatchObject({
      path: "/rooms/!r%3Ax/context/%24e%2F1",
      query: { limit: 1, filter: '{"limit":1}' },
    });
  });
});

describe("getStateEvent", () => {
  it("uses an empty state key by default", async () => {
    const http = recordingHttp();
    await getStateEvent(http, "!r:x", "m.room.name");
    expect(http.only().path).toBe("/rooms/!r%3Ax/state/m.room.name/");
  });
});

describe("timestampToEvent", () => {
  it("asks the v1 endpoint, then MSC3030's prefix when the server does not know it", async () => {
    const fake = fallbackFetch("/_matrix/client/v1/", 404, { event_id: "$e", origin_server_ts: 5 });
    const http = createHttpClient({ baseUrl: "https://hs.example.org", fetch: fake.fetch, retry: false });
    const answer = await timestampToEvent(http, "!r:x", 1234, "b");
    expect(answer).toEqual({ event_id: "$e", origin_server_ts: 5 });
    expect(fake.urls.map((u) => u.pathname)).toEqual([
      "/_matrix/client/v1/rooms/!r%3Ax/timestamp_to_event",
      "/_matrix/client/unstable/org.matrix.msc3030/rooms/!r%3Ax/timestamp_to_event",
    ]);
    expect(fake.urls[1]?.searchParams.get("ts")).toBe("1234");
    expect(fake.urls[1]?.searchParams.get("dir")).toBe("b");
  });
});
