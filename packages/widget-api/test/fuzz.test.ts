/**
 * Property test: random envelopes and data thrown at the host. No exception
 * escapes the message listener or the host's promise chains, every reply
 * the host sends is a well-formed envelope, and no capability is granted
 * that the driver did not approve.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MatrixCapabilities, timelineCapability } from "../src/capabilities/MatrixCapabilities";
import { FromWidgetAction } from "../src/interfaces/WidgetApiAction";
import { FakeDriver } from "./FakeDriver";
import { flush } from "./fakeWindows";
import {
  HOST_ORIGIN,
  negotiatedRawHost,
  recordingLogger,
  setupPair,
  VIEWED_ROOM,
  WIDGET_ID,
} from "./harness";

const APPROVED = [MatrixCapabilities.AlwaysOnScreen, "org.matrix.msc2762.send.event:m.reaction"];
const CAP_POOL = [
  ...Object.values(MatrixCapabilities),
  timelineCapability("*"),
  timelineCapability(VIEWED_ROOM),
  "org.matrix.msc2762.send.event:m.room.message#m.text",
  "org.matrix.msc2762.receive.state_event:m.room.member",
  "__proto__",
  "constructor",
];

const anyJson = fc.jsonValue({ maxDepth: 4 });
const action = fc.oneof(
  fc.constantFrom(...Object.values(FromWidgetAction)),
  fc.string(),
  fc.constantFrom("__proto__", "toString", "constructor"),
);
const data = fc.oneof(
  anyJson,
  fc.dictionary(
    fc.constantFrom(
      "type",
      "state_key",
      "content",
      "room_id",
      "room_ids",
      "limit",
      "delay",
      "delay_id",
      "action",
      "messages",
      "encrypted",
      "uri",
      "capabilities",
      "search_term",
      "event_id",
      "file",
      "content_uri",
      "button",
      "enabled",
      "value",
      "url",
      "buttons",
      "__proto__",
    ),
    anyJson,
  ),
  fc.record({ capabilities: fc.array(fc.constantFrom(...CAP_POOL)) }),
);
const envelope = fc.oneof(
  anyJson,
  fc.record(
    {
      api: fc.oneof(fc.constantFrom("fromWidget", "toWidget"), fc.string()),
      widgetId: fc.oneof(fc.constant(WIDGET_ID), fc.string()),
      requestId: fc.oneof(fc.string(), fc.integer()),
      action,
      data,
      response: anyJson,
    },
    { requiredKeys: [] },
  ),
  fc.record({
    api: fc.constant("fromWidget"),
    widgetId: fc.constant(WIDGET_ID),
    requestId: fc.uuid(),
    action,
    data,
  }),
);

let unhandled: unknown[] = [];
const onUnhandled = (e: unknown): void => {
  unhandled.push(e);
};
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("host fuzz", () => {
  it("survives random envelopes and never grants unapproved capabilities", async () => {
    const driver = new FakeDriver();
    // The driver approves a fixed set, whatever is asked, including on renegotiation.
    driver.grant = (requested) => new Set(APPROVED.filter((c) => requested.has(c)));
    const logger = recordingLogger();
    const { host, raw, hostWin, frame } = await negotiatedRawHost(
      [...APPROVED, MatrixCapabilities.MSC2931Navigate, timelineCapability("*")],
      { driver, logger },
    );
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(fc.array(envelope, { maxLength: 8 }), async (messages) => {
        for (const m of messages) {
          // Straight into the listener, as the host's window would deliver it.
          expect(() =>
            hostWin.dispatch({ data: m, origin: "http://localhost:9000", source: frame }),
          ).not.toThrow();
        }
        await flush(30);
        for (const c of host.capabilities.toArray()) expect(APPROVED).toContain(c);
      }),
      { numRuns: 300 },
    );
    await flush(50);
    // Every reply the widget received is a proper envelope with a response object.
    for (const ev of raw.win.received) {
      const m = ev.data as Record<string, unknown>;
      expect(typeof m["requestId"]).toBe("string");
      expect(ev.origin).toBe(HOST_ORIGIN);
      if (m["api"] === "fromWidget") expect(typeof m["response"]).toBe("object");
    }
    expect(unhandled).toEqual([]);
    // No handler crashed: every failure was a deliberate error reply, not "Unexpected error handling the request".
    const crashes = logger.errors.filter(
      (e) => typeof e[0] === "string" && e[0].endsWith(" failed") && !e[0].includes("openid"),
    );
    expect(crashes).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    expect(host.capabilities.has(MatrixCapabilities.MSC2931Navigate)).toBe(false);
    consoleError.mockRestore();
    host.stop();
  });
});

describe("widget side fuzz", () => {
  it("survives random to-widget envelopes from its parent", async () => {
    const { widget, widgetWin, parent, host } = setupPair();
    host.stop();
    widget.start();
    const toWidgetAction = fc.oneof(
      fc.constantFrom(
        "capabilities",
        "notify_capabilities",
        "openid_credentials",
        "update_turn_servers",
        "screenshot",
        "send_event",
        "__proto__",
      ),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            api: fc.constant("toWidget"),
            widgetId: fc.constant(WIDGET_ID),
            requestId: fc.uuid(),
            action: toWidgetAction,
            data: anyJson,
          }),
          { maxLength: 6 },
        ),
        async (messages) => {
          for (const m of messages)
            expect(() => widgetWin.dispatch({ data: m, origin: HOST_ORIGIN, source: parent })).not.toThrow();
          await flush(20);
        },
      ),
      { numRuns: 150 },
    );
    expect(unhandled).toEqual([]);
    widget.stop();
  });
});

describe("driver misbehaviour", () => {
  it("an uncloneable driver result becomes an error reply, and the host keeps serving", async () => {
    const driver = new FakeDriver();
    driver.getMediaConfig = () => Promise.resolve({ bad: () => 1 });
    const { host, raw } = await negotiatedRawHost([MatrixCapabilities.MSC4039UploadFile], { driver });
    expect(await raw.request("org.matrix.msc4039.get_media_config")).toEqual({
      error: { message: "Unable to serialise response" },
    });
    expect(await raw.request("supported_api_versions")).toMatchObject({
      supported_versions: expect.any(Array),
    });
    host.stop();
  });
});
