/**
 * update_state pushes (MSC2762 update_state): after capabilities are
 * approved, and when a room is viewed, the host sends the current state the
 * widget may read; later state changes follow one by one. Only widgets that
 * advertise org.matrix.msc2762_update_state get these pushes. All pushes go
 * through one queue so the widget sees them in order.
 */
import type { CapabilitySet } from "../capabilities/CapabilitySet";
import { ToWidgetAction } from "../interfaces/WidgetApiAction";
import type { RoomEvent } from "../interfaces/RoomEvent";
import type { Logger } from "../util/clock";
import { isRecord } from "../util/narrow";
import type { WidgetDriver } from "./WidgetDriver";

/** What the pusher needs from the host. */
export interface StatePusherHost {
  readonly driver: WidgetDriver;
  readonly capabilities: CapabilitySet;
  readonly logger: Logger;
  send(action: string, data: Readonly<Record<string, unknown>>): Promise<unknown>;
  supportsUpdateState(): Promise<boolean>;
}

/** Queues update_state pushes for one widget. */
export class StatePusher {
  private queue: Promise<void> = Promise.resolve();

  public constructor(private readonly host: StatePusherHost) {}

  /** Resolves when every queued push has been sent. */
  public idle(): Promise<void> {
    return this.queue;
  }

  /** Pushes the readable state of each room. */
  public pushRoomState(roomIds: readonly string[]): void {
    const caps = this.host.capabilities.eventCapabilities.filter(
      (c) => c.kind === "state_event" && c.direction === "receive",
    );
    if (caps.length === 0 || roomIds.length === 0) return;
    void this.enqueue(async () => {
      if (!(await this.host.supportsUpdateState())) return;
      const byKey = new Map<string, RoomEvent>();
      for (const roomId of new Set(roomIds)) {
        for (const cap of caps) {
          let events: RoomEvent[] = [];
          try {
            events = await this.host.driver.readRoomState(roomId, cap.eventType, cap.keyStr ?? undefined);
          } catch (e) {
            this.host.logger.error(`widget api: failed to read room state for ${roomId}`, e);
          }
          for (const ev of events) {
            if (!this.readable(ev)) continue;
            const key = JSON.stringify([ev.room_id, ev.type, ev.state_key]);
            if (!byKey.has(key)) byKey.set(key, ev);
          }
        }
      }
      await this.host.send(ToWidgetAction.UpdateState, { state: [...byKey.values()] });
    });
  }

  /** Pushes one state change (the caller checked room access). */
  public pushUpdate(event: RoomEvent): Promise<void> {
    return this.enqueue(async () => {
      if (!(await this.host.supportsUpdateState())) return;
      await this.host.send(ToWidgetAction.UpdateState, { state: [event] });
    });
  }

  private readable(ev: unknown): ev is RoomEvent {
    return (
      isRecord(ev) &&
      typeof ev.type === "string" &&
      typeof ev.state_key === "string" &&
      this.host.capabilities.canStateEvent("receive", ev.type, ev.state_key)
    );
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch((e: unknown) => this.host.logger.warn("widget api: update_state push failed", e));
    return this.queue;
  }
}
