/**
 * The host side of the widget API (ClientWidgetApi-style): one instance per
 * widget iframe. It owns the transport to that iframe, the lifecycle
 * (load / content_loaded, capability negotiation once), the approved
 * capabilities, dispatch of from-widget actions to actions/, and the
 * to-widget pushes (events, to-device, state, theme, language, visibility,
 * screenshots, modal notifications).
 *
 * A requestId is handled once (replay.ts): a replay while the first is in
 * flight is dropped (the widget will get the one reply), and the same
 * request again within REPLAY_WINDOW_MS of its reply gets that reply again
 * without being handled, so a replayed send_event is sent once. The same id
 * with another action or data is a new request: matrix-widget-api reuses an
 * id once its request is answered.
 */
import { ACTION_HANDLERS } from "../actions/registry";
import { CapabilitySet } from "../capabilities/CapabilitySet";
import { ANY_ROOM, MatrixCapabilities, timelineRoomOf } from "../capabilities/MatrixCapabilities";
import { UnstableApiVersion } from "../interfaces/ApiVersion";
import type { RoomEvent, ToDeviceMessage } from "../interfaces/RoomEvent";
import { FromWidgetAction, ToWidgetAction } from "../interfaces/WidgetApiAction";
import type { WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import { PostMessageTransport } from "../transport/PostMessageTransport";
import type { MessageInbox, PostTarget } from "../transport/windows";
import type { Clock, Logger } from "../util/clock";
import { consoleLogger, systemClock } from "../util/clock";
import { Emitter } from "../util/Emitter";
import { WidgetActionError, WidgetApiError } from "../util/errors";
import { isRecord, isStringArray } from "../util/narrow";
import type { ActionContext, HostWidget } from "./ActionContext";
import type { NegotiationState } from "./lifecycle";
import { CONTENT_LOADED_WAIT_MS, LIFECYCLE_ERRORS, unknownAction } from "./lifecycle";
import { ReplayGuard } from "./replay";
import type { Reply } from "./replay";
import { StatePusher } from "./StatePusher";
import { TurnPoller } from "./TurnPoller";
import type { WidgetDriver } from "./WidgetDriver";
import { DefaultWidgetDriver } from "./WidgetDriver";

/** Events of the host. */
export interface ClientWidgetApiEvents {
  [key: string]: unknown;
  preparing: undefined;
  ready: undefined;
  "error:preparing": Error;
  capabilitiesNotified: { requested: string[]; approved: string[] };
  /** Every from-widget request, before it is handled (for logging and UI). */
  action: WidgetApiRequest;
}

/**
 * Handles a from-widget action the API does not know (for example Element
 * Call's io.element.join): return the reply body (or a promise of it), or
 * null to leave it unknown ('Unknown or unsupported action: ...'). A throw
 * replies with the error's message.
 */
export type CustomActionHandler = (
  request: WidgetApiRequest,
) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>> | null;

/** How to build a host. */
export interface ClientWidgetApiOptions {
  widget: HostWidget;
  /** The widget iframe's contentWindow: the only window we post to and accept from. */
  frameWindow: PostTarget;
  /** The host's own window (where "message" events arrive). */
  hostWindow: MessageInbox;
  driver?: WidgetDriver;
  clock?: Clock;
  logger?: Logger;
  timeoutMs?: number;
  maxMessageBytes?: number;
  /** Actions outside the widget API, answered by the embedding app. */
  customActions?: CustomActionHandler;
}

/** The host side of one widget. */
export class ClientWidgetApi extends Emitter<ClientWidgetApiEvents> {
  public readonly transport: PostMessageTransport;
  public readonly capabilities = new CapabilitySet();
  public readonly widget: HostWidget;
  private readonly driver: WidgetDriver;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly turn: TurnPoller;
  private readonly state: StatePusher;
  private readonly ctx: ActionContext;
  private negotiation: NegotiationState = "idle";
  private contentLoadedSent = false;
  private contentLoadedTimer: unknown = null;
  private widgetVersions: Promise<string[]> | null = null;
  private viewedRoom: string | null = null;
  private stopped = false;
  private readonly afterReplies = new Map<WidgetApiRequest, () => void>();
  private readonly replays: ReplayGuard;
  private readonly customActions: CustomActionHandler | undefined;

  public constructor(opts: ClientWidgetApiOptions) {
    super();
    this.widget = opts.widget;
    this.driver = opts.driver ?? new DefaultWidgetDriver();
    this.clock = opts.clock ?? systemClock;
    this.logger = opts.logger ?? consoleLogger;
    const origin = new URL(opts.widget.url).origin;
    this.transport = new PostMessageTransport({
      sendDirection: "toWidget",
      widgetId: opts.widget.id,
      target: opts.frameWindow,
      targetOrigin: origin,
      inbox: opts.hostWindow,
      acceptSource: opts.frameWindow,
      acceptOrigin: origin,
      clock: this.clock,
      logger: this.logger,
      timeoutMs: opts.timeoutMs,
      maxMessageBytes: opts.maxMessageBytes,
    });
    const send = (action: string, data: Readonly<Record<string, unknown>>) =>
      this.transport.send(action, data);
    this.turn = new TurnPoller(this.driver, send, this.logger);
    const supportsUpdateState = () => this.supportsUpdateState();
    this.state = new StatePusher({
      driver: this.driver,
      capabilities: this.capabilities,
      logger: this.logger,
      send,
      supportsUpdateState,
    });
    const viewed = (): string | null => this.viewedRoom;
    this.ctx = {
      widget: this.widget,
      driver: this.driver,
      capabilities: this.capabilities,
      logger: this.logger,
      turn: this.turn,
      get viewedRoomId() {
        return viewed();
      },
      send,
      supportsUpdateState,
      renegotiate: (requested) => this.renegotiate(requested),
      afterReply: (request, fn) => this.afterReplies.set(request, fn),
    };
    this.replays = new ReplayGuard(this.clock);
    this.customActions = opts.customActions;
    this.transport.onRequest = (request) => this.handleRequest(request);
    this.transport.start();
  }

  /** Current negotiation state. */
  public get negotiationState(): NegotiationState {
    return this.negotiation;
  }

  /** The room the user is looking at, or null. */
  public get viewedRoomId(): string | null {
    return this.viewedRoom;
  }

  /**
   * Call when the iframe fires "load". With waitForIframeLoad, negotiation
   * starts now; otherwise the host waits (10 s, then logs) for content_loaded.
   */
  public onIframeLoad(): void {
    if (this.stopped) return;
    if (this.widget.waitForIframeLoad) {
      this.startNegotiation();
      return;
    }
    this.clearContentLoadedTimer();
    this.contentLoadedSent = false;
    this.contentLoadedTimer = this.clock.setTimeout(() => {
      this.contentLoadedTimer = null;
      this.logger.error(LIFECYCLE_ERRORS.contentLoadedMissing);
    }, CONTENT_LOADED_WAIT_MS);
  }

  /**
   * Runs capability negotiation. It can complete once: a second call rejects
   * with 'Capability negotiation already completed'.
   */
  public async beginCapabilities(): Promise<void> {
    if (this.negotiation !== "idle") throw new WidgetApiError(LIFECYCLE_ERRORS.negotiationCompleted);
    this.negotiation = "preparing";
    this.emit("preparing", undefined);
    try {
      const reply = await this.transport.send(ToWidgetAction.Capabilities, {});
      const list = reply["capabilities"];
      if (!Array.isArray(list)) throw new WidgetApiError(LIFECYCLE_ERRORS.invalidCapabilities);
      // Junk entries (numbers, objects) are dropped; the strings are negotiated as asked.
      const requested = list.filter((c): c is string => typeof c === "string");
      const approved = await this.driver.validateCapabilities(new Set(requested));
      this.allowCapabilities(approved, requested);
      this.negotiation = "ready";
      this.emit("ready", undefined);
    } catch (e) {
      this.negotiation = "error:preparing";
      const error =
        e instanceof Error ? e : new WidgetApiError("Capability negotiation failed", { cause: e });
      this.emit("error:preparing", error);
    }
  }

  private startNegotiation(): void {
    this.beginCapabilities().catch((e: unknown) => this.logger.error("widget api:", e));
  }

  private renegotiate(requested: readonly string[]): void {
    if (this.stopped) return;
    const newly = [...new Set(requested)].filter((c) => !this.capabilities.has(c));
    if (newly.length === 0) {
      this.allowCapabilities(new Set(), []);
      return;
    }
    this.driver
      .validateCapabilities(new Set(newly))
      .then((approved) => this.allowCapabilities(approved, newly))
      .catch((e: unknown) => this.logger.error("widget api: capability renegotiation failed", e));
  }

  /** Grants approved ∩ requested (never more than the widget asked for), notifies, pushes state. */
  private allowCapabilities(approved: ReadonlySet<string>, requested: readonly string[]): void {
    const granted = requested.filter((c) => typeof c === "string" && approved.has(c));
    const hadEventCaps = this.capabilities.eventCapabilities.length;
    this.capabilities.add(granted);
    const notification = { requested: [...requested], approved: this.capabilities.toArray() };
    this.transport
      .send(ToWidgetAction.NotifyCapabilities, notification)
      .catch((e: unknown) => this.logger.warn("widget api: notify_capabilities not acknowledged", e))
      .finally(() => this.emit("capabilitiesNotified", notification));

    const rooms = new Set<string>();
    for (const c of granted) {
      const room = timelineRoomOf(c);
      if (room === ANY_ROOM) for (const r of this.safeKnownRooms()) rooms.add(r);
      else if (room !== null) rooms.add(room);
    }
    const newEventCaps = this.capabilities.eventCapabilities.length > hadEventCaps;
    if (newEventCaps && this.viewedRoom !== null) rooms.add(this.viewedRoom);
    this.state.pushRoomState([...rooms]);
  }

  private safeKnownRooms(): string[] {
    try {
      const rooms = this.driver.getKnownRooms();
      return isStringArray(rooms) ? rooms : [];
    } catch (e) {
      this.logger.error("widget api: getKnownRooms failed", e);
      return [];
    }
  }

  /** The widget's API versions (asked once, cached on success). */
  public getWidgetVersions(): Promise<string[]> {
    if (!this.widgetVersions) {
      const asked = this.transport.send(ToWidgetAction.SupportedApiVersions, {}).then((r) => {
        const v = r["supported_versions"];
        return isStringArray(v) ? v : [];
      });
      this.widgetVersions = asked;
      asked.catch((e: unknown) => {
        this.logger.warn("widget api: could not get widget versions", e);
        if (this.widgetVersions === asked) this.widgetVersions = null;
      });
    }
    return this.widgetVersions.catch(() => []);
  }

  private async supportsUpdateState(): Promise<boolean> {
    return (await this.getWidgetVersions()).includes(UnstableApiVersion.MSC2762UpdateState);
  }

  private handleRequest(request: WidgetApiRequest): void {
    if (this.stopped) return;
    this.emit("action", request);
    if (request.action === FromWidgetAction.ContentLoaded) {
      this.handleContentLoaded(request);
      return;
    }
    const handler = ACTION_HANDLERS.get(request.action);
    if (!handler) {
      this.handleCustom(request);
      return;
    }
    const seen = this.replays.check(request);
    if (seen.kind === "in-flight") {
      this.logger.warn(`widget api: dropped a replayed request (${request.action})`);
      return;
    }
    if (seen.kind === "answered") {
      this.sendReply(request, seen.reply);
      return;
    }
    Promise.resolve()
      .then(() => handler(this.ctx, request))
      .then(
        // A shallow copy: the reply interfaces are plain JSON objects, posted as they are.
        (body): Reply => ({ body: { ...body } }),
        (e: unknown): Reply => {
          if (e instanceof WidgetActionError) return { error: e.message, extra: e.extra };
          this.logger.error(`widget api: ${request.action} failed`, e);
          return { error: "Unexpected error handling the request", extra: {} };
        },
      )
      .then((reply) => {
        this.replays.answered(request, seen.fingerprint, reply);
        this.sendReply(request, reply);
      })
      .catch((e: unknown) => this.logger.error("widget api: reply failed", e))
      .finally(() => {
        const after = this.afterReplies.get(request);
        this.afterReplies.delete(request);
        after?.();
      });
  }

  private handleCustom(request: WidgetApiRequest): void {
    let answer: ReturnType<CustomActionHandler>;
    try {
      answer = this.customActions?.(request) ?? null;
    } catch (e) {
      this.transport.replyError(request, e instanceof Error ? e.message : String(e));
      return;
    }
    if (answer === null) {
      this.transport.replyError(request, unknownAction(request.action));
      return;
    }
    Promise.resolve(answer).then(
      (body) => this.transport.reply(request, body),
      (e: unknown) => this.transport.replyError(request, e instanceof Error ? e.message : String(e)),
    );
  }

  private sendReply(request: WidgetApiRequest, reply: Reply): void {
    if ("body" in reply) this.transport.reply(request, reply.body);
    else this.transport.replyError(request, reply.error, reply.extra);
  }

  private handleContentLoaded(request: WidgetApiRequest): void {
    this.clearContentLoadedTimer();
    if (this.contentLoadedSent) {
      this.transport.replyError(request, LIFECYCLE_ERRORS.contentLoadedTwice);
      return;
    }
    this.contentLoadedSent = true;
    if (this.widget.waitForIframeLoad) {
      this.transport.replyError(request, LIFECYCLE_ERRORS.notExpectingContentLoaded);
      return;
    }
    this.transport.reply(request, {});
    this.startNegotiation();
  }

  private clearContentLoadedTimer(): void {
    if (this.contentLoadedTimer !== null) this.clock.clearTimeout(this.contentLoadedTimer);
    this.contentLoadedTimer = null;
  }

  /** Tells the widget which room the user views; pushes its state if no timeline capability covers it. */
  public setViewedRoomId(roomId: string | null): void {
    this.viewedRoom = roomId;
    if (roomId !== null && !this.capabilities.canUseRoomTimeline(roomId)) this.state.pushRoomState([roomId]);
  }

  /**
   * Feeds a room event. Events of a room other than the viewed one go only
   * to widgets with a timeline capability covering that room.
   */
  public async feedEvent(event: RoomEvent): Promise<void> {
    if (!this.canSeeRoom(event.room_id)) return;
    if (typeof event.state_key === "string") {
      if (!this.capabilities.canStateEvent("receive", event.type, event.state_key)) return;
    } else if (
      !this.capabilities.canRoomEvent(
        "receive",
        event.type,
        isRecord(event.content) ? event.content["msgtype"] : undefined,
      )
    ) {
      return;
    }
    await this.transport.send(ToWidgetAction.SendEvent, { ...event });
  }

  /** Feeds a to-device message the widget may receive. */
  public async feedToDevice(message: ToDeviceMessage, encrypted: boolean): Promise<void> {
    if (!this.capabilities.canToDevice("receive", message.type)) return;
    await this.transport.send(ToWidgetAction.SendToDevice, { ...message, encrypted });
  }

  /** Feeds a state change; pushed as update_state to widgets that support it. */
  public async feedStateUpdate(event: RoomEvent): Promise<void> {
    if (typeof event.state_key !== "string") throw new WidgetApiError("Not a state event");
    if (!this.canSeeRoom(event.room_id)) return;
    if (!this.capabilities.canStateEvent("receive", event.type, event.state_key)) return;
    await this.state.pushUpdate(event);
  }

  private canSeeRoom(roomId: string): boolean {
    return roomId === this.viewedRoom || this.capabilities.canUseRoomTimeline(roomId);
  }

  /** theme_change. */
  public updateTheme(theme: Record<string, unknown>): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.ThemeChange, theme);
  }

  /** language_change. */
  public updateLanguage(lang: string): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.LanguageChange, { lang });
  }

  /** screenshot: needs the screenshot capability. */
  public async takeScreenshot(): Promise<Readonly<Record<string, unknown>>> {
    if (!this.capabilities.has(MatrixCapabilities.Screenshots))
      throw new WidgetApiError("Missing capability");
    return this.transport.send(ToWidgetAction.TakeScreenshot, {});
  }

  /** visibility. */
  public updateVisibility(visible: boolean): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.UpdateVisibility, { visible });
  }

  /** widget_config. */
  public sendWidgetConfig(config: Record<string, unknown>): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.WidgetConfig, config);
  }

  /** button_clicked (modal widgets). */
  public notifyModalWidgetButtonClicked(id: string): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.ButtonClicked, { id });
  }

  /** close_modal (to the widget that opened the modal). */
  public notifyModalWidgetClose(data: Record<string, unknown>): Promise<Readonly<Record<string, unknown>>> {
    return this.transport.send(ToWidgetAction.CloseModalWidget, data);
  }

  /** Resolves when queued update_state pushes are sent (for tests and orderly shutdown). */
  public statePushesSettled(): Promise<void> {
    return this.state.idle();
  }

  /** Stops serving the widget: listener removed, TURN polling stopped, timers cleared. */
  public stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearContentLoadedTimer();
    void this.turn.stop();
    this.transport.stop();
  }
}
