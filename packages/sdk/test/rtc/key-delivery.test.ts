/**
 * Media key delivery over to-device on fake time, with the real transports
 * and encryption manager: a send that misses a device (no device keys or
 * Olm session yet) is retried for that device only, and a device still
 * missed after the send's retries gets the current key later (timer, device
 * list change, membership change) without a rotation.
 */
import { describe, expect, it } from "vitest";
import { EncryptionManager, KeyTransports } from "../../src/rtc/keys";
import type { KeyTarget } from "../../src/rtc/keys";
import { KEY_REDELIVERY_BASE_MS, KEY_SEND_RETRY_BUDGET_MS } from "../../src/rtc/constants";
import type { CallMembership } from "../../src/rtc/membership";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const ROOM_CALL = { application: "m.call", id: "", scope: "m.room" } as const;

function member(user: string, device: string): CallMembership {
  return {
    form: "state",
    eventId: `$${user}${device}`,
    sender: user,
    deviceId: device,
    createdTs: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    session: ROOM_CALL,
    callIntent: undefined,
    focusActive: undefined,
    fociPreferred: [],
    memberId: `${user}:${device}`,
  };
}

interface Delivery {
  at: number;
  index: number;
  to: string[];
}

/** A to-device io whose devices in `unreachable` are reported missed (as the crypto layer reports them). */
function setup() {
  const scheduler = new FakeScheduler();
  const unreachable = new Set<string>();
  const attempts: Delivery[] = [];
  const delivered: Delivery[] = [];
  const warnings: string[] = [];
  const transports = new KeyTransports({
    scheduler,
    context: { roomId: "!r", userId: "@me:hs", deviceId: "ME" },
    onKey: () => undefined,
    warn: (m) => warnings.push(m),
    io: {
      sendToDevice: (targets, content) => {
        const index = (content["keys"] as { index: number }).index;
        const at = scheduler.now();
        attempts.push({ at, index, to: targets.map((t) => t.deviceId) });
        const reached = targets.filter((t) => !unreachable.has(t.deviceId));
        if (reached.length > 0) delivered.push({ at, index, to: reached.map((t) => t.deviceId) });
        return Promise.resolve(targets.filter((t) => unreachable.has(t.deviceId)));
      },
      sendRoomEvent: () => Promise.resolve(),
    },
  });
  let n = 0;
  const manager = new EncryptionManager({
    transports,
    scheduler,
    userId: "@me:hs",
    deviceId: "ME",
    randomBytes: (len) => new Uint8Array(len).fill(++n),
  });
  /** Every key index a device was reached with, in order. */
  const reachedWith = (device: string): number[] =>
    delivered.filter((d) => d.to.includes(device)).map((d) => d.index);
  return {
    scheduler,
    transports,
    manager,
    unreachable,
    attempts,
    delivered,
    warnings,
    reachedWith,
    made: () => n,
  };
}

describe("key transports: partial to-device delivery", () => {
  it("retries only the devices a send missed, and reports none missed once they are reached", async () => {
    const { transports, unreachable, attempts, scheduler } = setup();
    unreachable.add("B");
    const targets: KeyTarget[] = [
      { userId: "@a:hs", deviceId: "A" },
      { userId: "@b:hs", deviceId: "B" },
    ];
    let result: KeyTarget[] | undefined;
    void transports.send({ index: 0, key: "AAECAwQFBgcICQoLDA0ODw" }, targets).then((r) => (result = r));
    await flush();
    expect(attempts.map((a) => a.to)).toEqual([["A", "B"]]);
    unreachable.clear();
    await scheduler.advance(250);
    expect(attempts.map((a) => a.to)).toEqual([["A", "B"], ["B"]]);
    expect(result).toEqual([]);
  });

  it("hands back the devices still missed when the retry budget runs out", async () => {
    const { transports, unreachable, warnings, scheduler } = setup();
    unreachable.add("B");
    let result: KeyTarget[] | undefined;
    void transports
      .send({ index: 0, key: "AAECAwQFBgcICQoLDA0ODw" }, [
        { userId: "@a:hs", deviceId: "A" },
        { userId: "@b:hs", deviceId: "B" },
      ])
      .then((r) => (result = r));
    await scheduler.advance(KEY_SEND_RETRY_BUDGET_MS);
    expect(result).toEqual([{ userId: "@b:hs", deviceId: "B" }]);
    expect(warnings).toEqual(["Could not send the call encryption key"]);
  });
});

