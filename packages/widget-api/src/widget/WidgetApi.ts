/**
 * The widget side for widget authors and Lattice's embedded mode: every
 * from-widget action of SPEC §7 as a method. Local checks mirror the host's
 * (matrix.to links, the close button), and actions an old client cannot
 * serve fail with 'The <action> action is not supported by the client'.
 */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import { UnstableApiVersion } from "../interfaces/ApiVersion";
import type { ModalButton } from "../interfaces/ModalActions";
import { MODAL_CLOSE_BUTTON_ID } from "../interfaces/ModalActions";
import { MATRIX_TO_PREFIX } from "../interfaces/NavigateAction";
import type { OpenIdCredentials } from "../interfaces/OpenIdAction";
import { OpenIdRequestState } from "../interfaces/OpenIdAction";
import type { ReadRelationsResponseData } from "../interfaces/ReadRelationsAction";
import type { RoomAccountData, RoomEvent } from "../interfaces/RoomEvent";
import type { SendEventResponseData } from "../interfaces/SendEventAction";
import type { TurnServer } from "../interfaces/TurnServerActions";
import type { UpdateDelayedEventActionKind } from "../interfaces/UpdateDelayedEventAction";
import type { UserDirectorySearchResponseData } from "../interfaces/UserDirectorySearchAction";
import { FromWidgetAction, ToWidgetAction } from "../interfaces/WidgetApiAction";
import { SHARED_MESSAGES, WidgetApiError } from "../util/errors";
import { isRecord } from "../util/narrow";
import { TurnWatchers } from "./TurnWatchers";
import { WidgetApiBase } from "./WidgetApiBase";

/** Errors raised locally by the widget side. */
export const WIDGET_ERRORS = {
  closeButton: "The close button cannot be disabled",
  invalidUri: SHARED_MESSAGES.invalidUri,
  declined: "User declined to verify their identity",
  missingDelayId: "Invalid response - missing delay_id",
  missingEventId: "Invalid response - missing event_id",
} as const;

/** Options of a room or state event send. */
export interface SendOptions {
  roomId?: string;
  delay?: number;
  parentDelayId?: string;
  stickyDurationMs?: number;
}

/** Options of read_events. */
export interface ReadOptions {
  limit?: number;
  msgtype?: string;
  stateKey?: string;
  roomIds?: string[] | "*";
  since?: string;
}

/** The widget side of the widget API. */
export class WidgetApi extends WidgetApiBase {
  private readonly turnWatchers = new TurnWatchers(this);

  /** content_loaded: tell the client we are ready (only when waitForIframeLoad is false). */
  public async sendContentLoaded(): Promise<void> {
    await this.transport.send(FromWidgetAction.ContentLoaded, {});
  }

  /** request_capabilities: ask for the capabilities queued since the negotiation. */
  public async updateRequestedCapabilities(capabilities?: readonly string[]): Promise<void> {
    if (capabilities) this.requestCapabilities(capabilities);
    await this.transport.send(FromWidgetAction.MSC2974RenegotiateCapabilities, {
      capabilities: capabilities ? [...capabilities] : this.pendingCapabilities(),
    });
  }

  private pendingCapabilities(): string[] {
    const approved = this.approvedCapabilities ?? [];
    const all: string[] = [];
    for (const c of this.requestedList()) if (!approved.includes(c)) all.push(c);
    return all;
  }

  /** get_openid: resolves with credentials, waiting for the user when the client asks them. */
  public requestOpenIdConnectToken(): Promise<OpenIdCredentials> {
    return new Promise((resolve, reject) => {
      const settle = (data: Readonly<Record<string, unknown>>): boolean => {
        if (data["state"] === OpenIdRequestState.Allowed) resolve(data as unknown as OpenIdCredentials);
        else if (data["state"] === OpenIdRequestState.Blocked)
          reject(new WidgetApiError(WIDGET_ERRORS.declined));
        else return false;
        return true;
      };
      let off: (() => void) | null = null;
      let requestId: string | null = null;
      const early: Readonly<Record<string, unknown>>[] = [];
      off = this.onAction(ToWidgetAction.OpenIdCredentials, (data) => {
        if (requestId === null) early.push(data);
        else if (data["original_request_id"] === requestId && settle(data)) off?.();
      });
      this.transport
        .sendWithId(FromWidgetAction.GetOpenIdCredentials, {})
        .then(({ id, body }) => {
          requestId = id;
          if (settle(body)) return off?.();
          if (body["state"] !== OpenIdRequestState.PendingUserConfirmation) {
            off?.();
            return reject(new WidgetApiError(`Invalid state: ${String(body["state"])}`));
          }
          for (const d of early) if (d["original_request_id"] === id && settle(d)) return off?.();
        })
        .catch((e: unknown) => {
          off?.();
          reject(e instanceof Error ? e : new WidgetApiError(String(e)));
        });
    });
  }

