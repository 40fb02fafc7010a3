/**
 * Every validation and denial message of SPEC §5, §6 and §8 that the host
 * produces, with the exact text, over the in-memory postMessage pair.
 */
import { describe, expect, it } from "vitest";
import { MatrixCapabilities, timelineCapability } from "../src/capabilities/MatrixCapabilities";
import {
  roomAccountDataCapability,
  roomEventCapability,
  roomMessageCapability,
  stateEventCapability,
  toDeviceCapability,
} from "../src/capabilities/EventCapability";
import { FakeDriver } from "./FakeDriver";
import { negotiatedRawHost, setupRawHost, VIEWED_ROOM } from "./harness";

const OTHER_ROOM = "!other:example.org";

describe("host validation messages (SPEC §5)", () => {
  it("read_events: missing type and limit out of range", async () => {
    const { raw } = await negotiatedRawHost([roomEventCapability("receive", "m.reaction")]);
    expect(await raw.error("org.matrix.msc2876.read_events", {})).toBe(
      "Invalid request - missing event type",
    );
    expect(await raw.error("org.matrix.msc2876.read_events", { type: "m.reaction", limit: 0 })).toBe(
      "Invalid request - limit out of range",
    );
    expect(await raw.error("org.matrix.msc2876.read_events", { type: "m.reaction", limit: -5 })).toBe(
      "Invalid request - limit out of range",
    );
    expect(await raw.request("org.matrix.msc2876.read_events", { type: "m.reaction", limit: 5 })).toEqual({
      events: [],
    });
  });

  it("send_event: missing type", async () => {
    const { raw } = await negotiatedRawHost([]);
    expect(await raw.error("send_event", { content: {} })).toBe("Invalid request - missing event type");
  });

  it("update_delayed_event: missing delay_id, missing capability, unsupported action, driver error", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([MatrixCapabilities.MSC4157UpdateDelayedEvent], { driver });
    const action = "org.matrix.msc4157.update_delayed_event";
    expect(await raw.error(action, { action: "cancel" })).toBe("Invalid request - missing delay_id");
    expect(await raw.error(action, { delay_id: "d1", action: "explode" })).toBe(
      "Invalid request - unsupported action",
    );
    for (const a of ["cancel", "restart", "send"])
      expect(await raw.request(action, { delay_id: "d1", action: a })).toEqual({});
    expect(driver.callsOf("updateDelayedEvent")).toEqual([
      ["d1", "cancel"],
      ["d1", "restart"],
      ["d1", "send"],
    ]);
    driver.failWith = Object.assign(new Error("boom"), { errcode: "M_NOT_FOUND" });
    expect(await raw.request(action, { delay_id: "d1", action: "send" })).toEqual({
      error: { message: "Error updating delayed event", matrix_api_error: { errcode: "M_NOT_FOUND" } },
    });
    const bare = await negotiatedRawHost([]);
    expect(await bare.raw.error(action, { delay_id: "d1", action: "cancel" })).toBe("Missing capability");
  });

  it("send_to_device: missing type, contents, encryption flag; denial; driver error", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([toDeviceCapability("send", "org.example.ping")], { driver });
    const messages = { "@bob:example.org": { DEV: { hello: 1 } } };
    expect(await raw.error("send_to_device", { encrypted: false, messages })).toBe(
      "Invalid request - missing event type",
    );
    expect(await raw.error("send_to_device", { type: "org.example.ping", encrypted: false })).toBe(
      "Invalid request - missing event contents",
    );
    expect(await raw.error("send_to_device", { type: "org.example.ping", messages })).toBe(
      "Invalid request - missing encryption flag",
    );
    expect(await raw.error("send_to_device", { type: "org.example.ping", messages, encrypted: "yes" })).toBe(
      "Invalid request - missing encryption flag",
    );
    expect(await raw.error("send_to_device", { type: "org.example.other", messages, encrypted: true })).toBe(
      "Cannot send to-device events of this type",
    );
    expect(
      await raw.request("send_to_device", { type: "org.example.ping", messages, encrypted: true }),
    ).toEqual({});
    expect(driver.callsOf("sendToDevice")).toEqual([["org.example.ping", true, messages]]);
    driver.failWith = new Error("down");
    expect(await raw.error("send_to_device", { type: "org.example.ping", messages, encrypted: true })).toBe(
      "Error sending event",
    );
  });

  it("read_relations: missing event ID, negative limit, timeline access, driver error", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([roomEventCapability("receive", "m.reaction")], { driver });
    const action = "org.matrix.msc3869.read_relations";
    expect(await raw.error(action, {})).toBe("Invalid request - missing event ID");
    expect(await raw.error(action, { event_id: "$e", limit: -1 })).toBe(
      "Invalid request - limit out of range",
    );
    expect(await raw.error(action, { event_id: "$e", room_id: OTHER_ROOM })).toBe(
      `Unable to access room timeline: ${OTHER_ROOM}`,
    );
    driver.timeline = [
      {
        type: "m.reaction",
        room_id: VIEWED_ROOM,
        sender: "@a:x",
        event_id: "$r",
        origin_server_ts: 1,
        content: {},
      },
      {
        type: "m.room.secret",
        room_id: VIEWED_ROOM,
        sender: "@a:x",
        event_id: "$s",
        origin_server_ts: 1,
        content: {},
      },
    ];
    const ok = await raw.request(action, { event_id: "$e", limit: 0 });
    expect((ok?.["chunk"] as { event_id: string }[]).map((e) => e.event_id)).toEqual(["$r"]);
    expect(ok?.["next_batch"]).toBe("next");
    driver.failWith = new Error("down");
    expect(await raw.error(action, { event_id: "$e" })).toBe("Unexpected error while reading relations");
  });

  it("user directory search: term must be a string, negative limit rejected, driver error", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([MatrixCapabilities.MSC3973UserDirectorySearch], { driver });
    const action = "org.matrix.msc3973.user_directory_search";
    expect(await raw.error(action, { search_term: 5 })).toBe("Invalid request - missing search term");
    expect(await raw.error(action, { search_term: "bo", limit: -1 })).toBe(
      "Invalid request - limit out of range",
    );
    expect(await raw.request(action, { search_term: "bo", limit: 3 })).toEqual({
      limited: false,
      results: [{ user_id: "@bob:example.org", display_name: "Bob", avatar_url: "mxc://x/y" }],
    });
    driver.failWith = new Error("down");
    expect(await raw.error(action, { search_term: "bo" })).toBe(
      "Unexpected error while searching in the user directory",
    );
  });

  it("navigate: matrix.to prefix, missing capability, driver error", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([MatrixCapabilities.MSC2931Navigate], { driver });
    const action = "org.matrix.msc2931.navigate";
    expect(await raw.error(action, { uri: "https://evil.example/#/room" })).toBe("Invalid matrix.to URI");
    expect(await raw.error(action, {})).toBe("Invalid matrix.to URI");
    expect(await raw.request(action, { uri: "https://matrix.to/#/!room:x" })).toEqual({});
    driver.failWith = new Error("down");
    expect(await raw.error(action, { uri: "https://matrix.to/#/!room:x" })).toBe("Error handling navigation");
    const bare = await negotiatedRawHost([]);
    expect(await bare.raw.error(action, { uri: "https://matrix.to/#/!room:x" })).toBe("Missing capability");
  });

  it("modal: the close button cannot be disabled", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost([], { driver, widget: { kind: "modal" } });
    expect(await raw.error("set_button_enabled", { button: "m.close", enabled: false })).toBe(
      "The close button cannot be disabled",
    );
    expect(await raw.request("set_button_enabled", { button: "ok", enabled: false })).toEqual({});
    expect(driver.callsOf("setModalButtonEnabled")).toEqual([["ok", false]]);
  });

  it("delayed sends must return delay_id and others event_id", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost(
      [MatrixCapabilities.MSC4157SendDelayedEvent, stateEventCapability("send", "org.example.state")],
      { driver },
    );
    expect(
      await raw.request("send_event", {
        type: "org.example.state",
        state_key: "",
        content: {},
        delay: 1000,
        parent_delay_id: "p",
      }),
    ).toEqual({
      room_id: VIEWED_ROOM,
      delay_id: "syd_1",
    });
    expect(driver.callsOf("sendEvent")[0]?.[3]).toEqual({ delay: 1000, parentDelayId: "p" });
    // A parent and no delay of its own: still a delayed event (sent when the parent is), so a delay_id.
    expect(
      await raw.request("send_event", {
        type: "org.example.state",
        state_key: "",
        content: {},
        parent_delay_id: "p",
      }),
    ).toEqual({ room_id: VIEWED_ROOM, delay_id: "syd_1" });
    expect(driver.callsOf("sendEvent")[1]?.[3]).toEqual({ parentDelayId: "p" });
    driver.sendEvent = () => Promise.resolve({ roomId: VIEWED_ROOM });
    expect(await raw.error("send_event", { type: "org.example.state", state_key: "", content: {} })).toBe(
      "Error sending event",
    );
    expect(
      await raw.error("send_event", { type: "org.example.state", state_key: "", content: {}, delay: 5 }),
    ).toBe("Error sending event");
  });

  it("unknown actions", async () => {
    const { raw } = setupRawHost();
    expect(await raw.error("org.example.teleport", {})).toBe(
      "Unknown or unsupported action: org.example.teleport",
    );
    expect(await raw.error("__proto__", {})).toBe("Unknown or unsupported action: __proto__");
  });
});

