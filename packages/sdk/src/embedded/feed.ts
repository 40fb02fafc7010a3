/**
 * The embedded client's sync source: the host's pushes (send_event for room
 * events, update_state for state, send_to_device for to-device) queue here,
 * and each long-poll of the router's GET /sync takes what queued since, as
 * a sync v2 response for the one granted room. To-device pushes are also
 * told at once to `onToDevice` listeners, marked `hostDecrypted` when the
 * host says they came encrypted (the sync parser keeps only wire fields,
 * so that mark cannot ride in the response). The first poll reads the
 * room's state and recent timeline with read_events (the timeline through
 * WidgetHistory, whose token the router's /messages pages back from). The sync loop, the
 * processor and the room model above stay exactly as over HTTP.
 */
import type { WidgetApi } from "@lattice/widget-api";
import { ToWidgetAction } from "@lattice/widget-api";
import type { ClientEventWithoutRoomId, ToDeviceEvent } from "../api/types/events";
import type { SyncResponse } from "../api/types/sync";
import { toSyncEvent, WidgetHistory } from "./history";

/** What the first poll reads: state types, and timeline types. */
export interface FeedReads {
  stateTypes: readonly string[];
  timelineTypes: readonly string[];
}

type Raw = Readonly<Record<string, unknown>>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The queue of pushes between two polls. */
export class WidgetFeed {
  private timeline: ClientEventWithoutRoomId[] = [];
  private state: ClientEventWithoutRoomId[] = [];
  private toDevice: ToDeviceEvent[] = [];
  private readonly toDeviceListeners = new Set<(events: readonly ToDeviceEvent[]) => void>();
  private seq = 0;
  private wake: (() => void) | null = null;
  private readonly offs: Array<() => void> = [];
  /** The room's history before the first read, paged back through the host. */
  public readonly history: WidgetHistory;

  public constructor(
    private readonly widget: WidgetApi,
    private readonly roomId: string,
    private readonly reads: FeedReads,
  ) {
    this.history = new WidgetHistory(widget, roomId, reads.timelineTypes);
    this.offs.push(
      widget.onAction(ToWidgetAction.SendEvent, (data) => this.pushEvent(data)),
      widget.onAction(ToWidgetAction.UpdateState, (data) => {
        const list = Array.isArray(data["state"]) ? (data["state"] as unknown[]) : [];
        for (const raw of list) {
          const event = toSyncEvent(raw, this.roomId);
          if (event) this.state.push(event);
        }
        this.notify();
      }),
      widget.onAction(ToWidgetAction.SendToDevice, (data) => {
        if (
          typeof data["type"] === "string" &&
          typeof data["sender"] === "string" &&
          isRecord(data["content"])
        ) {
          const event: ToDeviceEvent = {
            type: data["type"],
            sender: data["sender"],
            content: data["content"],
          };
          this.toDevice.push(event);
          const told = data["encrypted"] === true ? { ...event, hostDecrypted: true } : event;
          for (const listener of this.toDeviceListeners) listener([told]);
        }
        this.notify();
      }),
    );
  }

  private pushEvent(data: Raw): void {
    const event = toSyncEvent(data, this.roomId);
    if (event) this.timeline.push(event);
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private get hasPushes(): boolean {
    return this.timeline.length + this.state.length + this.toDevice.length > 0;
  }

  /** To-device events as the host pushes them, with its encrypted flag kept as `hostDecrypted`. */
  public onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void {
    this.toDeviceListeners.add(listener);
    return () => this.toDeviceListeners.delete(listener);
  }

  /** Stops listening to the host. */
  public dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.toDeviceListeners.clear();
    this.notify();
  }

  /**
   * One sync answer: the initial read when `since` is undefined, else what
   * the host pushed since, waiting up to `timeoutMs` for a push.
   */
  public async poll(
    since: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<SyncResponse> {
    if (since === undefined) return this.initial();
    if (!this.hasPushes && timeoutMs > 0) await this.waitForPush(timeoutMs, signal);
    return this.take();
  }

  private waitForPush(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        this.wake = null;
        reject(signal?.reason instanceof Error ? signal.reason : new Error("Aborted"));
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.wake = done;
    });
  }

  private take(): SyncResponse {
    const timeline = this.timeline.splice(0);
    const state = this.state.splice(0);
    this.history.markGiven(timeline);
    const toDevice = this.toDevice.splice(0);
    const response: SyncResponse = { next_batch: `e${++this.seq}` };
    if (toDevice.length > 0) response.to_device = { events: toDevice };
    if (timeline.length + state.length > 0)
      response.rooms = {
        join: { [this.roomId]: { state: { events: state }, timeline: { events: timeline, limited: false } } },
      };
    return response;
  }

  private async initial(): Promise<SyncResponse> {
    const { widget, roomId } = this;
    const opts = { roomIds: [roomId] };
    const [stateLists, read] = await Promise.all([
      Promise.all(this.reads.stateTypes.map((t) => widget.readStateEvents(t, opts))),
      this.history.first(),
    ]);
    const byId = new Set(read.events.map((e) => e.event_id));
    const state = stateLists.flat().flatMap((raw) => toSyncEvent(raw, roomId) ?? []);
    // Pushes that raced the read are in `state`/`timeline` already or come next: the processor drops repeats.
    const pushed = this.take();
    const join = pushed.rooms?.join?.[roomId];
    return {
      next_batch: `e${++this.seq}`,
      rooms: {
        join: {
          [roomId]: {
            state: { events: [...state, ...(join?.state?.events ?? [])] },
            timeline: {
              events: [
                ...read.events,
                ...(join?.timeline?.events ?? []).filter((e) => !byId.has(e.event_id)),
              ],
              limited: true,
              prev_batch: read.token,
            },
          },
        },
      },
      ...(pushed.to_device ? { to_device: pushed.to_device } : {}),
    };
  }
}