  /** m.sticker. */
  public async sendSticker(sticker: {
    name: string;
    description?: string;
    content: { url: string; info?: Record<string, unknown> };
  }): Promise<void> {
    await this.transport.send(FromWidgetAction.SendSticker, { ...sticker });
  }

  /** set_always_on_screen; resolves whether the client applied it. */
  public async setAlwaysOnScreen(value: boolean): Promise<boolean> {
    const r = await this.transport.send(FromWidgetAction.UpdateAlwaysOnScreen, { value });
    return r["success"] === true;
  }

  /** open_modal. */
  public async openModalWidget(
    url: string,
    name: string,
    buttons: ModalButton[] = [],
    data: Record<string, unknown> = {},
    type = "m.custom",
  ): Promise<void> {
    await this.transport.send(FromWidgetAction.OpenModalWidget, { type, url, name, buttons, data });
  }

  /** close_modal (from a modal widget). */
  public async closeModalWidget(data: Record<string, unknown> = {}): Promise<void> {
    await this.transport.send(FromWidgetAction.CloseModalWidget, data);
  }

  /** set_button_enabled; the close button cannot be disabled. */
  public async setModalButtonEnabled(button: string, enabled: boolean): Promise<void> {
    if (button === MODAL_CLOSE_BUTTON_ID) throw new WidgetApiError(WIDGET_ERRORS.closeButton);
    await this.transport.send(FromWidgetAction.SetModalButtonEnabled, { button, enabled });
  }

  /** navigate: only matrix.to links. */
  public async navigateTo(uri: string): Promise<void> {
    if (!uri.startsWith(MATRIX_TO_PREFIX)) throw new WidgetApiError(WIDGET_ERRORS.invalidUri);
    await this.transport.send(FromWidgetAction.MSC2931Navigate, { uri });
  }

  /** send_event for a room event. */
  public sendRoomEvent(
    type: string,
    content: Record<string, unknown>,
    options: SendOptions = {},
  ): Promise<SendEventResponseData> {
    return this.sendEvent(type, undefined, content, options);
  }

  /** send_event for a state event. */
  public sendStateEvent(
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
    options: SendOptions = {},
  ): Promise<SendEventResponseData> {
    return this.sendEvent(type, stateKey, content, options);
  }

  private async sendEvent(
    type: string,
    stateKey: string | undefined,
    content: Record<string, unknown>,
    o: SendOptions,
  ): Promise<SendEventResponseData> {
    const data: Record<string, unknown> = { type, content };
    if (stateKey !== undefined) data["state_key"] = stateKey;
    if (o.roomId !== undefined) data["room_id"] = o.roomId;
    if (o.delay !== undefined) data["delay"] = o.delay;
    if (o.parentDelayId !== undefined) data["parent_delay_id"] = o.parentDelayId;
    if (o.stickyDurationMs !== undefined) data["sticky_duration_ms"] = o.stickyDurationMs;
    const r = await this.transport.send(FromWidgetAction.SendEvent, data);
    // Delayed sends (a delay, or a parent delayed event: MSC4157) must answer with a delay_id, the others with an event_id.
    if (o.delay !== undefined || o.parentDelayId !== undefined) {
      if (typeof r["delay_id"] !== "string") throw new WidgetApiError(WIDGET_ERRORS.missingDelayId);
    } else if (typeof r["event_id"] !== "string") {
      throw new WidgetApiError(WIDGET_ERRORS.missingEventId);
    }
    return r as unknown as SendEventResponseData;
  }

  /** update_delayed_event. */
  public async updateDelayedEvent(delayId: string, action: UpdateDelayedEventActionKind): Promise<void> {
    await this.transport.send(FromWidgetAction.MSC4157UpdateDelayedEvent, { delay_id: delayId, action });
  }
  public cancelScheduledDelayedEvent(delayId: string): Promise<void> {
    return this.updateDelayedEvent(delayId, "cancel");
  }
  public restartScheduledDelayedEvent(delayId: string): Promise<void> {
    return this.updateDelayedEvent(delayId, "restart");
  }
  public sendScheduledDelayedEvent(delayId: string): Promise<void> {
    return this.updateDelayedEvent(delayId, "send");
  }

  /** send_to_device. */
  public async sendToDevice(
    type: string,
    encrypted: boolean,
    messages: Record<string, Record<string, Record<string, unknown>>>,
  ): Promise<void> {
    await this.transport.send(FromWidgetAction.SendToDevice, { type, encrypted, messages });
  }

  /** read_room_account_data. */
  public async readRoomAccountData(type: string): Promise<RoomAccountData[]> {
    const r = await this.transport.send(FromWidgetAction.ReadRoomAccountData, { type });
    return Array.isArray(r["events"]) ? (r["events"] as RoomAccountData[]) : [];
  }

