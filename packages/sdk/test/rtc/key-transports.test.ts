/**
 * Key transports: defaults, the switch to room-only, send retries within ~5 s, the one decryption
 * retry after 1 s, and late decryptions of room key events seen undecryptable.
 */
import { describe, expect, it } from "vitest";
import { KeyTransports, roomKeyContent, toDeviceKeyContent } from "../../src/rtc/keys";
import type { KeyEvent, KeyTarget, KeyTransportIo, ReceivedKey } from "../../src/rtc/keys";
import { FakeScheduler } from "../support/fake-scheduler";

const ctx = { roomId: "!r:hs", userId: "@me:hs", deviceId: "ME" };
const KEY = "AAECAwQFBgcICQoLDA0ODw";
const target = [{ userId: "@b:hs", deviceId: "B" }];

function setup(io: Partial<KeyTransportIo> = {}): {
  t: KeyTransports;
  sent: string[];
  keys: ReceivedKey[];
  warnings: string[];
  scheduler: FakeScheduler;
} {
  const sent: string[] = [];
  const keys: ReceivedKey[] = [];
  const warnings: string[] = [];
  const scheduler = new FakeScheduler();
  const t = new KeyTransports({
    scheduler,
    context: ctx,
    onKey: (k) => keys.push(k),
    warn: (m) => warnings.push(m),
    io: {
      sendToDevice: () => {
        sent.push("to-device");
        return Promise.resolve();
      },
      sendRoomEvent: () => {
        sent.push("room");
        return Promise.resolve();
      },
      ...io,
    },
  });
  return { t, sent, keys, warnings, scheduler };
}

const roomEvent = (roomId = "!r:hs"): KeyEvent => ({
  type: "io.element.call.encryption_keys",
  sender: "@b:hs",
  roomId,
  eventId: "$k",
  content: roomKeyContent({ ...ctx, userId: "@b:hs", deviceId: "B" }, [{ index: 0, key: KEY }], 1),
});

describe("KeyTransports", () => {
  it("sends to-device by default and switches to room-only when a room key arrives", async () => {
    const { t, sent, keys } = setup();
    expect(t.mode.getSnapshot()).toBe("to-device");
    await t.send({ index: 0, key: KEY }, target);
    t.receiveRoomEvent(roomEvent("!other:hs"));
    expect(t.mode.getSnapshot()).toBe("to-device");
    t.receiveRoomEvent(roomEvent());
    expect(t.mode.getSnapshot()).toBe("room");
    expect(keys).toHaveLength(1);
    await t.send({ index: 0, key: KEY }, target);
    expect(sent).toEqual(["to-device", "room"]);
  });

  it("switches to room-only when to-device is reported unsupported", async () => {
    const { t, sent, warnings } = setup({
      sendToDevice: () =>
        Promise.reject(new Error("The widget driver does not support to-device encryption")),
    });
    expect(await t.send({ index: 0, key: KEY }, target)).toEqual([]);
    expect(t.mode.getSnapshot()).toBe("room");
    expect(sent).toEqual(["room"]);
    expect(warnings).toEqual(["The widget driver does not support to-device encryption"]);
  });

  it("retries a failing send with backoff and gives up after about 5 s", async () => {
    let attempts = 0;
    const { t, scheduler } = setup({
      sendToDevice: () => {
        attempts++;
        return Promise.reject(new Error("network"));
      },
    });
    let result: readonly KeyTarget[] | undefined;
    void t.send({ index: 0, key: KEY }, target).then((r) => (result = r));
    await scheduler.advance(3749);
    expect(attempts).toBe(4);
    await scheduler.advance(1);
    expect(attempts).toBe(5);
    expect(result).toEqual(target);
    expect(scheduler.pending()).toEqual([]);
  });

  it("tries an undecryptable room key once more after 1 s", async () => {
    let asked = 0;
    const { t, keys, scheduler } = setup({
      redecrypt: () => {
        asked++;
        const e = roomEvent();
        return Promise.resolve(asked === 1 ? { ...e, type: "m.room.encrypted" } : e);
      },
    });
    t.receiveRoomEvent({
      type: "m.room.encrypted",
      sender: "@b:hs",
      content: {},
      eventId: "$k",
      roomId: "!r:hs",
    });
    await scheduler.advance(999);
    expect(asked).toBe(0);
    await scheduler.advance(1);
    expect(asked).toBe(1);
    await scheduler.advance(5000);
    expect(asked).toBe(1);
    expect(keys).toEqual([]);
  });

  it("takes a key decrypted on the retry", async () => {
    const { t, keys, scheduler } = setup({ redecrypt: () => Promise.resolve(roomEvent()) });
    t.receiveRoomEvent({
      type: "m.room.encrypted",
      sender: "@b:hs",
      content: {},
      eventId: "$k",
      roomId: "!r:hs",
    });
    await scheduler.advance(1000);
    expect(keys.map((k) => k.index)).toEqual([0]);
  });

  it("reads a room key the crypto layer decrypts after the retry, only for an event it saw undecryptable", async () => {
    const { t, keys, scheduler } = setup({ redecrypt: () => Promise.resolve(undefined) });
    // A key event for old history that decrypts late (a restored backup) was never seen here: ignored.
    t.receiveLateDecrypted({ ...roomEvent(), eventId: "$old" });
    t.receiveRoomEvent({
      type: "m.room.encrypted",
      sender: "@b:hs",
      content: {},
      eventId: "$k",
      roomId: "!r:hs",
    });
    await scheduler.advance(1000);
    expect(keys).toEqual([]);
    // Its Megolm key comes seconds later: the crypto layer's late decryption brings the call key.
    await scheduler.advance(10_000);
    t.receiveLateDecrypted(roomEvent());
    expect(keys.map((k) => [k.userId, k.deviceId, k.index])).toEqual([["@b:hs", "B", 0]]);
    expect(t.mode.getSnapshot()).toBe("room");
    // Read once: a second report of the same event adds nothing.
    t.receiveLateDecrypted(roomEvent());
    expect(keys).toHaveLength(1);
  });

  it("binds a to-device key to the Olm sender device the crypto layer reports", () => {
    const { t, keys } = setup();
    const content = toDeviceKeyContent({ ...ctx, userId: "@b:hs", deviceId: "B" }, { index: 2, key: KEY }, 1);
    const type = "io.element.call.encryption_keys";
    t.receiveToDevice({ type, sender: "@b:hs", content });
    t.receiveToDevice({ type, sender: "@b:hs", senderDevice: "OTHER", content });
    expect(keys).toEqual([]);
    t.receiveToDevice({ type, sender: "@b:hs", senderDevice: "B", content });
    expect(keys.map((k) => [k.userId, k.deviceId, k.index])).toEqual([["@b:hs", "B", 2]]);
  });
});
