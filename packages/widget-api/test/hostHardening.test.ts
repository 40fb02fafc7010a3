/**
 * Hostile traffic at the host (issue 24): replayed requestIds, non-user-id
 * keys in to-device messages, junk among requested capabilities, request
 * `data` that is not an object, and a 10 MB requestId. Each case states the
 * outcome the widget sees and what the driver is (not) asked to do.
 */
import { describe, expect, it } from "vitest";
import { MatrixCapabilities } from "../src/capabilities/MatrixCapabilities";
import { roomEventCapability, toDeviceCapability } from "../src/capabilities/EventCapability";
import { MAX_REQUEST_ID_LENGTH } from "../src/transport/PostMessageTransport";
import { FakeDriver } from "./FakeDriver";
import { flush } from "./fakeWindows";
import { HOST_ORIGIN, negotiatedRawHost, until, WIDGET_ID } from "./harness";

const SEND_REACTION = roomEventCapability("send", "m.reaction");
const reaction = { type: "m.reaction", content: { "m.relates_to": { key: "👍" } } };

describe("replayed requestIds", () => {
  it("a request replayed while in flight, or just after its reply, is processed once", async () => {
    const driver = new FakeDriver();
    const { host, raw } = await negotiatedRawHost([SEND_REACTION], { driver });
    const envelope = { api: "fromWidget", widgetId: WIDGET_ID, requestId: "dup-1", action: "send_event" };
    raw.parent.postMessage({ ...envelope, data: reaction }, HOST_ORIGIN);
    raw.parent.postMessage({ ...envelope, data: reaction }, HOST_ORIGIN);
    const replies = () =>
      raw.win.received.filter((ev) => {
        const m = ev.data as Record<string, unknown>;
        return m["requestId"] === "dup-1" && "response" in m;
      });
    await until(() => replies().length >= 1);
    await flush(100);
    // The in-flight replay was dropped: one reply so far.
    expect(replies()).toHaveLength(1);
    // Replayed after its reply: the same reply again, not sent again.
    raw.parent.postMessage({ ...envelope, data: reaction }, HOST_ORIGIN);
    await until(() => replies().length === 2);
    await flush(100);
    expect(driver.callsOf("sendEvent")).toHaveLength(1);
    const sent = { room_id: "!viewed:example.org", event_id: "$sent" };
    expect(replies().map((ev) => (ev.data as { response: unknown }).response)).toEqual([sent, sent]);
    // The same id with other data once answered is a new request (matrix-widget-api reuses ids).
    const other = { type: "m.reaction", content: { "m.relates_to": { key: "🎉" } } };
    raw.parent.postMessage({ ...envelope, data: other }, HOST_ORIGIN);
    await until(() => replies().length === 3);
    expect(driver.callsOf("sendEvent")).toHaveLength(2);
    host.stop();
  });
});

describe("requestIds reused for new requests", () => {
  it("serves a new request that reuses an answered id, as matrix-widget-api does within a millisecond", async () => {
    // matrix-widget-api names requests widgetapi-<ms> and frees a name once answered: a quick error
    // followed at once by the next request gives both one id. Dropping the second left it to time out.
    const driver = new FakeDriver();
    const { host, raw } = await negotiatedRawHost([SEND_REACTION], { driver });
    const envelope = { api: "fromWidget", widgetId: WIDGET_ID, requestId: "widgetapi-1" };
    const replies = () =>
      raw.win.received
        .map((ev) => ev.data as Record<string, unknown>)
        .filter((m) => m["requestId"] === "widgetapi-1" && "response" in m)
        .map((m) => m["response"]);
    raw.parent.postMessage({ ...envelope, action: "send_event", data: {} }, HOST_ORIGIN);
    await until(() => replies().length >= 1);
    raw.parent.postMessage({ ...envelope, action: "send_event", data: reaction }, HOST_ORIGIN);
    await until(() => replies().length >= 2);
    expect(replies()).toEqual([
      { error: { message: "Invalid request - missing event type" } },
      { room_id: "!viewed:example.org", event_id: "$sent" },
    ]);
    expect(driver.callsOf("sendEvent")).toHaveLength(1);
    host.stop();
  });
});

