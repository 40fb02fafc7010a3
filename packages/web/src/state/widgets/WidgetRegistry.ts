/**
 * The app's widget registry: one per signed-in client. It owns what must
 * outlive a room view: where each room's widgets are shown (layouts), the
 * clicks that let untrusted widgets load, and the running widgets.
 *
 * A running widget's iframe must never be re-parented (moving an iframe in
 * the DOM reloads it), so every frame lives in one app-level layer and is
 * drawn over a "slot" the room's layout leaves for it. When the slot goes
 * (the user left the room, or closed the widget) the widget stops, unless
 * it asked to stay on screen (`m.always_on_screen`): then it keeps running
 * in picture-in-picture until its slot comes back or the user closes it.
 */
import { ObservableValue } from "../observables";
import type { ReadonlyObservable } from "../observables";
import type { RoomWidget } from "./roomWidgets";

/** Where a widget is shown in its room. */
export type WidgetContainer = "top" | "right" | "maximised" | "pip" | "closed";

/** What the registry needs of a widget session (WidgetSession implements it). */
export interface HostedSession {
  /** Starts talking to the frame: its window, and the only origin accepted from it. */
  attach(frame: Window, origin: string): void;
  /** True while the widget asked to stay on screen. */
  readonly alwaysOnScreen: ReadonlyObservable<boolean>;
  dispose(): void;
}

/** Makes the session of a widget about to run. */
export type SessionFactory<S extends HostedSession> = (start: {
  roomId: string;
  widget: RoomWidget;
  url: string;
}) => S;

/** A widget with a live frame. */
export interface RunningWidget<S extends HostedSession = HostedSession> {
  /** The registry key: room id and widget id. */
  readonly key: string;
  readonly roomId: string;
  readonly widget: RoomWidget;
  /** The url the frame loads (template filled). */
  readonly url: string;
  readonly session: S;
  /** The element the frame is drawn over; null when it has none (picture-in-picture). */
  readonly slot: ReadonlyObservable<HTMLElement | null>;
}

interface Entry<S extends HostedSession> extends RunningWidget<S> {
  readonly slotValue: ObservableValue<HTMLElement | null>;
  stopAos: () => void;
}

function keyOf(roomId: string, widgetId: string): string {
  return JSON.stringify([roomId, widgetId]);
}

/** What a room's widgets view model uses of the registry (none of it depends on the session type). */
export interface WidgetPlacements {
  readonly allowedCount: ReadonlyObservable<number>;
  layoutOf(roomId: string): ReadonlyObservable<ReadonlyMap<string, WidgetContainer>>;
  place(roomId: string, widgetId: string, container: WidgetContainer): void;
  isAllowed(roomId: string, widgetId: string, url: string): boolean;
  allow(roomId: string, widgetId: string, url: string): void;
  show(roomId: string, widget: RoomWidget, url: string, slot: HTMLElement): () => void;
  stop(roomId: string, widgetId: string): void;
}

/** The app's widgets: layouts, load clicks and the running frames. */
export class WidgetRegistry<S extends HostedSession = HostedSession> implements WidgetPlacements {
  private readonly layouts = new Map<string, ObservableValue<ReadonlyMap<string, WidgetContainer>>>();
  private readonly allowed = new Set<string>();
  private readonly entries = new Map<string, Entry<S>>();
  private readonly runningValue = new ObservableValue<readonly RunningWidget<S>[]>([]);
  private readonly allowedValue = new ObservableValue(0);

  constructor(private readonly factory: SessionFactory<S>) {}

  /** Every widget with a live frame (the frame layer renders these). */
  get running(): ReadonlyObservable<readonly RunningWidget<S>[]> {
    return this.runningValue;
  }

  /** Where each widget of `roomId` is shown. */
  layoutOf(roomId: string): ReadonlyObservable<ReadonlyMap<string, WidgetContainer>> {
    let v = this.layouts.get(roomId);
    if (v === undefined) {
      v = new ObservableValue<ReadonlyMap<string, WidgetContainer>>(new Map());
      this.layouts.set(roomId, v);
    }
    return v;
  }

  /** Moves a widget; "closed" stops it unless it is always on screen. */
  place(roomId: string, widgetId: string, container: WidgetContainer): void {
    const value = this.layoutOf(roomId) as ObservableValue<ReadonlyMap<string, WidgetContainer>>;
    const next = new Map(value.getSnapshot());
    // Only one maximised widget per room: the one before goes back on top.
    if (container === "maximised")
      for (const [id, c] of next) if (c === "maximised" && id !== widgetId) next.set(id, "top");
    next.set(widgetId, container);
    value.set(next);
  }

  /** Counts the load clicks, so views re-render after one. */
  get allowedCount(): ReadonlyObservable<number> {
    return this.allowedValue;
  }

  /** Whether an untrusted widget at this url was let load. */
  isAllowed(roomId: string, widgetId: string, url: string): boolean {
    return this.allowed.has(JSON.stringify([roomId, widgetId, url]));
  }

  /** Lets an untrusted widget load (a new url asks again). */
  allow(roomId: string, widgetId: string, url: string): void {
    this.allowed.add(JSON.stringify([roomId, widgetId, url]));
    this.allowedValue.set(this.allowed.size);
  }

  /** The running widget, if any. */
  find(roomId: string, widgetId: string): RunningWidget<S> | undefined {
    return this.entries.get(keyOf(roomId, widgetId));
  }

  /**
   * A room's layout shows the widget in `slot`: starts it (or restarts it
   * when its url changed) and draws it there; returns the release the slot
   * calls when it goes.
   */
  show(roomId: string, widget: RoomWidget, url: string, slot: HTMLElement): () => void {
    const key = keyOf(roomId, widget.id);
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.url !== url) {
      this.stop(roomId, widget.id);
      entry = undefined;
    }
    if (entry === undefined) {
      const session = this.factory({ roomId, widget, url });
      const slotValue = new ObservableValue<HTMLElement | null>(slot);
      const made: Entry<S> = {
        key,
        roomId,
        widget,
        url,
        session,
        slot: slotValue,
        slotValue,
        stopAos: () => {},
      };
      // A widget in picture-in-picture that drops always-on-screen stops.
      made.stopAos = session.alwaysOnScreen.subscribe((on) => {
        if (!on && made.slotValue.getSnapshot() === null) this.stop(roomId, widget.id);
      });
      this.entries.set(key, made);
      entry = made;
      this.publish();
    } else {
      entry.slotValue.set(slot);
    }
    const shown = entry;
    return () => {
      if (shown.slotValue.getSnapshot() !== slot) return;
      shown.slotValue.set(null);
      // Decided a moment later: a layout change (or React's StrictMode) may show it again at once.
      setTimeout(() => {
        if (this.entries.get(key) !== shown || shown.slotValue.getSnapshot() !== null) return;
        if (!shown.session.alwaysOnScreen.getSnapshot()) this.stop(roomId, widget.id);
      }, 0);
    };
  }

  /** Stops a running widget (its frame goes, its session ends). */
  stop(roomId: string, widgetId: string): void {
    const key = keyOf(roomId, widgetId);
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    entry.stopAos();
    entry.session.dispose();
    this.publish();
  }

  /** Stops every widget (sign-out). */
  dispose(): void {
    for (const e of [...this.entries.values()]) this.stop(e.roomId, e.widget.id);
  }

  private publish(): void {
    this.runningValue.set([...this.entries.values()]);
  }
}
