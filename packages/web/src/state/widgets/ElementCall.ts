/**
 * One Element Call running in a room, as a virtual call widget: its state
 * (loading, lobby, joined, left, ended), the devices it says it muted, and
 * whether it asked to stay on screen. The widget channel itself is the
 * generic widget host's (ElementCallWidgetHost, built over the app's
 * WidgetSession); this file only speaks Element Call's custom actions:
 *
 * - from Element Call, each acknowledged with {}: io.element.join (it
 *   joined), im.vector.hangup (it left), io.element.close (after a normal
 *   hang-up: the host may remove the frame), io.element.device_mute;
 * - to Element Call: im.vector.hangup (end the call), and theme_change
 *   through the host.
 *
 * Errors stay in the frame: a host that closed the widget on an error
 * would hide Element Call's own message (a pitfall its users reported).
 */
import type { ReadonlyObservable } from "../observables";
import { ObservableValue } from "../observables";
import type { ElementCallTheme } from "./ElementCallParams";
import { ElementCallAction, parseDeviceMute } from "./ElementCallParams";

/** Where Element Call is in its life. */
export type ElementCallState = "loading" | "lobby" | "joined" | "left" | "ended";

/** The generic widget host Element Call runs in (see ElementCallHost.ts for the app's). */
export interface ElementCallWidgetHost {
  /** Connects to the frame's window (the widget speaks first: waitForIframeLoad is false). */
  attach(frame: Window, origin: string): void;
  /** Sends a custom to-widget action and resolves with its reply. */
  sendCustom(action: string, data: Record<string, unknown>): Promise<unknown>;
  /** Tells the widget the app's theme changed. */
  setTheme(theme: ElementCallTheme): void;
  /** Whether the widget asked to stay on screen (m.always_on_screen). */
  readonly alwaysOnScreen: ReadonlyObservable<boolean>;
  /** Stops the channel. */
  dispose(): void;
}

/** What the host hands a custom action to; the returned object is the reply (undefined: not ours). */
export type ElementCallActionHandler = (
  action: string,
  data: Readonly<Record<string, unknown>>,
) => Record<string, unknown> | undefined;

/** How long hangUp waits for io.element.close before removing the frame itself. */
export const HANGUP_CLOSE_WAIT_MS = 5000;

/** One Element Call. */
export class ElementCall {
  readonly state = new ObservableValue<ElementCallState>("loading");
  /** The devices as Element Call last reported them (io.element.device_mute). */
  readonly devices = new ObservableValue<{ audioEnabled: boolean; videoEnabled: boolean }>({
    audioEnabled: true,
    videoEnabled: true,
  });
  /** Why the widget channel could not start (shown above the frame), or null. */
  readonly error = new ObservableValue<string | null>(null);
  private host: ElementCallWidgetHost | null = null;
  private closeTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly endedListeners = new Set<() => void>();

  constructor(
    /** The room the call is in. */
    readonly roomId: string,
    /** The widget id (also the iframe's key). */
    readonly widgetId: string,
    /** The URL the frame loads (elementCallUrl). */
    readonly url: string,
  ) {}

  /** The origin Element Call is served from (the app's own). */
  get origin(): string {
    return new URL(this.url).origin;
  }

  /** Whether Element Call asked to stay on screen; false before it is attached. */
  get alwaysOnScreen(): boolean {
    return this.host?.alwaysOnScreen.getSnapshot() ?? false;
  }

  /** Binds the widget host (made by the app with this call's onAction as custom handler). */
  bind(host: ElementCallWidgetHost): void {
    this.host = host;
  }

  /** The frame loaded its window: connect the channel; Element Call shows its lobby. */
  attach(frame: Window): void {
    if (this.host === null || this.state.getSnapshot() === "ended") return;
    try {
      this.host.attach(frame, this.origin);
    } catch (e) {
      this.error.set(e instanceof Error ? e.message : String(e));
      return;
    }
    if (this.state.getSnapshot() === "loading") this.state.set("lobby");
  }

  /** Element Call's custom actions; each one is acknowledged with {}. */
  readonly onAction: ElementCallActionHandler = (action, data) => {
    switch (action) {
      case ElementCallAction.Join:
        if (this.state.getSnapshot() !== "ended") this.state.set("joined");
        return {};
      case ElementCallAction.Hangup:
        if (this.state.getSnapshot() !== "ended") this.state.set("left");
        return {};
      case ElementCallAction.Close:
        // Answer first, then remove the frame: the reply must reach a live window.
        queueMicrotask(() => this.end());
        return {};
      case ElementCallAction.DeviceMute: {
        const mute = parseDeviceMute(data);
        this.devices.set({ ...this.devices.getSnapshot(), ...mute });
        return {};
      }
      default:
        return undefined;
    }
  };

  /** The app's theme changed. */
  setTheme(theme: ElementCallTheme): void {
    this.host?.setTheme(theme);
  }

  /**
   * Ends the call from the app: asks Element Call to hang up (it leaves the
   * call and sends io.element.close); the frame goes when it does, or after
   * HANGUP_CLOSE_WAIT_MS if it never answers.
   */
  async hangUp(): Promise<void> {
    const state = this.state.getSnapshot();
    if (state === "ended") return;
    if (this.host === null || state === "loading") {
      this.end();
      return;
    }
    this.closeTimer ??= setTimeout(() => this.end(), HANGUP_CLOSE_WAIT_MS);
    try {
      await this.host.sendCustom(ElementCallAction.Hangup, {});
    } catch {
      this.end(); // the widget is gone or refused: nothing left to wait for
    }
  }

  /** Called once when the call ended (the frame should go). */
  onEnded(listener: () => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /** Removes the call at once: the channel stops and the frame goes. */
  end(): void {
    if (this.state.getSnapshot() === "ended") return;
    if (this.closeTimer !== null) clearTimeout(this.closeTimer);
    this.closeTimer = null;
    this.state.set("ended");
    this.host?.dispose();
    for (const l of [...this.endedListeners]) l();
    this.endedListeners.clear();
  }
}
