/**
 * The outgoing event lifecycle: allowed transitions, cancel only from
 * queued, not_sent or encrypting with SPEC's message, cleared on remote
 * echo, and the pending-event guard for receipts and read markers.
 */
import { describe, expect, it } from "vitest";
import { ModelError } from "../../src/models/errors";
import type { EventStatus } from "../../src/models/event-status";
import {
  EVENT_STATUSES,
  assertReceiptTarget,
  canTransition,
  cancel,
  isCancellable,
  onRemoteEcho,
  transition,
} from "../../src/models/event-status";

describe("event status", () => {
  it.each<[EventStatus, boolean]>([
    ["queued", true],
    ["not_sent", true],
    ["encrypting", true],
    ["sending", false],
    ["sent", false],
    ["cancelled", false],
  ])("cancel from %s allowed: %s", (status, allowed) => {
    expect(isCancellable(status)).toBe(allowed);
    if (allowed) {
      expect(cancel(status)).toBe("cancelled");
      expect(transition(status, "cancelled")).toBe("cancelled");
    } else {
      expect(() => cancel(status)).toThrowError(
        new ModelError("NOT_CANCELLABLE", "Events in other states cannot be cancelled"),
      );
      expect(() => transition(status, "cancelled")).toThrow("Events in other states cannot be cancelled");
    }
  });

  it("refuses to cancel an event that has no status any more", () => {
    expect(() => cancel(null)).toThrow("Events in other states cannot be cancelled");
  });

  it("walks the happy path and the retry path", () => {
    let s: EventStatus = "queued";
    s = transition(s, "encrypting");
    s = transition(s, "sending");
    s = transition(s, "not_sent");
    s = transition(s, "sending");
    s = transition(s, "sent");
    expect(s).toBe("sent");
    expect(onRemoteEcho(s)).toBeNull();
  });

  it("has final states sent and cancelled", () => {
    for (const to of EVENT_STATUSES) {
      expect(canTransition("sent", to)).toBe(false);
      expect(canTransition("cancelled", to)).toBe(false);
    }
    expect(() => transition("sent", "sending")).toThrow(ModelError);
  });

  it("guards receipts and read markers against pending events", () => {
    for (const s of EVENT_STATUSES) {
      expect(() => assertReceiptTarget("$e", s)).toThrow(
        "A read marker or receipt cannot be set to a pending event",
      );
    }
    expect(() => assertReceiptTarget("$e", null)).not.toThrow();
    // A txn id is a local echo: pending even without a status (after a reload).
    expect(() => assertReceiptTarget("m1700000000000.0", null)).toThrow(
      "A read marker or receipt cannot be set to a pending event",
    );
  });
});
