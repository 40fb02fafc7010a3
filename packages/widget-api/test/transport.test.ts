/**
 * The postMessage transport: replies matched by requestId, the 10 s
 * time-out (fake time), one listener, and the stricter-than-reference
 * checks: source window, origin, 10 MB payloads, malformed envelopes, and a
 * second frame reusing the widget's id, while the real widget keeps being served.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MatrixCapabilities } from "../src/capabilities/MatrixCapabilities";
import { PostMessageTransport } from "../src/transport/PostMessageTransport";
import { exceedsSize } from "../src/transport/payloadSize";
import { embed, FakeWindow, flush } from "./fakeWindows";
import { HOST_ORIGIN, negotiatedRawHost, RawWidget, setupRawHost, WIDGET_ID, WIDGET_ORIGIN } from "./harness";

afterEach(() => {
  vi.useRealTimers();
});

function transportPair() {
  const hostWin = new FakeWindow(HOST_ORIGIN);
  const widgetWin = new FakeWindow(WIDGET_ORIGIN);
  const { frame, parent } = embed(hostWin, widgetWin);
  const host = new PostMessageTransport({
    sendDirection: "toWidget",
    widgetId: WIDGET_ID,
    target: frame,
    targetOrigin: WIDGET_ORIGIN,
    inbox: hostWin,
    acceptSource: frame,
    acceptOrigin: WIDGET_ORIGIN,
  });
  const widget = new PostMessageTransport({
    sendDirection: "fromWidget",
    widgetId: null,
    target: parent,
    targetOrigin: HOST_ORIGIN,
    inbox: widgetWin,
    acceptSource: parent,
    acceptOrigin: HOST_ORIGIN,
  });
  host.start();
  widget.start();
  return { host, widget, hostWin, widgetWin, frame, parent };
}

describe("PostMessageTransport", () => {
  it("matches replies by requestId and learns the widget id from the first request", async () => {
    const { host, widget } = transportPair();
    widget.onRequest = (r) => widget.reply(r, { echo: r.data["n"] });
    const [a, b] = await Promise.all([host.send("ping", { n: 1 }), host.send("ping", { n: 2 })]);
    expect([a["echo"], b["echo"]]).toEqual([1, 2]);
    expect(widget.widgetId).toBe(WIDGET_ID);
  });

  it("an error reply rejects with its message and extra fields", async () => {
    const { host, widget } = transportPair();
    widget.onRequest = (r) => widget.replyError(r, "nope", { errcode: "M_FORBIDDEN" });
    await expect(host.send("ping", {})).rejects.toMatchObject({
      message: "nope",
      data: { errcode: "M_FORBIDDEN" },
    });
  });

  it("times out after 10 s with 'widget api timeout' (fake time)", async () => {
    vi.useFakeTimers();
    const { host } = transportPair();
    const p = host.send("ping", {});
    const seen = p.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(9_999);
    let settled = false;
    void seen.then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await seen).toBe("widget api timeout");
  });

  it("uses one listener and removes it on stop, failing pending requests", async () => {
    const { host, hostWin } = transportPair();
    host.start();
    expect(hostWin.listenerCount).toBe(1);
    const p = host.send("ping", {});
    host.stop();
    expect(hostWin.listenerCount).toBe(0);
    await expect(p).rejects.toThrow("Transport stopped");
  });

  it("posts only to the widget origin", () => {
    const { host, frame } = transportPair();
    const spy = vi.spyOn(frame, "postMessage");
    void host.send("ping", {}).catch(() => undefined);
    expect(spy.mock.calls[0]?.[1]).toBe(WIDGET_ORIGIN);
    host.stop();
  });

  it("estimates sizes with a budget, cycles and binary data included", () => {
    const cyclic: Record<string, unknown> = { a: "x" };
    cyclic["self"] = cyclic;
    expect(exceedsSize(cyclic, 100)).toBe(false);
    expect(exceedsSize({ big: "x".repeat(200) }, 100)).toBe(true);
    expect(exceedsSize({ buf: new ArrayBuffer(101) }, 100)).toBe(true);
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(exceedsSize(deep, 10 * 1024 * 1024)).toBe(false);
  });
});

describe("host hardening", () => {
  it("ignores a second frame reusing the widget's id, and keeps serving the real widget", async () => {
    const { host, raw, hostWin } = await negotiatedRawHost([MatrixCapabilities.AlwaysOnScreen]);
    const evilWin = new FakeWindow(WIDGET_ORIGIN);
    const evil = new RawWidget(evilWin, embed(hostWin, evilWin).parent);
    expect(await evil.request("set_always_on_screen", { value: true })).toBeNull();
    expect(await raw.request("set_always_on_screen", { value: true })).toEqual({ success: true });
    host.stop();
  });

  it("ignores messages from the right window but the wrong origin", async () => {
    const { host, raw, hostWin, frame } = await negotiatedRawHost([]);
    // The widget's own frame, navigated to another origin.
    const envelope = {
      api: "fromWidget",
      widgetId: WIDGET_ID,
      requestId: "evil-1",
      action: "supported_api_versions",
      data: {},
    };
    hostWin.dispatch({ data: envelope, origin: "http://evil.example", source: frame });
    await flush();
    expect(raw.win.received.some((ev) => (ev.data as { requestId?: string }).requestId === "evil-1")).toBe(
      false,
    );
    hostWin.dispatch({ data: { ...envelope, requestId: "good-1" }, origin: WIDGET_ORIGIN, source: frame });
    await flush();
    expect(raw.win.received.some((ev) => (ev.data as { requestId?: string }).requestId === "good-1")).toBe(
      true,
    );
    host.stop();
  });

  it("answers 10 MB payloads with a clear error and keeps serving", async () => {
    const { host, raw } = await negotiatedRawHost([]);
    const big = "x".repeat(10 * 1024 * 1024 + 1);
    expect(await raw.request("send_event", { type: "m.room.message", content: { body: big } })).toEqual({
      error: { message: "Invalid request - payload too large" },
    });
    expect(await raw.request("supported_api_versions")).toMatchObject({
      supported_versions: expect.any(Array),
    });
    host.stop();
  });

  it("drops or answers malformed envelopes and keeps serving", async () => {
    const { host, raw } = setupRawHost();
    for (const junk of [
      null,
      42,
      "str",
      [],
      { api: "fromWidget" },
      { api: "fromWidget", widgetId: WIDGET_ID, requestId: 5, action: "x" },
    ]) {
      raw.parent.postMessage(junk, HOST_ORIGIN);
    }
    // data that is not an object reaches the action as {}: here an action that needs none.
    expect(await raw.request("supported_api_versions", "not-an-object")).toMatchObject({
      supported_versions: expect.any(Array),
    });
    expect(await raw.request("supported_api_versions", {}, { api: "toWidget" })).toBeNull();
    expect(await raw.request("supported_api_versions", {}, { widgetId: "someone-else" })).toBeNull();
    expect(await raw.request("supported_api_versions")).toMatchObject({
      supported_versions: expect.any(Array),
    });
    host.stop();
  });

  it("ignores everything after stop", async () => {
    const { host, raw } = setupRawHost();
    host.stop();
    expect(await raw.request("supported_api_versions")).toBeNull();
  });
});
