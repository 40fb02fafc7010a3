/** Ringing: both notification forms, the decline, and how a ring ends (lifetime 30000 ms). */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import {
  RingTracker,
  callNotifyContent,
  declineContent,
  parseDecline,
  parseRing,
  rtcNotificationContent,
} from "../../src/rtc/ring";
import { FakeScheduler } from "../support/fake-scheduler";

const request = { userIds: ["@b:hs"], type: "ring", membershipEventId: "$m", callIntent: "audio" } as const;
const ev = (
  type: string,
  content: Record<string, unknown>,
  ts: number,
  id = "$n",
): ClientEventWithoutRoomId => ({
  type,
  content,
  sender: "@a:hs",
  event_id: id,
  origin_server_ts: ts,
});

describe("ring events", () => {
  it("writes and reads the RTC notification with lifetime 30000 ms", () => {
    const content = rtcNotificationContent(request, 1000);
    expect(content).toEqual({
      "m.mentions": { user_ids: ["@b:hs"] },
      notification_type: "ring",
      "m.relates_to": { rel_type: "m.reference", event_id: "$m" },
      sender_ts: 1000,
      lifetime: 30000,
      "m.call.intent": "audio",
    });
    expect(parseRing(ev("org.matrix.msc4075.rtc.notification", content, 1000))).toMatchObject({
      type: "ring",
      userIds: ["@b:hs"],
      membershipEventId: "$m",
      callIntent: "audio",
      expiresAt: 31_000,
      deprecated: false,
    });
    expect(
      parseRing(ev("org.matrix.msc4075.rtc.notification", { ...content, notification_type: "x" }, 0)),
    ).toBeNull();
  });

  it("writes and reads the deprecated call.notify", () => {
    const content = callNotifyContent({ ...request, type: "notification" });
    expect(content).toEqual({
      application: "m.call",
      "m.mentions": { user_ids: ["@b:hs"] },
      notify_type: "notify",
      call_id: "",
    });
    expect(parseRing(ev("org.matrix.msc4075.call.notify", callNotifyContent(request), 5))).toMatchObject({
      type: "ring",
      deprecated: true,
      expiresAt: 30_005,
    });
  });

  it("writes and reads the decline", () => {
    const content = declineContent("$n");
    expect(content).toEqual({ "m.relates_to": { rel_type: "m.reference", event_id: "$n" } });
    expect(parseDecline(ev("org.matrix.msc4310.rtc.decline", content, 0))).toBe("$n");
  });
});

describe("RingTracker", () => {
  it("ends a ring when its lifetime passes", async () => {
    const scheduler = new FakeScheduler();
    const tracker = new RingTracker(scheduler);
    const ring = parseRing(
      ev(
        "org.matrix.msc4075.rtc.notification",
        rtcNotificationContent(request, scheduler.now()),
        scheduler.now(),
      ),
    );
    expect(ring && tracker.receive(ring)).toBe(true);
    await scheduler.advance(29_999);
    expect(tracker.ringing()).toHaveLength(1);
    await scheduler.advance(1);
    expect(tracker.rings.getSnapshot().get("$n")?.state).toBe("expired");
  });

  it("ends a ring when answered, declined or cancelled, and ignores one already expired", () => {
    const scheduler = new FakeScheduler();
    const tracker = new RingTracker(scheduler);
    const now = scheduler.now();
    for (const [id, end] of [
      ["$1", "answered"],
      ["$2", "declined"],
      ["$3", "cancelled"],
    ] as const) {
      const ring = parseRing(
        ev("org.matrix.msc4075.rtc.notification", rtcNotificationContent(request, now), now, id),
      );
      if (ring) tracker.receive(ring);
      tracker.end(id, end);
      tracker.end(id, "expired");
      expect(tracker.rings.getSnapshot().get(id)?.state).toBe(end);
    }
    const old = parseRing(
      ev(
        "org.matrix.msc4075.rtc.notification",
        rtcNotificationContent(request, now - 30_000),
        now - 30_000,
        "$4",
      ),
    );
    expect(old && tracker.receive(old)).toBe(false);
    expect(scheduler.pending()).toEqual([]);
  });
});
