/**
 * The signed-in client's Element Call, when Settings › Voice & video says
 * "Group calls with Element Call": at most one at a time. The room's group
 * call button starts it (or brings back the one running in that room);
 * leaving its room ends it unless Element Call asked to stay on screen
 * (m.always_on_screen: it keeps running in picture-in-picture).
 *
 * The widget host is made by an injected factory (ElementCallHost.ts over
 * the app's WidgetSession and SDK widget driver), so this file is tested
 * without a browser.
 */
import type { CallSettings } from "../calls/CallSettings";
import { ObservableValue } from "../observables";
import { ElementCall } from "./ElementCall";
import type { ElementCallActionHandler, ElementCallWidgetHost } from "./ElementCall";
import type { ElementCallTheme } from "./ElementCallParams";
import {
  elementCallCapabilities,
  elementCallIntent,
  elementCallUrl,
  ELEMENT_CALL_WIDGET_TYPE,
} from "./ElementCallParams";

/** What the widget host factory is given for one Element Call. */
export interface ElementCallHostRequest {
  widgetId: string;
  roomId: string;
  url: string;
  type: typeof ELEMENT_CALL_WIDGET_TYPE;
  name: string;
  /** Pre-approved without a dialog; OpenID is always allowed too. */
  capabilities: readonly string[];
  /** Element Call's custom actions (io.element.*, im.vector.hangup). */
  onAction: ElementCallActionHandler;
}

/** Makes the widget host of one Element Call. */
export type ElementCallHostFactory = (request: ElementCallHostRequest) => ElementCallWidgetHost;

/** What ElementCalls reads of the client and the page. */
export interface ElementCallsDeps {
  userId: string;
  deviceId: string;
  homeserverUrl: string;
  settings: CallSettings;
  /** Whether a MatrixRTC call has members in the room (Element Call then joins it). */
  callRunning(roomId: string): boolean;
  /** The room's name, for the frame's title. */
  roomName(roomId: string): string;
  hostFactory: ElementCallHostFactory;
  /** The absolute URL the app serves Element Call under (…/element-call/). */
  baseHref(): string;
  /** The page hosting the widget (Element Call answers only to its origin). */
  parentUrl(): string;
  theme(): ElementCallTheme;
  lang(): string;
  fontScale(): number;
  /** A widget id; random in the app. */
  newWidgetId?(): string;
}

/** The client's Element Call. */
export class ElementCalls {
  /** The running Element Call, or null. */
  readonly active = new ObservableValue<ElementCall | null>(null);
  private seq = 0;

  constructor(private readonly deps: ElementCallsDeps) {}

  /** Whether group calls go to Element Call (Settings › Voice & video). */
  get enabled(): boolean {
    return this.deps.settings.current.groupCalls === "element-call";
  }

  /**
   * Opens Element Call in the room: the running one when it is in this room,
   * else a new one (a call running elsewhere is hung up first).
   */
  start(roomId: string, options: { voice?: boolean } = {}): ElementCall {
    const running = this.active.getSnapshot();
    if (running !== null && running.roomId === roomId) return running;
    if (running !== null) void running.hangUp();
    const d = this.deps;
    const widgetId = d.newWidgetId?.() ?? `lattice-element-call-${Date.now().toString(36)}-${++this.seq}`;
    const url = elementCallUrl({
      baseHref: d.baseHref(),
      widgetId,
      parentUrl: d.parentUrl(),
      roomId,
      userId: d.userId,
      deviceId: d.deviceId,
      homeserverUrl: d.homeserverUrl,
      intent: elementCallIntent({
        callRunning: d.callRunning(roomId),
        direct: false,
        voice: options.voice === true,
      }),
      theme: d.theme(),
      lang: d.lang(),
      fontScale: d.fontScale(),
    });
    const call = new ElementCall(roomId, widgetId, url);
    call.bind(
      d.hostFactory({
        widgetId,
        roomId,
        url,
        type: ELEMENT_CALL_WIDGET_TYPE,
        name: d.roomName(roomId),
        capabilities: elementCallCapabilities(roomId, d.userId, d.deviceId),
        onAction: call.onAction,
      }),
    );
    call.onEnded(() => {
      if (this.active.getSnapshot() === call) this.active.set(null);
    });
    this.active.set(call);
    return call;
  }

  /**
   * The app now shows `roomId` (null: no room): a call of another room stays
   * only if Element Call asked to stay on screen; otherwise it ends.
   */
  viewedRoomChanged(roomId: string | null): void {
    const call = this.active.getSnapshot();
    if (call === null || call.roomId === roomId || call.alwaysOnScreen) return;
    void call.hangUp();
  }

  /** The app's theme changed. */
  themeChanged(theme: ElementCallTheme): void {
    this.active.getSnapshot()?.setTheme(theme);
  }

  /** Ends the running call (sign-out, client disposal). */
  dispose(): void {
    this.active.getSnapshot()?.end();
  }
}
