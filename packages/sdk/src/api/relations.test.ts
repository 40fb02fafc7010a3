/**
 * Unit tests of the relations path shapes.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { relations, relationsPath } from "./relations";
import { recordingHttp } from "./testing/recording-http";

describe("relationsPath", () => {
  it("builds the three shapes the spec defines", () => {
    expect(relationsPath("!r:x", "$e")).toBe("/rooms/!r%3Ax/relations/%24e");
    expect(relationsPath("!r:x", "$e", "m.thread")).toBe("/rooms/!r%3Ax/relations/%24e/m.thread");
    expect(relationsPath("!r:x", "$e", "m.thread", "m.room.message")).toBe(
      "/rooms/!r%3Ax/relations/%24e/m.thread/m.room.message",
    );
  });

  it("refuses an event type without a relation type", () => {
    expect(() => relationsPath("!r:x", "$e", undefined, "m.room.message")).toThrow(ApiError);
  });
});

describe("relations", () => {
  it("rejects instead of throwing synchronously, and sends nothing", async () => {
    const http = recordingHttp();
    await expect(relations(http, "!r:x", "$e", { eventType: "m.room.message" })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(http.requests).toHaveLength(0);
  });

  it("uses the v1 prefix and passes paging options", async () => {
    const http = recordingHttp({ chunk: [] });
    await relations(http, "!r:x", "$e", { relType: "m.annotation", limit: 5, dir: "f", recurse: true });
    expect(http.only()).toMatchObject({
      prefix: "/_matrix/client/v1",
      query: { limit: 5, dir: "f", recurse: true },
    });
  });
});
