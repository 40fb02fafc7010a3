/**
 * Unit tests of MSC4140 delayed events: the support check (including hostile
 * /versions JSON) and the unstable query and prefix names.
 */
import { describe, expect, it } from "vitest";
import {
  assertDelayedEventsSupported,
  getDelayedEvents,
  sendDelayedEvent,
  sendDelayedStateEvent,
  updateDelayedEvent,
} from "./delayed-events";
import { ApiError } from "./errors";
import { recordingHttp } from "./testing/recording-http";

describe("assertDelayedEventsSupported", () => {
  it("passes only when org.matrix.msc4140 is advertised as true", () => {
    expect(() =>
      assertDelayedEventsSupported({ unstable_features: { "org.matrix.msc4140": true } }),
    ).not.toThrow();
  });

  it.each([
    ["no unstable_features", {}],
    ["the flag false", { unstable_features: { "org.matrix.msc4140": false } }],
    ["another flag only", { unstable_features: { "org.matrix.msc4222": true } }],
    [
      "an inherited key",
      { unstable_features: Object.create({ "org.matrix.msc4140": true }) as Record<string, boolean> },
    ],
  ])("throws 'Server does not support the delayed events API' with %s", (_label, versions) => {
    let thrown: unknown;
    try {
      assertDelayedEventsSupported(versions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).message).toBe("Server does not support the delayed events API");
    expect((thrown as ApiError).code).toBe("UNSUPPORTED_BY_SERVER");
  });

  it("does not crash on a __proto__ feature key from JSON", () => {
    const versions = JSON.parse('{"unstable_features":{"__proto__":{"org.matrix.msc4140":true}}}') as {
      unstable_features: Record<string, boolean>;
    };
    expect(() => assertDelayedEventsSupported(versions)).toThrow(
      "Server does not support the delayed events API",
    );
  });
});

describe("delayed sends", () => {
  it("schedules a timeline event with the delay query on the normal send path", async () => {
    const http = recordingHttp({ delay_id: "d1" });
    const answer = await sendDelayedEvent(
      http,
      "!r:x",
      "m.room.message",
      "t1",
      { body: "hi" },
      { delayMs: 5000 },
    );
    expect(answer).toEqual({ delay_id: "d1" });
    const req = http.only();
    expect(req).toMatchObject({
      method: "PUT",
      path: "/rooms/!r%3Ax/send/m.room.message/t1",
      body: { body: "hi" },
    });
    expect(req.query).toEqual({
      "org.matrix.msc4140.delay": 5000,
      "org.matrix.msc4140.parent_delay_id": undefined,
    });
  });

  it("schedules a state event hanging off a parent delayed event", async () => {
    const http = recordingHttp();
    await sendDelayedStateEvent(http, "!r:x", "m.call.member", {}, { parentDelayId: "d1" }, "@a:x");
    const req = http.only();
    expect(req.path).toBe("/rooms/!r%3Ax/state/m.call.member/%40a%3Ax");
    expect(req.query).toEqual({
      "org.matrix.msc4140.delay": undefined,
      "org.matrix.msc4140.parent_delay_id": "d1",
    });
  });

  it("lists and updates under the unstable prefix", async () => {
    const http = recordingHttp();
    await getDelayedEvents(http);
    await updateDelayedEvent(http, "d/1", "cancel");
    expect(http.requests[0]).toMatchObject({
      method: "GET",
      prefix: "/_matrix/client/unstable/org.matrix.msc4140",
      path: "/delayed_events",
    });
    expect(http.requests[1]).toMatchObject({
      method: "POST",
      prefix: "/_matrix/client/unstable/org.matrix.msc4140",
      path: "/delayed_events/d%2F1",
      body: { action: "cancel" },
    });
  });
});