describe("permission denials (SPEC §6)", () => {
  it("send_event denials by event type, state key and msgtype", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost(
      [
        stateEventCapability("send", "org.example.state", "mine"),
        roomMessageCapability("send", "m.text"),
        roomEventCapability("send", "m.reaction"),
      ],
      { driver },
    );
    expect(
      await raw.error("send_event", { type: "org.example.state", state_key: "theirs", content: {} }),
    ).toBe("Cannot send state events of this type");
    expect(await raw.error("send_event", { type: "m.room.topic", state_key: "", content: {} })).toBe(
      "Cannot send state events of this type",
    );
    expect(await raw.error("send_event", { type: "m.room.message", content: { msgtype: "m.image" } })).toBe(
      "Cannot send room events of this type",
    );
    expect(await raw.error("send_event", { type: "m.room.message", content: {} })).toBe(
      "Cannot send room events of this type",
    );
    expect(
      await raw.request("send_event", { type: "m.room.message", content: { msgtype: "m.text", body: "hi" } }),
    ).toEqual({ room_id: VIEWED_ROOM, event_id: "$sent" });
    expect(
      await raw.request("send_event", { type: "org.example.state", state_key: "mine", content: {} }),
    ).toEqual({ room_id: VIEWED_ROOM, event_id: "$sent" });
    expect(await raw.error("send_event", { type: "m.reaction", content: {}, room_id: OTHER_ROOM })).toBe(
      `Unable to access room timeline: ${OTHER_ROOM}`,
    );
    expect(await raw.error("send_event", { type: "m.reaction", content: {}, delay: 10 })).toBe(
      "Missing capability for org.matrix.msc4157.send.delayed_event",
    );
    expect(await raw.error("send_event", { type: "m.reaction", content: {}, sticky_duration_ms: 10 })).toBe(
      "Missing capability for org.matrix.msc4407.send.sticky_event",
    );
    driver.failWith = new Error("down");
    expect(await raw.error("send_event", { type: "m.reaction", content: {} })).toBe("Error sending event");
  });

  it("sticky events need their capability and cannot be state", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost(
      [
        MatrixCapabilities.MSC4407SendStickyEvent,
        roomEventCapability("send", "org.example.rtc"),
        stateEventCapability("send", "org.example.s"),
      ],
      { driver },
    );
    expect(
      await raw.request("send_event", { type: "org.example.rtc", content: {}, sticky_duration_ms: 3600 }),
    ).toEqual({ room_id: VIEWED_ROOM, event_id: "$sent" });
    expect(driver.callsOf("sendEvent")[0]?.[3]).toEqual({ stickyDurationMs: 3600 });
    expect(
      await raw.error("send_event", {
        type: "org.example.s",
        state_key: "",
        content: {},
        sticky_duration_ms: 10,
      }),
    ).toBe("Cannot send a state event with a sticky duration");
  });

  it("read_events denials and timeline access", async () => {
    const driver = new FakeDriver();
    driver.knownRooms = [VIEWED_ROOM, OTHER_ROOM, "!third:x"];
    const { raw } = await negotiatedRawHost(
      [
        stateEventCapability("receive", "m.room.member", "@me:x"),
        roomMessageCapability("receive", "m.text"),
        timelineCapability(OTHER_ROOM),
      ],
      { driver },
    );
    const action = "org.matrix.msc2876.read_events";
    expect(await raw.error(action, { type: "m.room.member", state_key: "@you:x" })).toBe(
      "Cannot read state events of this type",
    );
    expect(await raw.error(action, { type: "m.room.member", state_key: true })).toBe(
      "Cannot read state events of this type",
    );
    expect(await raw.error(action, { type: "m.room.message", msgtype: "m.image" })).toBe(
      "Cannot read room events of this type",
    );
    expect(
      await raw.error(action, { type: "m.room.message", msgtype: "m.text", room_ids: ["!third:x"] }),
    ).toBe("Unable to access room timeline: !third:x");
    driver.timeline = [
      {
        type: "m.room.message",
        room_id: OTHER_ROOM,
        sender: "@a:x",
        event_id: "$1",
        origin_server_ts: 1,
        content: { msgtype: "m.text" },
      },
      {
        type: "m.room.message",
        room_id: OTHER_ROOM,
        sender: "@a:x",
        event_id: "$2",
        origin_server_ts: 1,
        content: { msgtype: "m.image" },
      },
      {
        type: "m.room.message",
        room_id: "!third:x",
        sender: "@a:x",
        event_id: "$3",
        origin_server_ts: 1,
        content: { msgtype: "m.text" },
      },
    ];
    const any = await raw.request(action, { type: "m.room.message", msgtype: "m.text", room_ids: "*" });
    // Only OTHER_ROOM has a timeline capability; the m.image event is filtered out too.
    expect((any?.["events"] as { event_id: string }[]).map((e) => e.event_id)).toEqual(["$1"]);
  });

  it("read room account data needs its capability", async () => {
    const driver = new FakeDriver();
    driver.accountData = [{ type: "org.example.prefs", room_id: VIEWED_ROOM, content: { a: 1 } }];
    const { raw } = await negotiatedRawHost([roomAccountDataCapability("org.example.prefs")], { driver });
    const action = "com.beeper.read_room_account_data";
    expect(await raw.error(action, { type: "m.fully_read" })).toBe(
      "Cannot read room account data of this type",
    );
    expect(await raw.request(action, { type: "org.example.prefs" })).toEqual({ events: driver.accountData });
  });

  it("'Missing capability' for TURN, user directory, media, screenshot-free actions", async () => {
    const { raw } = await negotiatedRawHost([]);
    for (const [action, data] of [
      ["watch_turn_servers", {}],
      ["unwatch_turn_servers", {}],
      ["org.matrix.msc3973.user_directory_search", { search_term: "x" }],
      ["org.matrix.msc4039.get_media_config", {}],
      ["org.matrix.msc4039.upload_file", { file: "x" }],
      ["org.matrix.msc4039.download_file", { content_uri: "mxc://a/b" }],
      ["m.sticker", { name: "s", content: { url: "mxc://a/b" } }],
      ["set_always_on_screen", { value: true }],
      ["org.matrix.msc4515.get_rtc_transports", {}],
    ] as const) {
      expect(await raw.error(action, data)).toBe("Missing capability");
    }
  });

  it("media actions and their driver errors", async () => {
    const driver = new FakeDriver();
    const { raw } = await negotiatedRawHost(
      [MatrixCapabilities.MSC4039UploadFile, MatrixCapabilities.MSC4039DownloadFile],
      { driver },
    );
    expect(await raw.request("org.matrix.msc4039.get_media_config", {})).toEqual({ "m.upload.size": 1000 });
    expect(await raw.request("org.matrix.msc4039.upload_file", { file: "abc" })).toEqual({
      content_uri: "mxc://example.org/abc",
    });
    expect(
      await raw.request("org.matrix.msc4039.download_file", { content_uri: "mxc://example.org/abc" }),
    ).toEqual({ file: "file-bytes" });
    driver.failWith = new Error("down");
    expect(await raw.error("org.matrix.msc4039.get_media_config", {})).toBe(
      "Unexpected error while getting the media configuration",
    );
    expect(await raw.error("org.matrix.msc4039.upload_file", { file: "abc" })).toBe(
      "Unexpected error while uploading a file",
    );
    expect(await raw.error("org.matrix.msc4039.download_file", { content_uri: "mxc://a/b" })).toBe(
      "Unexpected error while downloading a file",
    );
  });

  it("the default driver grants nothing and blocks OpenID", async () => {
    const env = setupRawHost({ driver: undefined });
    const { ClientWidgetApi } = await import("../src/host/ClientWidgetApi");
    env.host.stop();
    const host = new ClientWidgetApi({
      widget: env.host.widget,
      frameWindow: env.frame,
      hostWindow: env.hostWin,
    });
    env.raw.autoAnswer([MatrixCapabilities.AlwaysOnScreen, timelineCapability("*")]);
    host.onIframeLoad();
    for (let i = 0; i < 50 && host.negotiationState !== "ready"; i++)
      await new Promise((r) => setTimeout(r, 0));
    expect(host.capabilities.toArray()).toEqual([]);
    expect(await env.raw.request("get_openid", {})).toEqual({ state: "blocked" });
    expect(await env.raw.error("set_always_on_screen", { value: true })).toBe("Missing capability");
    host.stop();
  });
});
