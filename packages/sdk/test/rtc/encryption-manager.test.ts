/** The encryption manager on fake time: key size and index, rotation delays, grace period, re-sends, throttle, identities. */
import { describe, expect, it, vi } from "vitest";
import { EncryptionManager, KeyTransports, hashedIdentity } from "../../src/rtc/keys";
import type { KeyTarget, KeyTransportMode, WireKey } from "../../src/rtc/keys";
import type { CallMembership } from "../../src/rtc/membership";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const ROOM_CALL = { application: "m.call", id: "", scope: "m.room" } as const;

function member(
  user: string,
  device: string,
  eventId = `$${user}${device}`,
  memberId = `${user}:${device}`,
): CallMembership {
  return {
    form: "state",
    eventId,
    sender: user,
    deviceId: device,
    createdTs: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    session: ROOM_CALL,
    callIntent: undefined,
    focusActive: undefined,
    fociPreferred: [],
    memberId,
  };
}

interface Sent {
  at: number;
  index: number;
  to: string[];
}

class RecordingTransports extends KeyTransports {
  sends: Sent[] = [];
  constructor(
    private readonly clock: FakeScheduler,
    mode: KeyTransportMode,
  ) {
    super({
      scheduler: clock,
      context: { roomId: "!r", userId: "@me:hs", deviceId: "ME" },
      mode,
      onKey: () => undefined,
      io: { sendToDevice: () => Promise.resolve(), sendRoomEvent: () => Promise.resolve() },
    });
  }
  override send(key: WireKey, targets: readonly KeyTarget[]): Promise<KeyTarget[]> {
    this.sends.push({ at: this.clock.now(), index: key.index, to: targets.map((t) => t.deviceId) });
    return Promise.resolve([]);
  }
}

function setup(mode: KeyTransportMode = "room", identityMode: "legacy" | "hashed" = "legacy") {
  const scheduler = new FakeScheduler();
  const transports = new RecordingTransports(scheduler, mode);
  let n = 0;
  const manager = new EncryptionManager({
    transports,
    scheduler,
    userId: "@me:hs",
    deviceId: "ME",
    identityMode,
    randomBytes: (len) => new Uint8Array(len).fill(++n),
  });
  const t0 = scheduler.now();
  return { scheduler, transports, manager, t0, made: () => n };
}

