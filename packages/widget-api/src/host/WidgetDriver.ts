/**
 * The WidgetDriver: everything the host needs from the client to serve a
 * widget. The host validates each request and checks capabilities before it
 * calls the driver, so a driver only does the work. The default driver
 * grants no capabilities and blocks OpenID (SPEC §6).
 */
import type { OpenIdCredentials, OpenIdRequestStateName } from "../interfaces/OpenIdAction";
import type { RoomAccountData, RoomEvent } from "../interfaces/RoomEvent";
import type { TurnServer } from "../interfaces/TurnServerActions";
import type { UpdateDelayedEventActionKind } from "../interfaces/UpdateDelayedEventAction";
import type { ModalButton, OpenModalRequestData } from "../interfaces/ModalActions";
import { WidgetApiError } from "../util/errors";

/** Result of a send: an event id, or a delay id for delayed events. */
export interface SentEvent {
  roomId: string;
  eventId?: string;
  delayId?: string;
}

/** An OpenID state update from the driver. */
export interface OpenIdUpdate {
  state: OpenIdRequestStateName;
  token?: OpenIdCredentials;
}

/** What askOpenId reports to: call update once or twice (pending, then final). */
export interface OpenIdObserver {
  update(update: OpenIdUpdate): void;
}

/** Relations page as the driver returns it. */
export interface RelationsResult {
  chunk: RoomEvent[];
  prevBatch?: string;
  nextBatch?: string;
}

/** User directory search result as the driver returns it. */
export interface UserDirectorySearchResult {
  limited: boolean;
  results: { userId: string; displayName?: string; avatarUrl?: string }[];
}

/** Options of a send_event the driver receives. */
export interface SendEventOptions {
  roomId?: string;
  /** Delayed event (MSC4157): delay in ms. */
  delay?: number;
  parentDelayId?: string;
  /** Sticky event (MSC4407): lifetime in ms. */
  stickyDurationMs?: number;
}

/** The client side of a widget. */
export interface WidgetDriver {
  /** Decides which of the requested capabilities to grant (may prompt the user). */
  validateCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>>;
  /** Sends a room or state event (stateKey null for a room event). */
  sendEvent(
    type: string,
    content: Record<string, unknown>,
    stateKey: string | null,
    options: SendEventOptions,
  ): Promise<SentEvent>;
  /** Cancels, restarts or sends a delayed event now. */
  updateDelayedEvent(delayId: string, action: UpdateDelayedEventActionKind): Promise<void>;
  /** Sends to-device messages: user id -> device id -> content. */
  sendToDevice(
    type: string,
    encrypted: boolean,
    messages: Record<string, Record<string, Record<string, unknown>>>,
  ): Promise<void>;
  /** Runs the OpenID flow, reporting states to the observer. */
  askOpenId(observer: OpenIdObserver): void;
  /** Opens a matrix.to link. */
  navigate(uri: string): Promise<void>;
  /** Reads timeline events of a room (stateKey set: state events in the timeline). */
  readRoomTimeline(
    roomId: string,
    type: string,
    msgtype: string | undefined,
    stateKey: string | undefined,
    limit: number,
    since: string | undefined,
  ): Promise<RoomEvent[]>;
  /** Reads current room state of a type (all keys when stateKey is undefined). */
  readRoomState(roomId: string, type: string, stateKey: string | undefined): Promise<RoomEvent[]>;
  /** Reads room account data of a type. */
  readRoomAccountData(type: string): Promise<RoomAccountData[]>;
  /** Reads relations of an event. */
  readEventRelations(
    eventId: string,
    roomId: string | undefined,
    relType: string | undefined,
    eventType: string | undefined,
    from: string | undefined,
    to: string | undefined,
    limit: number | undefined,
    direction: "f" | "b" | undefined,
  ): Promise<RelationsResult>;
  /** Searches the user directory. */
  searchUserDirectory(term: string, limit: number | undefined): Promise<UserDirectorySearchResult>;
  /** The homeserver's media config. */
  getMediaConfig(): Promise<Record<string, unknown>>;
  /** Uploads a file; returns its mxc URI. */
  uploadFile(file: unknown): Promise<{ contentUri: string }>;
  /** Downloads a file. */
  downloadFile(contentUri: string): Promise<{ file: unknown }>;
  /** TURN servers: the first value now, later values as they change; return() stops. */
  getTurnServers(): AsyncGenerator<TurnServer, void, void>;
  /** Rooms the user is in (for "any room" timeline capabilities). */
  getKnownRooms(): string[];
  /** Extra fields to pass to the widget with a driver error (for example a Matrix errcode). */
  processError(error: unknown): Record<string, unknown> | undefined;
  /** Sends a sticker to the viewed room. */
  sendSticker(content: Record<string, unknown>): Promise<void>;
  /** Pins or unpins the widget on screen; resolves whether it was applied. */
  setAlwaysOnScreen(value: boolean): Promise<boolean>;
  /** Opens a modal widget on behalf of the widget. */
  openModal(request: OpenModalRequestData): Promise<void>;
  /** Closes this modal widget, returning data to its opener. */
  closeModal(data: Record<string, unknown>): Promise<void>;
  /** Enables or disables a modal button (never m.close: the host refuses that first). */
  setModalButtonEnabled(button: ModalButton["id"], enabled: boolean): Promise<void>;
  /** RTC transports (MSC4515). */
  getRtcTransports(): Promise<Record<string, unknown>[]>;
}

const unsupported = (): Promise<never> =>
  Promise.reject(new WidgetApiError("Not supported by the default widget driver"));

/**
 * The default driver: grants no capabilities and blocks OpenID. Every other
 * call fails, which the host never reaches for lack of capabilities.
 */
export class DefaultWidgetDriver implements WidgetDriver {
  public validateCapabilities(): Promise<ReadonlySet<string>> {
    return Promise.resolve(new Set());
  }
  public askOpenId(observer: OpenIdObserver): void {
    observer.update({ state: "blocked" });
  }
  public getKnownRooms(): string[] {
    return [];
  }
  public processError(): undefined {
    return undefined;
  }
  public async *getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    // No TURN servers: an immediately finished generator.
  }
  public sendEvent = unsupported;
  public updateDelayedEvent = unsupported;
  public sendToDevice = unsupported;
  public navigate = unsupported;
  public readRoomTimeline = unsupported;
  public readRoomState = unsupported;
  public readRoomAccountData = unsupported;
  public readEventRelations = unsupported;
  public searchUserDirectory = unsupported;
  public getMediaConfig = unsupported;
  public uploadFile = unsupported;
  public downloadFile = unsupported;
  public sendSticker = unsupported;
  public setAlwaysOnScreen = unsupported;
  public openModal = unsupported;
  public closeModal = unsupported;
  public setModalButtonEnabled = unsupported;
  public getRtcTransports = unsupported;
}
