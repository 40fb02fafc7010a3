/**
 * Unit tests of MSC4354 sticky sends: the support check and the unstable
 * query names, alone and with MSC4140's delay beside them.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { assertStickyEventsSupported, sendStickyEvent } from "./sticky-events";
import { recordingHttp } from "./testing/recording-http";

describe("assertStickyEventsSupported", () => {
  it("passes only when org.matrix.msc4354 is advertised", () => {
    expect(() => assertStickyEventsSupported(new Set(["org.matrix.msc4354"]))).not.toThrow();
    let thrown: unknown;
    try {
      assertStickyEventsSupported(new Set(["org.matrix.msc4140"]));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).message).toBe("Server does not support sticky events");
    expect((thrown as ApiError).code).toBe("UNSUPPORTED_BY_SERVER");
  });
});

describe("sendStickyEvent", () => {
  it("puts the sticky duration on the normal send path", async () => {
    const http = recordingHttp({ event_id: "$e" });
    expect(await sendStickyEvent(http, "!r:x", "org.example.t", "t1", { a: 1 }, 60_000)).toEqual({
      event_id: "$e",
    });
    const req = http.only();
    expect(req).toMatchObject({ method: "PUT", path: "/rooms/!r%3Ax/send/org.example.t/t1", body: { a: 1 } });
    expect(req.query).toEqual({
      "org.matrix.msc4354.sticky_duration_ms": 60_000,
      "org.matrix.msc4140.delay": undefined,
      "org.matrix.msc4140.parent_delay_id": undefined,
    });
  });

  it("adds the delay when asked", async () => {
    const http = recordingHttp({ delay_id: "d1" });
    await sendStickyEvent(http, "!r:x", "org.example.t", "t2", {}, 1000, { delayMs: 500 });
    expect(http.only().query).toMatchObject({
      "org.matrix.msc4354.sticky_duration_ms": 1000,
      "org.matrix.msc4140.delay": 500,
    });
  });
});
