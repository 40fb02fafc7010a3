/**
 * The one unread badge rule (models/room-list/badge.ts), from the server's
 * counts (SPEC §3: unread_notifications and per-thread unread counts): a
 * room's badge adds its own and its threads' counts; its number is the
 * larger of the notification and highlight sums; any highlight makes it a
 * highlight badge. The unread filter uses the same rule.
 */
import { describe, expect, it } from "vitest";
import { hasUnread, roomBadge, threadsBadge } from "../../../src/models/room-list/badge";
import type { BadgeSource } from "../../../src/models/room-list/badge";
import { unreadFilter } from "../../../src/models/room-list/filters";
import type { RoomSnapshot } from "../../../src/models/room/Room";

const counts = (notificationCount: number, highlightCount: number) => ({ notificationCount, highlightCount });

function room(own: [number, number], threads: Array<[number, number]> = []): BadgeSource {
  return {
    unread: counts(...own),
    threadUnread: new Map(threads.map((t, i) => [`$thread${i}`, counts(...t)])),
  };
}

describe("roomBadge", () => {
  it("is none with nothing counted", () => {
    expect(roomBadge(room([0, 0]))).toEqual({ count: 0, level: "none" });
    expect(roomBadge(room([0, 0], [[0, 0]]))).toEqual({ count: 0, level: "none" });
  });

  it("counts notifications as unread", () => {
    expect(roomBadge(room([3, 0]))).toEqual({ count: 3, level: "unread" });
  });

  it("adds every thread's counts to the room's", () => {
    expect(
      roomBadge(
        room(
          [2, 0],
          [
            [1, 0],
            [4, 0],
          ],
        ),
      ),
    ).toEqual({ count: 7, level: "unread" });
  });

  it("is a highlight badge when any highlight is counted, in the room or a thread", () => {
    expect(roomBadge(room([2, 1]))).toEqual({ count: 2, level: "highlight" });
    expect(roomBadge(room([1, 0], [[1, 1]]))).toEqual({ count: 2, level: "highlight" });
  });

  it("shows the highlight sum when the server counted more highlights than notifications", () => {
    expect(roomBadge(room([0, 2]))).toEqual({ count: 2, level: "highlight" });
  });

  it("ignores negative counts from a hostile server", () => {
    expect(roomBadge(room([-5, -1], [[2, 0]]))).toEqual({ count: 2, level: "unread" });
  });
});

describe("threadsBadge", () => {
  it("reads the threads alone, not the room's own counts", () => {
    expect(threadsBadge(room([9, 9]))).toEqual({ count: 0, level: "none" });
    expect(threadsBadge(room([9, 9], [[1, 0]]))).toEqual({ count: 1, level: "unread" });
    expect(
      threadsBadge(
        room(
          [0, 0],
          [
            [1, 0],
            [0, 1],
          ],
        ),
      ),
    ).toEqual({ count: 1, level: "highlight" });
  });
});

describe("the unread filter", () => {
  it("keeps exactly the rooms whose badge is not none", () => {
    const cases = [room([0, 0]), room([1, 0]), room([0, 1]), room([0, 0], [[1, 0]]), room([0, 0], [[0, 0]])];
    for (const c of cases) {
      expect(unreadFilter(c as unknown as RoomSnapshot, { room: () => undefined })).toBe(hasUnread(c));
    }
    expect(cases.map((c) => hasUnread(c))).toEqual([false, true, true, true, false]);
  });
});
