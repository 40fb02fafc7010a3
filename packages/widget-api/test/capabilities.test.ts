/**
 * Capability strings, '#' escaping, and matching by event type, state key
 * and msgtype, including the documented bare vs empty-msgtype m.room.message rule.
 */
import { describe, expect, it } from "vitest";
import { CapabilitySet } from "../src/capabilities/CapabilitySet";
import {
  parseEventCapability,
  roomMessageCapability,
  stateEventCapability,
} from "../src/capabilities/EventCapability";
import { timelineCapability, timelineRoomOf } from "../src/capabilities/MatrixCapabilities";

describe("event capability parsing", () => {
  it.each([
    ["org.matrix.msc2762.send.event:m.room.message#", "m.room.message", ""],
    ["org.matrix.msc2762.send.event:m.room.message#test", "m.room.message", "test"],
    ["org.matrix.msc2762.send.event:m.room.message##test", "m.room.message", "#test"],
    ["org.matrix.msc2762.send.state_event:m\\#weird#key", "m#weird", "key"],
    ["org.matrix.msc2762.send.state_event:m\\#weird", "m#weird", null],
    ["org.matrix.msc2762.send.state_event:org.example#", "org.example", ""],
    ["org.matrix.msc2762.send.event:m.reaction#x", "m.reaction#x", null],
  ])("%s", (raw, eventType, keyStr) => {
    expect(parseEventCapability(raw)).toMatchObject({ eventType, keyStr });
  });

  it("round-trips builders with '#' in the event type", () => {
    const cap = stateEventCapability("receive", "org.ex#ample", "a#b");
    expect(cap).toBe("org.matrix.msc2762.receive.state_event:org.ex\\#ample#a#b");
    expect(parseEventCapability(cap)).toMatchObject({
      direction: "receive",
      kind: "state_event",
      eventType: "org.ex#ample",
      keyStr: "a#b",
    });
    expect(parseEventCapability("m.always_on_screen")).toBeNull();
  });

  it("timeline capabilities", () => {
    expect(timelineCapability("!r:x")).toBe("org.matrix.msc2762.timeline:!r:x");
    expect(timelineRoomOf("org.matrix.msc2762.timeline:*")).toBe("*");
    expect(timelineRoomOf("m.sticker")).toBeNull();
  });
});

describe("matching", () => {
  it("a bare m.room.message capability covers every msgtype and none", () => {
    const set = new CapabilitySet();
    set.add([roomMessageCapability("send")]);
    expect(set.canRoomEvent("send", "m.room.message", "m.text")).toBe(true);
    expect(set.canRoomEvent("send", "m.room.message", undefined)).toBe(true);
    expect(set.canRoomEvent("receive", "m.room.message", "m.text")).toBe(false);
  });

  it("an empty msgtype covers only the empty msgtype", () => {
    const set = new CapabilitySet();
    set.add([roomMessageCapability("send", "")]);
    expect(set.canRoomEvent("send", "m.room.message", "")).toBe(true);
    expect(set.canRoomEvent("send", "m.room.message", "m.text")).toBe(false);
    expect(set.canRoomEvent("send", "m.room.message", undefined)).toBe(false);
  });

  it("state keys: none means any, '#' means the empty key, '#k' means k", () => {
    const set = new CapabilitySet();
    set.add([
      stateEventCapability("send", "a"),
      stateEventCapability("send", "b", ""),
      stateEventCapability("send", "c", "k"),
    ]);
    expect(set.canStateEvent("send", "a", "anything")).toBe(true);
    expect(set.canStateEvent("send", "b", "")).toBe(true);
    expect(set.canStateEvent("send", "b", "x")).toBe(false);
    expect(set.canStateEvent("send", "c", "k")).toBe(true);
    expect(set.canStateEvent("send", "c", null)).toBe(false);
  });

  it("timeline per room and any room", () => {
    const set = new CapabilitySet();
    set.add([timelineCapability("!a:x")]);
    expect(set.canUseRoomTimeline("!a:x")).toBe(true);
    expect(set.canUseRoomTimeline("!b:x")).toBe(false);
    set.add([timelineCapability("*")]);
    expect(set.canUseRoomTimeline("!b:x")).toBe(true);
  });

  it("to-device and room account data match by type and direction", () => {
    const set = new CapabilitySet();
    set.add([
      "org.matrix.msc3819.receive.to_device:org.example",
      "com.beeper.capabilities.receive.room_account_data:org.prefs",
    ]);
    expect(set.canToDevice("receive", "org.example")).toBe(true);
    expect(set.canToDevice("send", "org.example")).toBe(false);
    expect(set.canReadRoomAccountData("org.prefs")).toBe(true);
    expect(set.canReadRoomAccountData("org.other")).toBe(false);
  });
});