describe("send_to_device user and device ids", () => {
  const cap = toDeviceCapability("send", "org.example.ping");
  const send = (messages: unknown) => ({ type: "org.example.ping", encrypted: false, messages });

  it("rejects __proto__ and other non-user-id keys before the driver sees them", async () => {
    const driver = new FakeDriver();
    const { host, raw } = await negotiatedRawHost([cap], { driver });
    const proto = JSON.parse('{"__proto__": {"DEV": {"a": 1}}}') as unknown;
    expect(await raw.error("send_to_device", send(proto))).toBe(
      "Invalid request - messages must be keyed by user ID",
    );
    for (const bad of ["constructor", "alice", "@alice", "@:example.org", "@a b:example.org", ""]) {
      expect(await raw.error("send_to_device", send({ [bad]: { DEV: { a: 1 } } }))).toBe(
        "Invalid request - messages must be keyed by user ID",
      );
    }
    const protoDevice = JSON.parse('{"@alice:example.org": {"__proto__": {"a": 1}}}') as unknown;
    for (const devices of [protoDevice, { "@alice:example.org": { "": { a: 1 } } }]) {
      expect(await raw.error("send_to_device", send(devices))).toBe(
        "Invalid request - devices must be keyed by device ID or *",
      );
    }
    expect(driver.callsOf("sendToDevice")).toEqual([]);
    // Valid ids pass through unchanged, in a map with no prototype.
    expect(
      await raw.request("send_to_device", send({ "@alice:example.org": { DEV1: { a: 1 }, "*": { b: 2 } } })),
    ).toEqual({});
    const [call] = driver.callsOf("sendToDevice");
    const messages = call?.[2] as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(messages)).toBeNull();
    expect({ ...messages["@alice:example.org"] }).toEqual({ DEV1: { a: 1 }, "*": { b: 2 } });
    host.stop();
  });
});

describe("capability lists with junk", () => {
  it("a non-string among the requested capabilities is dropped; the rest are negotiated", async () => {
    const driver = new FakeDriver();
    const junk = [MatrixCapabilities.AlwaysOnScreen, 42, null, { a: 1 }, MatrixCapabilities.Screenshots];
    const { host, raw } = await negotiatedRawHost(junk as string[], { driver });
    expect(host.negotiationState).toBe("ready");
    expect(host.capabilities.toArray()).toEqual([
      MatrixCapabilities.AlwaysOnScreen,
      MatrixCapabilities.Screenshots,
    ]);
    expect(driver.callsOf("validateCapabilities")).toEqual([
      [[MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.Screenshots]],
    ]);
    // The same for a renegotiation.
    expect(
      await raw.request("org.matrix.msc2974.request_capabilities", {
        capabilities: [7, MatrixCapabilities.MSC2931Navigate],
      }),
    ).toEqual({});
    await until(() => host.capabilities.has(MatrixCapabilities.MSC2931Navigate));
    host.stop();
  });
});

describe("request data that is not an object", () => {
  it("gets the action's own message", async () => {
    const { host, raw } = await negotiatedRawHost([SEND_REACTION, MatrixCapabilities.AlwaysOnScreen]);
    for (const data of [null, "a string", [1, 2]]) {
      expect(await raw.error("send_event", data)).toBe("Invalid request - missing event type");
      expect(await raw.error("send_to_device", data)).toBe("Invalid request - missing event type");
      expect(await raw.error("set_always_on_screen", data)).toBe("Invalid request - missing value");
      expect(await raw.request("supported_api_versions", data)).toMatchObject({
        supported_versions: expect.any(Array),
      });
    }
    host.stop();
  });
});

describe("error replies are bounded", () => {
  it("a 10 MB requestId is not echoed: the id is cut to its first 200 characters plus …", async () => {
    expect(MAX_REQUEST_ID_LENGTH).toBe(200);
    const { host, raw } = await negotiatedRawHost([]);
    const hugeId = "r".repeat(10 * 1024 * 1024 + 1);
    raw.parent.postMessage(
      { api: "fromWidget", widgetId: WIDGET_ID, requestId: hugeId, action: "send_event", data: {} },
      HOST_ORIGIN,
    );
    const longId = "q".repeat(5_000);
    raw.parent.postMessage(
      { api: "fromWidget", widgetId: WIDGET_ID, requestId: longId, action: "x".repeat(5_000), data: {} },
      HOST_ORIGIN,
    );
    const replies = () =>
      raw.win.received
        .map((ev) => ev.data as Record<string, unknown>)
        .filter((m) => m["api"] === "fromWidget" && "response" in m);
    await until(() => replies().length === 2);
    const [big, long] = replies();
    expect(big).toEqual({
      api: "fromWidget",
      widgetId: WIDGET_ID,
      requestId: `${"r".repeat(200)}…`,
      action: "send_event",
      data: {},
      response: { error: { message: "Invalid request - payload too large" } },
    });
    expect(long).toEqual({
      api: "fromWidget",
      widgetId: WIDGET_ID,
      requestId: `${"q".repeat(200)}…`,
      action: `${"x".repeat(200)}…`,
      data: {},
      response: { error: { message: "Invalid request - requestId too long" } },
    });
    for (const r of replies()) expect(JSON.stringify(r).length).toBeLessThan(2_000);
    host.stop();
  });

  it("an unknown action's reply carries at most 200 characters of its name", async () => {
    const { host, raw } = await negotiatedRawHost([]);
    const name = "a".repeat(100_000);
    const r = await raw.request(name, { big: "b".repeat(100_000) });
    expect(r).toEqual({ error: { message: `Unknown or unsupported action: ${"a".repeat(200)}…` } });
    const reply = raw.win.received
      .map((ev) => ev.data as Record<string, unknown>)
      .find((m) => "response" in m && m["api"] === "fromWidget");
    expect(JSON.stringify(reply).length).toBeLessThan(2_000);
    host.stop();
  });
});
