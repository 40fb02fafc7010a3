/**
 * The web app's WidgetDriver (@lattice/widget-api) on the SDK client: the
 * work behind every widget action of SPEC §7, for one widget in one room
 * (or an account widget, roomId null). The ClientWidgetApi has already
 * validated each request and checked the approved capabilities; this class
 * does the Matrix side and asks the session (WidgetDriverHooks) wherever
 * the user decides: capabilities, OpenID, navigation, always-on-screen and
 * modals. The work itself lives in driver/*.ts, one file per family, so
 * each stays small.
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
import type { Client } from "../../sdk";
import { notYet } from "./errors";

/** The parts of the SDK client a widget driver uses. */
export type WidgetClient = Pick<
  Client,
  | "userId"
  | "deviceId"
  | "http"
  | "rooms"
  | "sendQueue"
  | "crypto"
  | "accountData"
  | "voip"
  | "rtc"
  | "onToDevice"
  | "versions"
  | "serverFeatures"
>;

/** Where the driver asks the user (the WidgetSession implements these). */
export interface WidgetDriverHooks {
  /** Which of the requested capabilities to grant (remembered choice, pre-approval or the dialog). */
  approveCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>>;
  /**
   * Whether the widget may have an OpenID token: "allowed" or "blocked".
   * `pending` is called first when the user must be asked.
   */
  askOpenId(pending: () => void): Promise<"allowed" | "blocked">;
  /** Opens a matrix.to link in the app (already checked to start with https://matrix.to/#/). */
  navigate(uri: string): Promise<void>;
  /** Pins or unpins the widget; returns whether it was applied. */
  setAlwaysOnScreen(value: boolean): boolean;
  /** Opens a modal widget on behalf of this widget. */
  openModal(request: OpenModalRequestData): void;
  /** This (modal) widget asks to close, handing `data` to its opener. */
  closeModal(data: Record<string, unknown>): void;
  /** This (modal) widget enables or disables one of its buttons. */
  setModalButtonEnabled(button: string, enabled: boolean): void;
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
  constructor(private readonly options: SdkWidgetDriverOptions) {}

  /** The room this widget lives in (null for account widgets). */
  get roomId(): string | null {
    return this.options.roomId;
  }

  validateCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    return this.options.hooks.approveCapabilities(requested);
  }

  sendEvent(
    _type: string,
    _content: Record<string, unknown>,
    _stateKey: string | null,
    _options: SendEventOptions,
  ): Promise<SentEvent> {
    return Promise.reject(notYet("sendEvent"));
  }

  updateDelayedEvent(_delayId: string, _action: UpdateDelayedEventActionKind): Promise<void> {
    return Promise.reject(notYet("updateDelayedEvent"));
  }

  sendToDevice(
    _type: string,
    _encrypted: boolean,
    _messages: Record<string, Record<string, Record<string, unknown>>>,
  ): Promise<void> {
    return Promise.reject(notYet("sendToDevice"));
  }

  askOpenId(observer: OpenIdObserver): void {
    observer.update({ state: "blocked" });
  }

  navigate(uri: string): Promise<void> {
    return this.options.hooks.navigate(uri);
  }

  readRoomTimeline(
    _roomId: string,
    _type: string,
    _msgtype: string | undefined,
    _stateKey: string | undefined,
    _limit: number,
    _since: string | undefined,
  ): Promise<RoomEvent[]> {
    return Promise.reject(notYet("readRoomTimeline"));
  }

  readRoomState(_roomId: string, _type: string, _stateKey: string | undefined): Promise<RoomEvent[]> {
    return Promise.reject(notYet("readRoomState"));
  }

  readRoomAccountData(_type: string): Promise<RoomAccountData[]> {
    return Promise.reject(notYet("readRoomAccountData"));
  }

  readEventRelations(
    _eventId: string,
    _roomId: string | undefined,
    _relType: string | undefined,
    _eventType: string | undefined,
    _from: string | undefined,
    _to: string | undefined,
    _limit: number | undefined,
    _direction: "f" | "b" | undefined,
  ): Promise<RelationsResult> {
    return Promise.reject(notYet("readEventRelations"));
  }

  searchUserDirectory(_term: string, _limit: number | undefined): Promise<UserDirectorySearchResult> {
    return Promise.reject(notYet("searchUserDirectory"));
  }

  getMediaConfig(): Promise<Record<string, unknown>> {
    return Promise.reject(notYet("getMediaConfig"));
  }

  uploadFile(_file: unknown): Promise<{ contentUri: string }> {
    return Promise.reject(notYet("uploadFile"));
  }

  downloadFile(_contentUri: string): Promise<{ file: unknown }> {
    return Promise.reject(notYet("downloadFile"));
  }

  getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    throw notYet("getTurnServers");
  }

  getKnownRooms(): string[] {
    return [];
  }

  processError(_error: unknown): Record<string, unknown> | undefined {
    return undefined;
  }

  sendSticker(_content: Record<string, unknown>): Promise<void> {
    return Promise.reject(notYet("sendSticker"));
  }

  setAlwaysOnScreen(value: boolean): Promise<boolean> {
    return Promise.resolve(this.options.hooks.setAlwaysOnScreen(value));
  }

  openModal(request: OpenModalRequestData): Promise<void> {
    this.options.hooks.openModal(request);
    return Promise.resolve();
  }

  closeModal(data: Record<string, unknown>): Promise<void> {
    this.options.hooks.closeModal(data);
    return Promise.resolve();
  }

  setModalButtonEnabled(button: string, enabled: boolean): Promise<void> {
    this.options.hooks.setModalButtonEnabled(button, enabled);
    return Promise.resolve();
  }

  getRtcTransports(): Promise<Record<string, unknown>[]> {
    return Promise.reject(notYet("getRtcTransports"));
  }
}
