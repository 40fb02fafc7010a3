/**
 * Feeds one ClientWidgetApi what happens on the SDK client: new room
 * events (decrypted: the sync's decrypt phase has run, and keys that
 * arrive late replay their events here), state changes (as update_state
 * for widgets that asked for it), sticky events, and to-device messages.
 * The ClientWidgetApi drops whatever the approved capabilities do not
 * cover (SPEC §6: other rooms only with a timeline capability). Ciphertext
 * never goes out: an event that cannot be decrypted yet waits for its key.
 */
import type { ClientWidgetApi, Logger } from "@lattice/widget-api";
import type { ClientEventWithoutRoomId, ProcessedSync, SyncBatchSource, ToDeviceEvent } from "../../sdk";
import type { WidgetClient } from "./driver/context";
import { isCiphertext, toWidgetEvent } from "./driver/context";

/** The feed of one widget; stop() ends every subscription. */
export class WidgetFeed {
  private readonly stops: Array<() => void> = [];
  private readonly sent = new Set<string>();

  constructor(
    private readonly client: WidgetClient,
    private readonly api: ClientWidgetApi,
    private readonly logger: Logger,
  ) {
    const source = client.sync.processor as Partial<SyncBatchSource> | null;
    if (typeof source?.subscribe === "function") {
      this.stops.push(source.subscribe((batch) => this.onBatch(batch)));
    }
    this.stops.push(
      client.crypto.onEventDecrypted((update) => this.onRoomEvent(update.roomId, update.event)),
    );
    this.stops.push(client.onToDevice((events) => this.onToDevice(events)));
  }

  /** Ends the feed. */
  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private onBatch(batch: ProcessedSync): void {
    // The cached batch at start is history the widget can read_events; only live news is pushed.
    if (batch.fromCache) return;
    for (const [roomId, room] of batch.rooms.join) {
      const timelineIds = new Set(room.timeline.events.map((e) => e.event_id));
      // State that changed outside the timeline (a gap): update_state only.
      for (const event of room.stateAfter ?? room.state) {
        if (!timelineIds.has(event.event_id)) this.onState(roomId, event);
      }
      for (const event of room.timeline.events) this.onRoomEvent(roomId, event);
      for (const event of room.sticky ?? []) this.onRoomEvent(roomId, event);
    }
  }

  private onRoomEvent(roomId: string, event: ClientEventWithoutRoomId): void {
    if (isCiphertext(event)) return;
    const key = `${roomId}\u0000${event.event_id}`;
    if (this.sent.has(key)) return; // a sticky event also in the timeline, or a replayed decryption
    this.sent.add(key);
    if (this.sent.size > 2000) this.sent.delete(this.sent.values().next().value as string);
    const wire = toWidgetEvent(event, roomId);
    this.api.feedEvent(wire).catch((e: unknown) => this.logger.warn("widget: event not delivered", e));
    if (typeof event.state_key === "string") this.onState(roomId, event);
  }

  private onState(roomId: string, event: ClientEventWithoutRoomId): void {
    if (typeof event.state_key !== "string" || isCiphertext(event)) return;
    this.api
      .feedStateUpdate(toWidgetEvent(event, roomId))
      .catch((e: unknown) => this.logger.warn("widget: state update not delivered", e));
  }

  private onToDevice(events: readonly ToDeviceEvent[]): void {
    for (const event of events) {
      if (isCiphertext(event)) continue;
      const encrypted = event.senderDevice !== undefined;
      this.api
        .feedToDevice(
          {
            type: event.type,
            sender: event.sender,
            content: JSON.parse(JSON.stringify(event.content)) as Record<string, unknown>,
          },
          encrypted,
        )
        .catch((e: unknown) => this.logger.warn("widget: to-device message not delivered", e));
    }
  }
}