  /** read_events for room events. */
  public readRoomEvents(type: string, o: Omit<ReadOptions, "stateKey"> = {}): Promise<RoomEvent[]> {
    return this.readEvents({ type, ...(o.msgtype !== undefined && { msgtype: o.msgtype }) }, o);
  }

  /** read_events for state events (any state key unless given). */
  public readStateEvents(type: string, o: Omit<ReadOptions, "msgtype" | "since"> = {}): Promise<RoomEvent[]> {
    return this.readEvents({ type, state_key: o.stateKey ?? true }, o);
  }

  private async readEvents(data: Record<string, unknown>, o: ReadOptions): Promise<RoomEvent[]> {
    if (o.limit !== undefined) data["limit"] = o.limit;
    if (o.roomIds !== undefined)
      data["room_ids"] = o.roomIds === "*" || o.roomIds.includes("*") ? "*" : o.roomIds;
    if (o.since !== undefined) data["since"] = o.since;
    const r = await this.transport.send(FromWidgetAction.MSC2876ReadEvents, data);
    return Array.isArray(r["events"]) ? (r["events"] as RoomEvent[]) : [];
  }

  /** read_relations. */
  public async readEventRelations(
    eventId: string,
    o: {
      roomId?: string;
      relType?: string;
      eventType?: string;
      from?: string;
      to?: string;
      limit?: number;
      direction?: "f" | "b";
    } = {},
  ): Promise<ReadRelationsResponseData> {
    await this.requireClientVersion(UnstableApiVersion.MSC3869, "read_relations");
    const r = await this.transport.send(FromWidgetAction.MSC3869ReadRelations, {
      event_id: eventId,
      ...(o.roomId !== undefined && { room_id: o.roomId }),
      ...(o.relType !== undefined && { rel_type: o.relType }),
      ...(o.eventType !== undefined && { event_type: o.eventType }),
      ...(o.from !== undefined && { from: o.from }),
      ...(o.to !== undefined && { to: o.to }),
      ...(o.limit !== undefined && { limit: o.limit }),
      ...(o.direction !== undefined && { direction: o.direction }),
    });
    return r as unknown as ReadRelationsResponseData;
  }

  /** user_directory_search. */
  public async searchUserDirectory(
    searchTerm: string,
    limit?: number,
  ): Promise<UserDirectorySearchResponseData> {
    await this.requireClientVersion(UnstableApiVersion.MSC3973, "user_directory_search");
    const r = await this.transport.send(FromWidgetAction.MSC3973UserDirectorySearch, {
      search_term: searchTerm,
      ...(limit !== undefined && { limit }),
    });
    return r as unknown as UserDirectorySearchResponseData;
  }

  /** get_media_config. */
  public async getMediaConfig(): Promise<Readonly<Record<string, unknown>>> {
    await this.requireClientVersion(UnstableApiVersion.MSC4039, "get_media_config");
    return this.transport.send(FromWidgetAction.MSC4039GetMediaConfig, {});
  }

  /** upload_file; resolves the mxc URI. */
  public async uploadFile(file: unknown): Promise<{ content_uri: string }> {
    await this.requireClientVersion(UnstableApiVersion.MSC4039, "upload_file");
    const r = await this.transport.send(FromWidgetAction.MSC4039UploadFile, { file });
    if (typeof r["content_uri"] !== "string")
      throw new WidgetApiError("Invalid response - missing content_uri");
    return { content_uri: r["content_uri"] };
  }

  /** download_file. */
  public async downloadFile(contentUri: string): Promise<{ file: unknown }> {
    await this.requireClientVersion(UnstableApiVersion.MSC4039, "download_file");
    const r = await this.transport.send(FromWidgetAction.MSC4039DownloadFile, { content_uri: contentUri });
    return { file: r["file"] };
  }

  /** get_rtc_transports. */
  public async getRtcTransports(): Promise<Record<string, unknown>[]> {
    await this.requireClientVersion(UnstableApiVersion.MSC4515, "get_rtc_transports");
    const r = await this.transport.send(FromWidgetAction.MSC4515GetRtcTransports, {});
    return Array.isArray(r["rtc_transports"])
      ? (r["rtc_transports"] as unknown[]).filter(isRecord).map((t) => ({ ...t }))
      : [];
  }

  /**
   * TURN servers as they change. The first watcher sends watch_turn_servers;
   * the last one to stop (break out of the loop) sends unwatch_turn_servers.
   */
  public getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    return this.turnWatchers.watch();
  }

  /** True when the TURN capability was granted. */
  public canUseTurn(): boolean {
    return this.hasCapability(MatrixCapabilities.MSC3846TurnServers);
  }
}
