/**
 * The web app's WidgetDriver (@lattice/widget-api) on the SDK client: the
 * work behind every widget action of SPEC §7, for one widget in one room
 * (or an account widget, roomId null). The ClientWidgetApi has already
 * validated each request and checked the approved capabilities; this class
 * does the Matrix side and asks the session (WidgetDriverHooks) wherever
 * the user decides: capabilities, OpenID, navigation, always-on-screen and
 * modals. The work itself lives in driver/*.ts, one file per family.
 *
 * The access token never crosses: nothing here returns a request, a URL
 * with a token or an HTTP client to the widget, only event data, mxc URIs,
 * bytes, and the OpenID token the user allowed.
 */
import type {
  OpenIdObserver,
  OpenModalRequestData,
  RelationsResult,
  RoomAccountData,
  RoomEvent,
  SendEventOptions,
  SentEvent,
  TurnServer,
  UpdateDelayedEventActionKind,
  UserDirectorySearchResult,
  WidgetDefinition,
  WidgetDriver,
} from "@lattice/widget-api";
import { createTxnIdGenerator } from "../../sdk";
import type { DriverContext, WidgetClient } from "./driver/context";
import * as reads from "./driver/reads";
import * as sends from "./driver/sends";
import * as services from "./driver/services";
import { sendToDevice } from "./driver/toDevice";

export type { WidgetClient } from "./driver/context";

/** Where the driver asks the user (the WidgetSession implements these). */
export interface WidgetDriverHooks {
  /** Which of the requested capabilities to grant (remembered choice, pre-approval or the dialog). */
  approveCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>>;
  /**
   * Whether the widget may have an OpenID token: "allowed" or "blocked".
   * `pending` is called first when the user must be asked.
   */
  askOpenId(pending: () => void): Promise<"allowed" | "blocked">;
  /** Opens a matrix.to link in the app (the host checked it starts with https://matrix.to/#/). */
  navigate(uri: string): Promise<void>;
  /** Pins or unpins the widget; returns whether it was applied. */
  setAlwaysOnScreen(value: boolean): boolean;
  /** Opens a modal widget on behalf of this widget. */
  openModal(request: OpenModalRequestData): void;
  /** This (modal) widget asks to close, handing `data` to its opener. */
  closeModal(data: Record<string, unknown>): void;
  /** This (modal) widget enables or disables one of its buttons. */
  setModalButtonEnabled(button: string, enabled: boolean): void;
  /** The room the user views now (account widgets act there). */
  viewedRoomId(): string | null;
}

/** How to build a driver. */
export interface SdkWidgetDriverOptions {
  client: WidgetClient;
  /** The widget's room; null for an account widget (sticker picker, modal opened from one). */
  roomId: string | null;
  widget: WidgetDefinition;
  hooks: WidgetDriverHooks;
}

/** The WidgetDriver of the web app. */
export class SdkWidgetDriver implements WidgetDriver {
  private readonly ctx: DriverContext;
  private readonly hooks: WidgetDriverHooks;
  private readonly ended = new AbortController();

  constructor(options: SdkWidgetDriverOptions) {
    this.hooks = options.hooks;
    const txn = createTxnIdGenerator();
    this.ctx = {
      client: options.client,
      roomId: options.roomId,
      viewedRoomId: () => options.hooks.viewedRoomId(),
      txnId: () => `widget.${txn()}`,
      closed: this.ended.signal,
    };
  }

  /** The widget's session ended: background work for it stops. */
  dispose(): void {
    this.ended.abort();
  }

  /** The room this widget lives in (null for account widgets). */
  get roomId(): string | null {
    return this.ctx.roomId;
  }

  validateCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    return this.hooks.approveCapabilities(requested);
  }

  sendEvent(
    type: string,
    content: Record<string, unknown>,
    stateKey: string | null,
    options: SendEventOptions,
  ): Promise<SentEvent> {
    return sends.sendEvent(this.ctx, type, content, stateKey, options);
  }

  updateDelayedEvent(delayId: string, action: UpdateDelayedEventActionKind): Promise<void> {
    return sends.updateDelayedEvent(this.ctx, delayId, action);
  }

  sendToDevice(
    type: string,
    encrypted: boolean,
    messages: Record<string, Record<string, Record<string, unknown>>>,
  ): Promise<void> {
    return sendToDevice(this.ctx, type, encrypted, messages);
  }

  /** Asks the session; reports "request" while the user decides, then allowed (with a token) or blocked. */
  askOpenId(observer: OpenIdObserver): void {
    this.hooks
      .askOpenId(() => observer.update({ state: "request" }))
      .then(async (decision) => {
        if (decision === "blocked") {
          observer.update({ state: "blocked" });
          return;
        }
        observer.update({ state: "allowed", token: await services.openIdToken(this.ctx) });
      })
      .catch(() => observer.update({ state: "blocked" }));
  }

  navigate(uri: string): Promise<void> {
    return this.hooks.navigate(uri);
  }

  readRoomTimeline(
    roomId: string,
    type: string,
    msgtype: string | undefined,
    stateKey: string | undefined,
    limit: number,
    since: string | undefined,
  ): Promise<RoomEvent[]> {
    return reads.readRoomTimeline(this.ctx, roomId, type, msgtype, stateKey, limit, since);
  }

  readRoomState(roomId: string, type: string, stateKey: string | undefined): Promise<RoomEvent[]> {
    return reads.readRoomState(this.ctx, roomId, type, stateKey);
  }

  readRoomAccountData(type: string): Promise<RoomAccountData[]> {
    return reads.readRoomAccountData(this.ctx, type);
  }

  readEventRelations(
    eventId: string,
    roomId: string | undefined,
    relType: string | undefined,
    eventType: string | undefined,
    from: string | undefined,
    to: string | undefined,
    limit: number | undefined,
    direction: "f" | "b" | undefined,
  ): Promise<RelationsResult> {
    return reads.readEventRelations(
      this.ctx,
      eventId,
      roomId,
      relType,
      eventType,
      from,
      to,
      limit,
      direction,
    );
  }

  searchUserDirectory(term: string, limit: number | undefined): Promise<UserDirectorySearchResult> {
    return services.searchUserDirectory(this.ctx, term, limit);
  }

  getMediaConfig(): Promise<Record<string, unknown>> {
    return services.getMediaConfig(this.ctx);
  }

  uploadFile(file: unknown): Promise<{ contentUri: string }> {
    return services.uploadFile(this.ctx, file);
  }

  downloadFile(contentUri: string): Promise<{ file: unknown }> {
    return services.downloadFile(this.ctx, contentUri);
  }

  getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    return services.turnServers(this.ctx);
  }

  /** Joined rooms (for "any room" timeline capabilities). */
  getKnownRooms(): string[] {
    const out: string[] = [];
    for (const [roomId, room] of this.ctx.client.rooms.all.getSnapshot()) {
      if (room.getSnapshot().category === "join") out.push(roomId);
    }
    return out;
  }

  processError(error: unknown): Record<string, unknown> | undefined {
    return services.processError(error);
  }

  sendSticker(content: Record<string, unknown>): Promise<void> {
    return sends.sendSticker(this.ctx, content);
  }

  setAlwaysOnScreen(value: boolean): Promise<boolean> {
    return Promise.resolve(this.hooks.setAlwaysOnScreen(value));
  }

  openModal(request: OpenModalRequestData): Promise<void> {
    this.hooks.openModal(request);
    return Promise.resolve();
  }

  closeModal(data: Record<string, unknown>): Promise<void> {
    this.hooks.closeModal(data);
    return Promise.resolve();
  }

  setModalButtonEnabled(button: string, enabled: boolean): Promise<void> {
    this.hooks.setModalButtonEnabled(button, enabled);
    return Promise.resolve();
  }

  getRtcTransports(): Promise<Record<string, unknown>[]> {
    return services.rtcTransports(this.ctx);
  }
}
