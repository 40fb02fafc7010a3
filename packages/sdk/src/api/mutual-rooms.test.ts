/**
 * Mutual rooms: the support guard and its message, the choice between the
 * stable and unstable endpoints, and pagination to the end.
 */
import { describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { ApiError } from "./errors";
import { getAllMutualRooms, getMutualRooms, mutualRoomsSupport } from "./mutual-rooms";

const STABLE = {
  versions: ["v1.11"],
  unstable_features: { "uk.half-shot.msc2666.query_mutual_rooms.stable": true },
};
const UNSTABLE = {
  versions: ["v1.11"],
  unstable_features: { "uk.half-shot.msc2666.query_mutual_rooms": true },
};

describe("mutualRoomsSupport", () => {
  it("reads the flags, preferring stable", () => {
    expect(mutualRoomsSupport(STABLE)).toBe("stable");
    expect(mutualRoomsSupport(UNSTABLE)).toBe("unstable");
    expect(
      mutualRoomsSupport({
        versions: [],
        unstable_features: { ...STABLE.unstable_features, ...UNSTABLE.unstable_features },
      }),
    ).toBe("stable");
  });

  it("is null without the flags, with false flags, and for hostile documents", () => {
    expect(mutualRoomsSupport({ versions: ["v1.16"] })).toBeNull();
    expect(
      mutualRoomsSupport({
        versions: [],
        unstable_features: { "uk.half-shot.msc2666.query_mutual_rooms": false },
      }),
    ).toBeNull();
    // The old flag of a different endpoint shape does not count.
    expect(
      mutualRoomsSupport({ versions: [], unstable_features: { "uk.half-shot.msc2666.mutual_rooms": true } }),
    ).toBeNull();
    expect(
      mutualRoomsSupport(JSON.parse('{"versions":[],"unstable_features":{"__proto__":{}}}') as never),
    ).toBeNull();
    expect(mutualRoomsSupport({ versions: [], unstable_features: "yes" } as never)).toBeNull();
  });
});

describe("getMutualRooms", () => {
  it("throws 'Server does not support the Mutual Rooms API' without support, sending nothing", async () => {
    const http = recordingHttp();
    const err: unknown = await getMutualRooms(http, { versions: ["v1.11"] }, "@bob:example.org").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("Server does not support the Mutual Rooms API");
    expect((err as ApiError).code).toBe("UNSUPPORTED_BY_SERVER");
    expect(http.calls).toHaveLength(0);
  });

  it("keeps only room id strings from the answer", async () => {
    const http = recordingHttp({ ok: { joined: ["!a:x", 5, null, "!b:x"], next_batch_token: "" } });
    expect(await getMutualRooms(http, UNSTABLE, "@bob:example.org")).toEqual({ joined: ["!a:x", "!b:x"] });
  });
});

describe("getAllMutualRooms", () => {
  it("follows the unstable batch tokens to the end", async () => {
    const http = recordingHttp(
      { ok: { joined: ["!a:x"], next_batch_token: "t1" } },
      { ok: { joined: ["!b:x"], next_batch_token: "t2" } },
      { ok: { joined: ["!c:x", "!a:x"] } },
    );
    expect(await getAllMutualRooms(http, UNSTABLE, "@bob:example.org")).toEqual(["!a:x", "!b:x", "!c:x"]);
    expect(http.calls.map((c) => c.query)).toEqual([
      { user_id: "@bob:example.org", batch_token: undefined },
      { user_id: "@bob:example.org", batch_token: "t1" },
      { user_id: "@bob:example.org", batch_token: "t2" },
    ]);
  });

  it("follows the stable next_batch with from", async () => {
    const http = recordingHttp(
      { ok: { joined: ["!a:x"], count: 2, next_batch: "n1" } },
      { ok: { joined: ["!b:x"], count: 2 } },
    );
    expect(await getAllMutualRooms(http, STABLE, "@bob:example.org")).toEqual(["!a:x", "!b:x"]);
    expect(http.calls[1]).toMatchObject({ path: "/_matrix/client/v1/mutual_rooms", query: { from: "n1" } });
  });

  it("stops on a repeated token and at the page limit", async () => {
    const repeating = recordingHttp(
      { ok: { joined: ["!a:x"], next_batch_token: "same" } },
      { ok: { joined: ["!b:x"], next_batch_token: "same" } },
    );
    expect(await getAllMutualRooms(repeating, UNSTABLE, "@bob:example.org")).toEqual(["!a:x", "!b:x"]);
    expect(repeating.calls).toHaveLength(2);

    const endless = recordingHttp(
      ...Array.from({ length: 10 }, (_, i) => ({ ok: { joined: [`!r${i}:x`], next_batch_token: `t${i}` } })),
    );
    expect(await getAllMutualRooms(endless, UNSTABLE, "@bob:example.org", 3)).toHaveLength(3);
    expect(endless.calls).toHaveLength(3);
  });
});
