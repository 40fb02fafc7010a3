/** send_to_device, encrypted: devices the crypto layer could not encrypt for are tried again in the background. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DriverContext, WidgetClient } from "./context";
import { SKIPPED_RETRY_DELAYS_MS, sendToDevice } from "./toDevice";

type Target = { userId: string; deviceId: string };

/** A context whose crypto reports the devices in `unreachable` as skipped. */
function fakeContext(unreachable: Set<string>): {
  ctx: DriverContext;
  sends: string[][];
  close: () => void;
} {
  const sends: string[][] = [];
  const crypto = {
    sendToDevice: (_type: string, targets: readonly Target[]) => {
      sends.push(targets.map((t) => t.deviceId));
      const skipped = targets.filter((t) => unreachable.has(t.deviceId));
      return Promise.resolve({ sent: targets.filter((t) => !unreachable.has(t.deviceId)), skipped });
    },
  };
  const closing = new AbortController();
  const ctx: DriverContext = {
    client: { userId: "@me:hs", deviceId: "ME", crypto } as unknown as WidgetClient,
    roomId: "!r:hs",
    viewedRoomId: () => "!r:hs",
    txnId: () => "t",
    closed: closing.signal,
  };
  return { ctx, sends, close: () => closing.abort() };
}

describe("encrypted send_to_device", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("tries a device it could not encrypt for again until it is reached", async () => {
    const unreachable = new Set(["B"]);
    const { ctx, sends } = fakeContext(unreachable);
    const keys = { keys: { index: 0, key: "k" } };
    await sendToDevice(ctx, "io.element.call.encryption_keys", true, {
      "@a:hs": { A: keys },
      "@b:hs": { B: keys },
    });
    expect(sends).toEqual([["A", "B"]]);
    await vi.advanceTimersByTimeAsync(SKIPPED_RETRY_DELAYS_MS[0] ?? 0);
    expect(sends).toEqual([["A", "B"], ["B"]]);
    unreachable.clear();
    await vi.advanceTimersByTimeAsync(SKIPPED_RETRY_DELAYS_MS[1] ?? 0);
    expect(sends).toEqual([["A", "B"], ["B"], ["B"]]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sends).toHaveLength(3);
  });

  it("gives up after its last delay", async () => {
    const { ctx, sends } = fakeContext(new Set(["B"]));
    await sendToDevice(ctx, "m.call.invite", true, { "@b:hs": { B: { call_id: "c" } } });
    await vi.advanceTimersByTimeAsync(SKIPPED_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) + 60_000);
    expect(sends).toHaveLength(1 + SKIPPED_RETRY_DELAYS_MS.length);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops trying when the widget's session ends", async () => {
    const { ctx, sends, close } = fakeContext(new Set(["B"]));
    await sendToDevice(ctx, "io.element.call.encryption_keys", true, { "@b:hs": { B: { keys: [] } } });
    await vi.advanceTimersByTimeAsync(SKIPPED_RETRY_DELAYS_MS[0] ?? 0);
    expect(sends).toHaveLength(2);
    close();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sends).toHaveLength(2);
  });
});
