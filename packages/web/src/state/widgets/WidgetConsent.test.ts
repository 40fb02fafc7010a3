/**
 * WidgetConsent on its own: plain words for each kind of capability, what
 * is remembered (and what "once" is not), and a damaged or hostile stored
 * entry read as "ask again".
 */
import { describe, expect, it } from "vitest";
import { WidgetConsent, consentStorageKey, describeCapability } from "./WidgetConsent";

function storage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe("describeCapability", () => {
  it.each([
    ["org.matrix.msc2762.send.event:m.room.message", "Send messages as you in this room"],
    ["org.matrix.msc2762.receive.event:m.room.message#m.text", "See m.text messages in this room"],
    ["org.matrix.msc2762.receive.state_event:m.room.member", "Read m.room.member state"],
    [
      "org.matrix.msc2762.send.state_event:m.room.topic#",
      "Change m.room.topic state (empty key) in this room",
    ],
    [
      "org.matrix.msc3819.send.to_device:io.element.call.encryption_keys",
      "Send io.element.call.encryption_keys messages to other devices as you",
    ],
    [
      "com.beeper.capabilities.receive.room_account_data:m.fully_read",
      "Read your m.fully_read room settings",
    ],
    ["town.robin.msc3846.turn_servers", "See your TURN servers"],
    ["m.always_on_screen", "Stay on screen"],
    ["org.matrix.msc2762.timeline:*", "See events in all your rooms"],
    ["org.example.unknown", "org.example.unknown"],
  ])("%s", (cap, words) => {
    expect(describeCapability(cap)).toBe(words);
  });
});

describe("WidgetConsent", () => {
  it("asks again for a capability it has no decision on, and remembers refusals too", () => {
    const consent = new WidgetConsent(storage(), "@a:x");
    consent.rememberCapabilities("w", "!r:x", ["a", "b"], new Set(["a"]));
    expect(consent.rememberedGrant("w", "!r:x", ["a", "b"])).toEqual(new Set(["a"]));
    expect(consent.rememberedGrant("w", "!r:x", ["a", "c"])).toBeNull();
    expect(consent.rememberedGrant("w", null, ["a"])).toBeNull();
  });

  it("does not remember 'once', and forgets on request", () => {
    const s = storage();
    const consent = new WidgetConsent(s, "@a:x");
    consent.rememberOpenId("w", "!r:x", "once");
    expect(consent.openIdChoice("w", "!r:x")).toBeNull();
    consent.rememberOpenId("w", "!r:x", "block");
    consent.rememberCapabilities("w", "!r:x", ["a"], new Set(["a"]));
    consent.forget("w", "!r:x");
    const back = new WidgetConsent(s, "@a:x");
    expect(back.openIdChoice("w", "!r:x")).toBeNull();
    expect(back.rememberedGrant("w", "!r:x", ["a"])).toBeNull();
  });

  it("reads a damaged or hostile entry as nothing remembered", () => {
    for (const raw of [
      "{",
      "null",
      '{"caps":{"__proto__":[]}}',
      '{"caps":[["k",[["a","yes"]]]],"openId":[["k","maybe"]]}',
    ]) {
      const consent = new WidgetConsent(storage({ [consentStorageKey("@a:x")]: raw }), "@a:x");
      expect(consent.rememberedGrant("w", null, ["a"])).toBeNull();
      expect(consent.openIdChoice("w", null)).toBeNull();
    }
    expect(({} as Record<string, unknown>)["caps"]).toBeUndefined();
  });
});