describe("encryption manager: a device the first send missed", () => {
  it("gets the current key later, without a rotation", async () => {
    const { manager, unreachable, scheduler, reachedWith, made } = setup();
    unreachable.add("B");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    // The send's own retries (about 5 s) all miss B.
    await scheduler.advance(KEY_SEND_RETRY_BUDGET_MS);
    expect(reachedWith("A")).toEqual([0]);
    expect(reachedWith("B")).toEqual([]);
    // B gets one-time keys / a session meanwhile: the redelivery brings it key 0, the one in use.
    unreachable.clear();
    await scheduler.advance(KEY_REDELIVERY_BASE_MS);
    expect(reachedWith("B")).toEqual([0]);
    expect(reachedWith("A")).toEqual([0]);
    expect(made()).toBe(1);
    expect(manager.ownKey.getSnapshot()?.index).toBe(0);
    // Everyone holds it: nothing more is sent and no timer is left.
    await scheduler.advance(120_000);
    expect(reachedWith("B")).toEqual([0]);
    expect(scheduler.pending()).toEqual([]);
  });

  it("keeps trying, backing off, while the device stays out of reach", async () => {
    const { manager, unreachable, scheduler, attempts } = setup();
    unreachable.add("B");
    manager.join([member("@b:hs", "B")]);
    await scheduler.advance(60_000);
    // A send retries within about 5 s (steps of at most 2 s); a longer gap starts a redelivery round.
    const starts = attempts.filter((x, i) => i === 0 || x.at - (attempts[i - 1]?.at ?? 0) > 4000);
    const gaps = starts.slice(1).map((x, i) => x.at - (starts[i]?.at ?? 0));
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1] ?? 0);
    expect(attempts.every((x) => x.index === 0)).toBe(true);
    manager.leave();
    await flush();
    expect(scheduler.pending()).toEqual([]);
  });

  it("is sent the key as soon as its user's device list changes", async () => {
    const { manager, unreachable, scheduler, reachedWith, made } = setup();
    unreachable.add("B");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    await scheduler.advance(KEY_SEND_RETRY_BUDGET_MS);
    unreachable.clear();
    manager.onDevicesChanged(["@a:hs"]);
    await scheduler.advance(0);
    expect(reachedWith("B")).toEqual([]);
    manager.onDevicesChanged(["@b:hs"]);
    await scheduler.advance(0);
    expect(reachedWith("B")).toEqual([0]);
    expect(reachedWith("A")).toEqual([0]);
    expect(made()).toBe(1);
  });

  it("is sent the key with the next membership change, with the joiner", async () => {
    const { manager, unreachable, scheduler, delivered, made } = setup();
    unreachable.add("B");
    manager.join([member("@a:hs", "A"), member("@b:hs", "B")]);
    await scheduler.advance(KEY_SEND_RETRY_BUDGET_MS);
    unreachable.clear();
    // Within the 10 s grace period a joiner gets the current key; B, still without it, comes along.
    manager.onMemberships([member("@a:hs", "A"), member("@b:hs", "B"), member("@c:hs", "C")]);
    await scheduler.advance(0);
    expect(delivered.at(-1)).toMatchObject({ index: 0, to: ["B", "C"] });
    expect(made()).toBe(1);
  });

  it("does not send again to devices that hold the key", async () => {
    const { manager, scheduler, attempts } = setup();
    manager.join([member("@a:hs", "A")]);
    await scheduler.advance(0);
    manager.onDevicesChanged(["@a:hs"]);
    await scheduler.advance(60_000);
    expect(attempts.map((a) => a.to)).toEqual([["A"]]);
  });
});