describe("EncryptionManager", () => {
  it("makes a 16-byte key with index 0, uses it at once and sends it to the members", () => {
    const { manager, transports } = setup();
    manager.join([member("@a:hs", "A"), member("@me:hs", "ME")]);
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
    expect(manager.ownKey.getSnapshot()?.key).toHaveLength(16);
    expect(transports.sends).toEqual([{ at: expect.any(Number) as number, index: 0, to: ["A"] }]);
  });

  it("rotates on a departure: make-key after 3000 ms, use-key 5000 ms later (room mode)", async () => {
    const { manager, transports, scheduler, t0 } = setup("room");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    manager.onMemberships([member("@a:hs", "A")]);
    await scheduler.advance(2999);
    expect(transports.sends.map((s) => s.index)).toEqual([0]);
    await scheduler.advance(1);
    expect(transports.sends[1]).toEqual({ at: t0 + 3000, index: 1, to: ["A"] });
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
    await scheduler.advance(4999);
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
    await scheduler.advance(1);
    expect(manager.ownKey.getSnapshot()?.index).toBe(1);
  });

  it("departures within the 3000 ms make-key window share one new key from the random source", async () => {
    const { manager, transports, scheduler, made } = setup("room");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B"), member("@c:hs", "C")]);
    const first = manager.ownKey.getSnapshot()?.key;
    manager.onMemberships([member("@a:hs", "A"), member("@b:hs", "B")]);
    await scheduler.advance(2000);
    manager.onMemberships([member("@a:hs", "A")]);
    await scheduler.advance(1000);
    // One key made for both departures, 3000 ms after the first.
    expect(made()).toBe(2);
    expect(transports.sends.map((s) => s.index)).toEqual([0, 1]);
    await scheduler.advance(5000);
    expect(manager.ownKey.getSnapshot()?.index).toBe(1);
    expect(manager.ownKey.getSnapshot()?.key).toHaveLength(16);
    expect(manager.ownKey.getSnapshot()?.key).not.toEqual(first);
  });

  it("uses a rotated key after 1000 ms in to-device mode", async () => {
    const { manager, scheduler } = setup("to-device");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    manager.onMemberships([member("@a:hs", "A")]);
    await scheduler.advance(3000 + 999);
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
    await scheduler.advance(1);
    expect(manager.ownKey.getSnapshot()?.index).toBe(1);
  });

  it("wraps the key index modulo 256", async () => {
    const { manager, scheduler, made } = setup("room");
    manager.join([member("@a:hs", "A")]);
    for (let i = 1; i <= 256; i++) {
      // A leaves and comes back: one rotation each time.
      manager.onMemberships([]);
      await scheduler.advance(8000);
      manager.onMemberships([member("@a:hs", "A")]);
      await scheduler.advance(3000);
      if (i === 255) expect(manager.ownKey.getSnapshot()?.index).toBe(255);
    }
    expect(made()).toBe(257);
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
  });

  it("re-sends the current key to a joiner within the 10 s grace period, and rotates after it (to-device mode)", async () => {
    const { manager, transports, scheduler } = setup("to-device");
    manager.join([member("@a:hs", "A")]);
    manager.onMemberships([member("@a:hs", "A"), member("@b:hs", "B")]);
    await scheduler.advance(0);
    expect(transports.sends.at(-1)).toMatchObject({ index: 0, to: ["B"] });
    await scheduler.advance(10_001);
    manager.onMemberships([member("@a:hs", "A"), member("@b:hs", "B"), member("@c:hs", "C")]);
    await scheduler.advance(0);
    expect(transports.sends.at(-1)).toMatchObject({ index: 1, to: ["A", "B", "C"] });
  });

  it("re-sends to everyone when a member updates or reconnects, throttled to one send per 3000 ms", async () => {
    const { manager, transports, scheduler, t0 } = setup("room");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    manager.onMemberships([member("@a:hs", "A", "$new1"), member("@b:hs", "B")]);
    await scheduler.advance(0);
    expect(transports.sends.at(-1)).toEqual({ at: t0, index: 0, to: ["A", "B"] });
    manager.onMemberships([member("@a:hs", "A", "$new2"), member("@b:hs", "B")]);
    manager.onMemberships([member("@a:hs", "A", "$new2"), member("@b:hs", "B", "$new3")]);
    await scheduler.advance(2999);
    expect(transports.sends).toHaveLength(2);
    await scheduler.advance(1);
    expect(transports.sends).toHaveLength(3);
    expect(transports.sends.at(-1)).toEqual({ at: t0 + 3000, index: 0, to: ["A", "B"] });
  });

  it("binds received keys to the device and exposes them per participant, by legacy or hashed identity", async () => {
    for (const mode of ["legacy", "hashed"] as const) {
      const { manager } = setup("room", mode);
      manager.join([member("@a:hs", "A", "$a", "mid-a")]);
      await vi.waitFor(() => expect(manager.participants.getSnapshot()).toHaveLength(1));
      const seen: Array<number | undefined> = [];
      const [p] = manager.participants.getSnapshot();
      p?.keys.subscribe((k) => seen.push(k.latestIndex));
      manager.onKey({
        userId: "@a:hs",
        deviceId: "A",
        memberId: undefined,
        index: 4,
        key: new Uint8Array(16),
        sentTs: 0,
        transport: "room",
      });
      manager.onKey({
        userId: "@a:hs",
        deviceId: "OTHER",
        memberId: undefined,
        index: 5,
        key: new Uint8Array(16),
        sentTs: 0,
        transport: "room",
      });
      expect(seen).toEqual([4]);
      expect(p?.identity).toBe(mode === "legacy" ? "@a:hs:A" : await hashedIdentity("@a:hs", "A", "mid-a"));
      expect(manager.keysOf("@a:hs", "A").getSnapshot().keys.get(4)).toHaveLength(16);
    }
  });

  it("leaves no timer behind on leave", async () => {
    const { manager, scheduler } = setup("room");
    manager.join([member("@a:hs", "A")]);
    manager.onMemberships([]);
    manager.leave();
    await flush();
    expect(scheduler.pending()).toEqual([]);
  });
});
