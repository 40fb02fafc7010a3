/**
 * Host lifecycle (SPEC §4): load vs content_loaded, the 10 s content-loaded
 * timer (fake time), negotiation preparing -> ready / error:preparing once,
 * the OpenID flow, TURN watching, update_state pushes and event forwarding.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  roomEventCapability,
  stateEventCapability,
  toDeviceCapability,
} from "../src/capabilities/EventCapability";
import { MatrixCapabilities, timelineCapability } from "../src/capabilities/MatrixCapabilities";
import { UnstableApiVersion } from "../src/interfaces/ApiVersion";
import { FakeDriver, roomEvent } from "./FakeDriver";
import { flush } from "./fakeWindows";
import { negotiatedRawHost, recordingLogger, setupRawHost, until, VIEWED_ROOM } from "./harness";

const IMPROPER_ONCE = "Improper sequence: ContentLoaded Action can only be sent once";
const NOT_EXPECTING = "Improper sequence: not expecting ContentLoaded event if waitForIframeLoad is true";

afterEach(() => {
  vi.useRealTimers();
});

describe("content loaded", () => {
  it("waitForIframeLoad true: negotiation starts on load, content_loaded is refused", async () => {
    const { host, raw } = setupRawHost();
    raw.autoAnswer([]);
    const states: string[] = [];
    host.on("preparing", () => states.push("preparing"));
    host.on("ready", () => states.push("ready"));
    host.onIframeLoad();
    await until(() => host.negotiationState === "ready");
    expect(states).toEqual(["preparing", "ready"]);
    expect(await raw.error("content_loaded")).toBe(NOT_EXPECTING);
    expect((await raw.error("content_loaded")).startsWith(IMPROPER_ONCE)).toBe(true);
    host.stop();
  });

  it("waitForIframeLoad false: negotiation waits for a single content_loaded", async () => {
    const { host, raw } = setupRawHost({ widget: { waitForIframeLoad: false } });
    raw.autoAnswer(["m.always_on_screen"]);
    host.onIframeLoad();
    await flush();
    expect(raw.toWidget("capabilities")).toHaveLength(0);
    expect(host.negotiationState).toBe("idle");
    expect(await raw.request("content_loaded")).toEqual({});
    await until(() => host.negotiationState === "ready");
    expect(raw.toWidget("capabilities")).toHaveLength(1);
    const second = await raw.error("content_loaded");
    expect(second).toBe(
      "Improper sequence: ContentLoaded Action can only be sent once after the widget loaded and should only be used if waitForIframeLoad is false (default=true)",
    );
    host.stop();
  });

  it("logs once the 10 s content-loaded wait runs out (fake time)", () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const { host } = setupRawHost({ widget: { waitForIframeLoad: false }, logger });
    host.onIframeLoad();
    vi.advanceTimersByTime(9_999);
    expect(logger.errors).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(logger.errors.map((e) => e[0])).toEqual([
      "Widget specified waitForIframeLoad=false but timed out waiting for contentLoaded event!",
    ]);
    host.stop();
  });

  it("content_loaded in time cancels the timer", async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const { host, raw } = setupRawHost({ widget: { waitForIframeLoad: false }, logger });
    raw.autoAnswer([]);
    host.onIframeLoad();
    await raw.request("content_loaded");
    vi.advanceTimersByTime(20_000);
    expect(logger.errors).toHaveLength(0);
    host.stop();
  });
});

describe("negotiation", () => {
  it("completes once; a second attempt gets an error", async () => {
    const { host } = await negotiatedRawHost([]);
    expect(host.negotiationState).toBe("ready");
    await expect(host.beginCapabilities()).rejects.toThrow("Capability negotiation already completed");
    host.stop();
  });

  it("goes to error:preparing when the widget never answers (10 s time-out, fake time)", async () => {
    vi.useFakeTimers();
    const { host } = setupRawHost();
    const errors: Error[] = [];
    host.on("error:preparing", (e) => errors.push(e));
    host.onIframeLoad();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.negotiationState).toBe("error:preparing");
    expect(errors.map((e) => e.message)).toEqual(["widget api timeout"]);
    host.stop();
  });

  it("grants only approved capabilities the widget requested, and notifies them", async () => {
    const driver = new FakeDriver();
    driver.grant = () => new Set([MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.Screenshots]);
    const { host, raw } = await negotiatedRawHost(
      [MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.MSC2931Navigate],
      { driver },
    );
    expect(host.capabilities.toArray()).toEqual([MatrixCapabilities.AlwaysOnScreen]);
    await until(() => raw.toWidget("notify_capabilities").length === 1);
    expect(raw.toWidget("notify_capabilities")[0]?.["data"]).toEqual({
      requested: [MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.MSC2931Navigate],
      approved: [MatrixCapabilities.AlwaysOnScreen],
    });
    host.stop();
  });

  it("renegotiation asks the driver only for new capabilities", async () => {
    const driver = new FakeDriver();
    const { host, raw } = await negotiatedRawHost([MatrixCapabilities.AlwaysOnScreen], { driver });
    expect(
      await raw.request("org.matrix.msc2974.request_capabilities", {
        capabilities: [MatrixCapabilities.AlwaysOnScreen, MatrixCapabilities.MSC2931Navigate],
      }),
    ).toEqual({});
    await until(() => raw.toWidget("notify_capabilities").length === 2);
    expect(driver.callsOf("validateCapabilities").at(-1)).toEqual([[MatrixCapabilities.MSC2931Navigate]]);
    expect(host.capabilities.has(MatrixCapabilities.MSC2931Navigate)).toBe(true);
    expect(await raw.error("org.matrix.msc2974.request_capabilities", { capabilities: "all" })).toBe(
      "Invalid request - capabilities must be a list of strings",
    );
    host.stop();
  });
});

describe("OpenID flow", () => {
  it("allowed with a token at once", async () => {
    const driver = new FakeDriver();
    const token = {
      access_token: "tok",
      expires_in: 3600,
      matrix_server_name: "example.org",
      token_type: "Bearer" as const,
    };
    driver.openId = (o) => o.update({ state: "allowed", token });
    const { raw } = await negotiatedRawHost([], { driver });
    expect(await raw.request("get_openid")).toEqual({ state: "allowed", ...token });
  });

  it("pending user confirmation once, then allowed via openid_credentials", async () => {
    const driver = new FakeDriver();
    let later: ((s: "allowed" | "blocked" | "request") => void) | null = null;
    const token = {
      access_token: "tok",
      expires_in: 60,
      matrix_server_name: "example.org",
      token_type: "Bearer" as const,
    };
    driver.openId = (o) => {
      o.update({ state: "request" });
      later = (state) => o.update({ state, token });
    };
    const { raw } = await negotiatedRawHost([], { driver });
    const first = await raw.request("get_openid");
    expect(first).toEqual({ state: "request" });
    later!("allowed");
    await until(() => raw.toWidget("openid_credentials").length === 1);
    expect(raw.toWidget("openid_credentials")[0]?.["data"]).toEqual({
      state: "allowed",
      original_request_id: "raw-1",
      ...token,
    });
  });

  it("a second pending is out of phase and blocks the flow", async () => {
    const driver = new FakeDriver();
    const logger = recordingLogger();
    driver.openId = (o) => {
      o.update({ state: "request" });
      o.update({ state: "request" });
    };
    const { raw } = await negotiatedRawHost([], { driver, logger });
    expect(await raw.request("get_openid")).toEqual({ state: "request" });
    await until(() => raw.toWidget("openid_credentials").length === 1);
    expect(raw.toWidget("openid_credentials")[0]?.["data"]).toEqual({
      state: "blocked",
      original_request_id: "raw-1",
    });
    expect(logger.errors.map((e) => e[0])).toContain(
      "widget api: client provided out-of-phase response to OIDC flow",
    );
  });

  it("allowed without a valid token is refused", async () => {
    const driver = new FakeDriver();
    driver.openId = (o) => o.update({ state: "allowed" });
    const { raw } = await negotiatedRawHost([], { driver });
    expect(await raw.error("get_openid")).toBe("client provided invalid OIDC token for an allowed request");
  });

  it("blocked", async () => {
    const { raw } = await negotiatedRawHost([]);
    expect(await raw.request("get_openid")).toEqual({ state: "blocked" });
  });
});

describe("TURN watching", () => {
  const server = { uris: ["turn:turn.example.org"], username: "u", password: "p" };

  it("first watch polls, unwatch stops", async () => {
    const driver = new FakeDriver();
    driver.turnServers = [server];
    const { host, raw } = await negotiatedRawHost([MatrixCapabilities.MSC3846TurnServers], { driver });
    expect(await raw.request("watch_turn_servers")).toEqual({});
    await until(() => raw.toWidget("update_turn_servers").length === 1);
    expect(raw.toWidget("update_turn_servers")[0]?.["data"]).toEqual(server);
    expect(await raw.request("watch_turn_servers")).toEqual({});
    expect(driver.callsOf("getTurnServers")).toHaveLength(1);
    expect(await raw.request("unwatch_turn_servers")).toEqual({});
    expect(await raw.request("unwatch_turn_servers")).toEqual({});
    driver.releaseTurn();
    // After unwatch a new watch starts a new poll.
    expect(await raw.request("watch_turn_servers")).toEqual({});
    expect(driver.callsOf("getTurnServers")).toHaveLength(2);
    host.stop();
  });

  it("'Client refuses to provide any TURN servers' and 'TURN servers not available'", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([MatrixCapabilities.MSC3846TurnServers], { driver });
    expect(await raw.error("watch_turn_servers")).toBe("Client refuses to provide any TURN servers");
    driver.failWith = new Error("403");
    expect(await raw.error("watch_turn_servers")).toBe("TURN servers not available");
  });
});

describe("events and state pushed to the widget", () => {
  it("forwards another room's events only under a timeline capability", async () => {
    const { host, raw } = await negotiatedRawHost([
      roomEventCapability("receive", "m.reaction"),
      timelineCapability("!covered:x"),
    ]);
    await host.feedEvent(roomEvent({ type: "m.reaction", room_id: VIEWED_ROOM, event_id: "$viewed" }));
    await host.feedEvent(roomEvent({ type: "m.reaction", room_id: "!elsewhere:x", event_id: "$elsewhere" }));
    await host.feedEvent(roomEvent({ type: "m.reaction", room_id: "!covered:x", event_id: "$covered" }));
    await host.feedEvent(roomEvent({ type: "m.room.message", room_id: VIEWED_ROOM, event_id: "$denied" }));
    expect(raw.toWidget("send_event").map((m) => (m["data"] as { event_id: string }).event_id)).toEqual([
      "$viewed",
      "$covered",
    ]);
    host.stop();
  });

  it("forwards to-device messages only with a receive capability", async () => {
    const { host, raw } = await negotiatedRawHost([toDeviceCapability("receive", "org.example.ping")]);
    await host.feedToDevice({ type: "org.example.ping", sender: "@a:x", content: { n: 1 } }, true);
    await host.feedToDevice({ type: "org.example.secret", sender: "@a:x", content: {} }, false);
    expect(raw.toWidget("send_to_device").map((m) => m["data"])).toEqual([
      { type: "org.example.ping", sender: "@a:x", content: { n: 1 }, encrypted: true },
    ]);
    host.stop();
  });

  it("pushes update_state after approval to widgets that support it", async () => {
    const driver = new FakeDriver();
    const member = roomEvent({
      type: "m.room.member",
      room_id: VIEWED_ROOM,
      state_key: "@me:x",
      content: { membership: "join" },
    });
    driver.state = [
      member,
      roomEvent({ type: "m.room.member", room_id: VIEWED_ROOM, state_key: "@other:x" }),
    ];
    const { host, raw } = await negotiatedRawHost(
      [stateEventCapability("receive", "m.room.member", "@me:x")],
      {
        driver,
        versions: [UnstableApiVersion.MSC2762UpdateState],
      },
    );
    await until(() => raw.toWidget("update_state").length === 1);
    expect(raw.toWidget("update_state")[0]?.["data"]).toEqual({ state: [member] });
    const change = { ...member, event_id: "$new", content: { membership: "leave" } };
    await host.feedStateUpdate(change);
    await host.feedStateUpdate({ ...member, state_key: "@other:x" });
    await until(() => raw.toWidget("update_state").length === 2);
    expect(raw.toWidget("update_state")[1]?.["data"]).toEqual({ state: [change] });
    await host.statePushesSettled();
    expect(raw.toWidget("update_state")).toHaveLength(2);
    host.stop();
  });

  it("does not push update_state to widgets without support", async () => {
    const driver = new FakeDriver();
    driver.state = [roomEvent({ type: "m.room.member", room_id: VIEWED_ROOM, state_key: "@me:x" })];
    const { host, raw } = await negotiatedRawHost([stateEventCapability("receive", "m.room.member")], {
      driver,
    });
    await host.statePushesSettled();
    await flush();
    expect(raw.toWidget("supported_api_versions")).toHaveLength(1);
    expect(raw.toWidget("update_state")).toHaveLength(0);
    host.stop();
  });
});
