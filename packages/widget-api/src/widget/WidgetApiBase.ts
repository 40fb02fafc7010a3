/**
 * The widget side's core (WidgetApi-style): the transport to the parent
 * window, capability requests and the one-time negotiation, the client's
 * API versions, and answers to to-widget requests. The request methods for
 * widget authors live in WidgetApi, which extends this.
 */
import {
  roomAccountDataCapability,
  roomEventCapability,
  roomMessageCapability,
  stateEventCapability,
  toDeviceCapability,
} from "../capabilities/EventCapability";
import { timelineCapability } from "../capabilities/MatrixCapabilities";
import { CURRENT_API_VERSIONS, UnstableApiVersion } from "../interfaces/ApiVersion";
import { ToWidgetAction } from "../interfaces/WidgetApiAction";
import type { WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import { PostMessageTransport } from "../transport/PostMessageTransport";
import type { MessageInbox, PostTarget } from "../transport/windows";
import type { Clock, Logger } from "../util/clock";
import { consoleLogger } from "../util/clock";
import { Emitter } from "../util/Emitter";
import { WidgetApiError } from "../util/errors";
import { isRecord, isStringArray } from "../util/narrow";
import { LIFECYCLE_ERRORS, unknownAction } from "../host/lifecycle";

/** Answers one to-widget action; the returned body is the reply ({} when undefined). */
export type ToWidgetHandler = (
  data: Readonly<Record<string, unknown>>,
  request: WidgetApiRequest,
) => Readonly<Record<string, unknown>> | void | Promise<Readonly<Record<string, unknown>> | void>;

/** Events of the widget side. */
export interface WidgetApiEvents {
  [key: string]: unknown;
  /** Capabilities settled (after notify_capabilities on clients that send it). */
  ready: undefined;
  /** Every to-widget request, before it is answered. */
  action: WidgetApiRequest;
}

/** How to build the widget side. */
export interface WidgetApiOptions {
  /** Widget id; defaults to null, learnt from the client's first request. */
  widgetId?: string | null;
  /** The client window (window.parent). */
  parentWindow: PostTarget;
  /** Our own window. */
  selfWindow: MessageInbox;
  /** The client's origin. When set, we post only there and accept only from there; otherwise "*". */
  clientOrigin?: string;
  clock?: Clock;
  logger?: Logger;
  timeoutMs?: number;
}

/** Actions a widget acknowledges without a handler. */
const ACKED = new Set<string>([
  ToWidgetAction.ThemeChange,
  ToWidgetAction.LanguageChange,
  ToWidgetAction.UpdateVisibility,
  ToWidgetAction.WidgetConfig,
  ToWidgetAction.ButtonClicked,
  ToWidgetAction.CloseModalWidget,
  ToWidgetAction.SendEvent,
  ToWidgetAction.SendToDevice,
  ToWidgetAction.UpdateState,
  ToWidgetAction.UpdateTurnServers,
  ToWidgetAction.OpenIdCredentials,
]);

/** Core of the widget side. */
export class WidgetApiBase extends Emitter<WidgetApiEvents> {
  public readonly transport: PostMessageTransport;
  protected readonly logger: Logger;
  private readonly requested: string[] = [];
  private approved: string[] | null = null;
  private negotiated = false;
  private clientVersions: Promise<string[]> | null = null;
  private readonly handlers = new Map<string, Set<ToWidgetHandler>>();

  public constructor(opts: WidgetApiOptions) {
    super();
    this.logger = opts.logger ?? consoleLogger;
    this.transport = new PostMessageTransport({
      sendDirection: "fromWidget",
      widgetId: opts.widgetId ?? null,
      target: opts.parentWindow,
      targetOrigin: opts.clientOrigin ?? "*",
      inbox: opts.selfWindow,
      acceptSource: opts.parentWindow,
      acceptOrigin: opts.clientOrigin,
      clock: opts.clock,
      logger: this.logger,
      timeoutMs: opts.timeoutMs,
    });
    this.transport.onRequest = (r) => this.handleRequest(r);
  }

  /** Starts listening and asks the client for its versions. */
  public start(): void {
    this.transport.start();
    if (this.transport.widgetId !== null) void this.getClientVersions();
  }

  /** Stops listening. */
  public stop(): void {
    this.transport.stop();
  }

  /** True when the capability was approved (or, before notify_capabilities, requested). */
  public hasCapability(capability: string): boolean {
    return (this.approved ?? this.requested).includes(capability);
  }

  /** Capabilities requested so far. */
  protected requestedList(): readonly string[] {
    return this.requested;
  }

  /** Approved capabilities, once the client said. */
  public get approvedCapabilities(): readonly string[] | null {
    return this.approved;
  }

  /** Queues a capability for the negotiation (or the next renegotiation). */
  public requestCapability(capability: string): void {
    if (!this.requested.includes(capability)) this.requested.push(capability);
  }

  /** Queues several capabilities. */
  public requestCapabilities(capabilities: readonly string[]): void {
    for (const c of capabilities) this.requestCapability(c);
  }

  /** Timeline capability for a room, or any room with "*". */
  public requestCapabilityForRoomTimeline(roomId: string): void {
    this.requestCapability(timelineCapability(roomId));
  }
  public requestCapabilityToSendState(eventType: string, stateKey?: string): void {
    this.requestCapability(stateEventCapability("send", eventType, stateKey));
  }
  public requestCapabilityToReceiveState(eventType: string, stateKey?: string): void {
    this.requestCapability(stateEventCapability("receive", eventType, stateKey));
  }
  public requestCapabilityToSendEvent(eventType: string): void {
    this.requestCapability(roomEventCapability("send", eventType));
  }
  public requestCapabilityToReceiveEvent(eventType: string): void {
    this.requestCapability(roomEventCapability("receive", eventType));
  }
  public requestCapabilityToSendMessage(msgtype?: string): void {
    this.requestCapability(roomMessageCapability("send", msgtype));
  }
  public requestCapabilityToReceiveMessage(msgtype?: string): void {
    this.requestCapability(roomMessageCapability("receive", msgtype));
  }
  public requestCapabilityToSendToDevice(eventType: string): void {
    this.requestCapability(toDeviceCapability("send", eventType));
  }
  public requestCapabilityToReceiveToDevice(eventType: string): void {
    this.requestCapability(toDeviceCapability("receive", eventType));
  }
  public requestCapabilityToReceiveRoomAccountData(eventType: string): void {
    this.requestCapability(roomAccountDataCapability(eventType));
  }

  /** Registers an answer to a to-widget action; returns the unsubscribe function. */
  public onAction(action: string, handler: ToWidgetHandler): () => void {
    let set = this.handlers.get(action);
    if (!set) {
      set = new Set();
      this.handlers.set(action, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** The client's API versions (asked once, cached on success; [] when it cannot say). */
  public getClientVersions(): Promise<string[]> {
    if (!this.clientVersions) {
      const asked = this.transport.send(ToWidgetAction.SupportedApiVersions, {}).then((r) => {
        const v = r["supported_versions"];
        return isStringArray(v) ? v : [];
      });
      this.clientVersions = asked;
      asked.catch(() => {
        if (this.clientVersions === asked) this.clientVersions = null;
      });
    }
    return this.clientVersions.catch((e: unknown) => {
      this.logger.warn("widget api: could not get client versions", e);
      return [];
    });
  }

  /** Throws 'The <name> action is not supported by the client' when the client lacks `version`. */
  protected async requireClientVersion(version: string, name: string): Promise<void> {
    if (!(await this.getClientVersions()).includes(version)) {
      throw new WidgetApiError(`The ${name} action is not supported by the client`);
    }
  }

  private handleRequest(request: WidgetApiRequest): void {
    this.emit("action", request);
    this.answer(request).then(
      (body) => this.transport.reply(request, body),
      (e: unknown) => this.transport.replyError(request, e instanceof Error ? e.message : String(e)),
    );
  }

  private async answer(request: WidgetApiRequest): Promise<Readonly<Record<string, unknown>>> {
    switch (request.action) {
      case ToWidgetAction.SupportedApiVersions:
        return { supported_versions: [...CURRENT_API_VERSIONS] };
      case ToWidgetAction.Capabilities:
        return this.answerCapabilities();
      case ToWidgetAction.NotifyCapabilities: {
        const approved = isRecord(request.data) ? request.data["approved"] : undefined;
        if (isStringArray(approved)) this.approved = [...approved];
        await this.runHandlers(request);
        this.emit("ready", undefined);
        return {};
      }
      default: {
        const handled = await this.runHandlers(request);
        if (handled) return handled;
        if (ACKED.has(request.action)) return {};
        throw new WidgetApiError(unknownAction(request.action));
      }
    }
  }

  private async runHandlers(request: WidgetApiRequest): Promise<Readonly<Record<string, unknown>> | null> {
    const set = this.handlers.get(request.action);
    if (!set || set.size === 0) return null;
    let body: Readonly<Record<string, unknown>> = {};
    for (const handler of [...set]) {
      const r = await handler(request.data, request);
      if (r) body = r;
    }
    return body;
  }

  private async answerCapabilities(): Promise<Readonly<Record<string, unknown>>> {
    if (this.negotiated) throw new WidgetApiError(LIFECYCLE_ERRORS.negotiationCompleted);
    this.negotiated = true;
    const versions = await this.getClientVersions();
    // Clients without MSC2871 never send notify_capabilities: we are as ready as we get.
    if (!versions.includes(UnstableApiVersion.MSC2871)) queueMicrotask(() => this.emit("ready", undefined));
    return { capabilities: [...this.requested] };
  }
}
