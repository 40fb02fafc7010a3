/**
 * Unit tests of room-level calls: the upgrade version check (no request
 * without a version), and the stable-to-unstable fallbacks of room summary
 * and hierarchy through the real HTTP client against a fake fetch.
 */
import { describe, expect, it } from "vitest";
import { createHttpClient } from "../http/client";
import { ApiError } from "./errors";
import { hierarchy, reportRoom, roomSummary, upgradeRoom } from "./rooms";
import { fallbackFetch } from "./testing/fallback-fetch";
import type { UnrecognisedForm } from "./testing/fallback-fetch";
import { recordingHttp } from "./testing/recording-http";

const forms: UnrecognisedForm[] = [404, 405, "400 M_UNRECOGNIZED"];

describe("upgradeRoom", () => {
  it("throws 'A room upgrade needs a version' and sends nothing when the version is missing", async () => {
    const http = recordingHttp();
    await expect(upgradeRoom(http, "!r:example.org", {})).rejects.toThrow("A room upgrade needs a version");
    await expect(upgradeRoom(http, "!r:example.org", { new_version: "" })).rejects.toBeInstanceOf(ApiError);
    expect(http.requests).toHaveLength(0);
  });

  it("posts the new version when given", async () => {
    const http = recordingHttp({ replacement_room: "!new:example.org" });
    const answer = await upgradeRoom(http, "!r:example.org", { new_version: "11" });
    expect(answer.replacement_room).toBe("!new:example.org");
    expect(http.only()).toMatchObject({
      method: "POST",
      path: "/rooms/!r%3Aexample.org/upgrade",
      body: { new_version: "11" },
    });
  });
});

describe("reportRoom", () => {
  it("always sends a reason, blank when none is given (the spec requires the field)", async () => {
    const http = recordingHttp();
    await reportRoom(http, "!r:example.org");
    expect(http.only().body).toEqual({ reason: "" });
  });
});

describe.each(forms)("fallback when the stable endpoint answers %s", (form) => {
  it("room summary retries under im.nheko.summary with the unstable path shape", async () => {
    const summary = {
      room_id: "!r:example.org",
      num_joined_members: 1,
      world_readable: false,
      guest_can_join: false,
    };
    const fake = fallbackFetch("/_matrix/client/v1/", form, summary);
    const http = createHttpClient({ baseUrl: "https://hs.example.org", fetch: fake.fetch, retry: false });
    const answer = await roomSummary(http, "#room:example.org", { via: ["example.org"] });
    expect(answer).toEqual(summary);
    expect(fake.urls.map((u) => u.pathname)).toEqual([
      "/_matrix/client/v1/room_summary/%23room%3Aexample.org",
      "/_matrix/client/unstable/im.nheko.summary/rooms/%23room%3Aexample.org/summary",
    ]);
    expect(fake.urls[1]?.searchParams.getAll("via")).toEqual(["example.org"]);
  });

  it("hierarchy retries under org.matrix.msc2946 with the same path and query", async () => {
    const fake = fallbackFetch("/_matrix/client/v1/", form, { rooms: [] });
    const http = createHttpClient({ baseUrl: "https://hs.example.org", fetch: fake.fetch, retry: false });
    await hierarchy(http, "!space:example.org", { limit: 5 });
    expect(fake.urls.map((u) => u.pathname)).toEqual([
      "/_matrix/client/v1/rooms/!space%3Aexample.org/hierarchy",
      "/_matrix/client/unstable/org.matrix.msc2946/rooms/!space%3Aexample.org/hierarchy",
    ]);
    expect(fake.urls[1]?.searchParams.get("limit")).toBe("5");
  });
});

describe("no fallback on other errors", () => {
  it("a 403 from the stable room summary is not retried elsewhere", async () => {
    const urls: string[] = [];
    const http = createHttpClient({
      baseUrl: "https://hs.example.org",
      retry: false,
      fetch: (input) => {
        urls.push(input);
        return Promise.resolve(
          new Response(JSON.stringify({ errcode: "M_FORBIDDEN", error: "no" }), {
            status: 403,
            headers: { "content-type": "application/json" },
          }),
        );
      },
    });
    await expect(roomSummary(http, "!r:example.org")).rejects.toMatchObject({ errcode: "M_FORBIDDEN" });
    expect(urls).toHaveLength(1);
  });
});
