/** Key messages: both forms built as the wire expects, and every drop rule of SPEC §5 Key events. */
import { describe, expect, it } from "vitest";
import { readRoomKeys, readToDeviceKey, roomKeyContent, toDeviceKeyContent } from "../../src/rtc/keys";

const me = { roomId: "!r:hs", userId: "@me:hs", deviceId: "ME" };
const them = { roomId: "!r:hs", userId: "@b:hs", deviceId: "B" };
const KEY = "AAECAwQFBgcICQoLDA0ODw"; // 16 bytes, unpadded base64

describe("to-device key message", () => {
  const good = toDeviceKeyContent(them, { index: 3, key: KEY }, 1234, "mid");

  it("has keys {index, key}, room_id, member.claimed_device_id, session and sent_ts", () => {
    expect(good).toEqual({
      keys: { index: 3, key: KEY },
      room_id: "!r:hs",
      member: { claimed_device_id: "B", id: "mid" },
      session: { call_id: "", application: "m.call", scope: "m.room" },
      sent_ts: 1234,
    });
    const key = readToDeviceKey(me, "@b:hs", "B", good);
    expect(key).toMatchObject({
      userId: "@b:hs",
      deviceId: "B",
      memberId: "mid",
      index: 3,
      sentTs: 1234,
      transport: "to-device",
    });
    expect(key?.key).toEqual(new Uint8Array([...Array(16).keys()]));
  });

  it.each([
    ["the room id is missing", { ...good, room_id: undefined }],
    ["the room id differs", { ...good, room_id: "!other:hs" }],
    ["keys is missing", { ...good, keys: undefined }],
    ["key is missing", { ...good, keys: { index: 3 } }],
    ["the index is missing", { ...good, keys: { key: KEY } }],
    ["the index is not a number", { ...good, keys: { index: "3", key: KEY } }],
    ["the key is not a string", { ...good, keys: { index: 3, key: 5 } }],
    ["the claimed device id is missing", { ...good, member: {} }],
    ["call_id is not empty", { ...good, session: { call_id: "x", application: "m.call", scope: "m.room" } }],
  ])("is dropped when %s", (_why, content) => {
    expect(readToDeviceKey(me, "@b:hs", "B", content)).toBeNull();
  });

  it("is dropped when it comes from our own device", () => {
    expect(readToDeviceKey(me, "@me:hs", "ME", toDeviceKeyContent(me, { index: 0, key: KEY }, 1))).toBeNull();
  });

  it("is bound to the device the Olm session authenticated, not to the claimed one", () => {
    // Bob's device B claims to be his device C: the claim disagrees with the Olm sender, dropped.
    const lying = toDeviceKeyContent({ ...them, deviceId: "C" }, { index: 3, key: KEY }, 1);
    expect(readToDeviceKey(me, "@b:hs", "B", lying)).toBeNull();
    // A message that did not come through Olm (no authenticated device) is dropped.
    expect(readToDeviceKey(me, "@b:hs", undefined, good)).toBeNull();
    // Another of our own devices may send us its key; our own device may not.
    const mine = toDeviceKeyContent({ ...me, deviceId: "ME2" }, { index: 0, key: KEY }, 1);
    expect(readToDeviceKey(me, "@me:hs", "ME2", mine)).toMatchObject({ userId: "@me:hs", deviceId: "ME2" });
    const claimsOther = toDeviceKeyContent({ ...me, deviceId: "ME2" }, { index: 0, key: KEY }, 1);
    expect(readToDeviceKey(me, "@me:hs", "ME", claimsOther)).toBeNull();
  });

  it("takes the claimed device when the embedded client's host decrypted it (the widget API names none)", () => {
    expect(readToDeviceKey(me, "@b:hs", undefined, good, true)).toMatchObject({
      userId: "@b:hs",
      deviceId: "B",
      index: 3,
    });
    // The host's word covers the Olm sender, not a claim that disagrees with a known device.
    const lying = toDeviceKeyContent({ ...them, deviceId: "C" }, { index: 3, key: KEY }, 1);
    expect(readToDeviceKey(me, "@b:hs", "B", lying, true)).toBeNull();
    // Our own device's echo stays dropped.
    expect(
      readToDeviceKey(me, "@me:hs", undefined, toDeviceKeyContent(me, { index: 0, key: KEY }, 1), true),
    ).toBeNull();
  });
});

describe("room key event", () => {
  const good = roomKeyContent(them, [{ index: 1, key: KEY }], 99);

  it("has keys [{index, key}], device_id, call_id '' and sent_ts", () => {
    expect(good).toEqual({ keys: [{ index: 1, key: KEY }], device_id: "B", call_id: "", sent_ts: 99 });
    expect(readRoomKeys(me, "!r:hs", "@b:hs", good)).toMatchObject([
      { userId: "@b:hs", deviceId: "B", index: 1, transport: "room" },
    ]);
  });

  it.each([
    ["keys is not an array", { ...good, keys: { index: 1, key: KEY } }],
    ["keys is missing", { ...good, keys: undefined }],
    ["a key lacks its key", { ...good, keys: [{ index: 1 }] }],
    ["an index is not a number", { ...good, keys: [{ index: "1", key: KEY }] }],
    ["a key lacks its index", { ...good, keys: [{ key: KEY }] }],
    ["a key is not a string", { ...good, keys: [{ index: 1, key: [1] }] }],
    ["the device id is missing", { ...good, device_id: undefined }],
    ["call_id is not empty", { ...good, call_id: "c" }],
  ])("is dropped when %s", (_why, content) => {
    expect(readRoomKeys(me, "!r:hs", "@b:hs", content)).toEqual([]);
  });

  it("is dropped for another room, a missing room and our own device", () => {
    expect(readRoomKeys(me, "!x:hs", "@b:hs", good)).toEqual([]);
    expect(readRoomKeys(me, undefined, "@b:hs", good)).toEqual([]);
    expect(readRoomKeys(me, "!r:hs", "@me:hs", roomKeyContent(me, [{ index: 1, key: KEY }], 1))).toEqual([]);
  });
});
