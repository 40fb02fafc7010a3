/**
 * A widget host for the embedded client's Node tests: our ClientWidgetApi
 * with a driver over a real homeserver connection (the host's own token,
 * never the widget's), in paired in-memory windows like widget-api's
 * tests. The driver runs its own /sync loop and feeds each event of the
 * granted room to the widget, the way a host client does, and its own
 * device's to-device messages; reads deeper than what it synced page back
 * the server's /messages, up to `maxRead` events a read (the host's own
 * limit). Media and relations go to the server. It grants MSC4157 delayed
 * events only when its server advertises MSC4140 in /versions (a host
 * cannot offer what its server lacks: Synapse 1.67 would send a "delayed"
 * event at once), and passes the server's errors on in `matrix_api_error`.
 * Knobs make it refuse encrypted to-device, hold replies (time-outs), grant
 * less, or cap reads.
 */
import { ClientWidgetApi, DefaultWidgetDriver, MatrixCapabilities, WidgetApi } from "@lattice/widget-api";
import type {
  OpenIdObserver,
  RoomEvent,
  SendEventOptions,
  SentEvent,
  TurnServer,
  UpdateDelayedEventActionKind,
  WidgetDriver,
} from "@lattice/widget-api";
import { embed, FakeWindow } from "@lattice/widget-api/test/fakeWindows";
import { createHttpClient } from "../../src/http/client";
import type { HttpApi } from "../../src/http/types";
import { MatrixError } from "../../src/http/errors";
import { getVersions } from "../../src/api/versions";
import { sendEvent, sendStateEvent } from "../../src/api/send";
import { sendDelayedEvent, sendDelayedStateEvent, updateDelayedEvent } from "../../src/api/delayed-events";
import { sendToDevice } from "../../src/api/to-device";
import { sync } from "../../src/api/sync";
import { messages } from "../../src/api/timeline";
import { relations } from "../../src/api/relations";
import { downloadContent, getMediaConfig, uploadContent } from "../../src/api/media";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { TO_DEVICE_UNSUPPORTED } from "../../src/rtc/constants";

export const HOST_ORIGIN = "http://127.0.0.1:7000";
export const WIDGET_ORIGIN = "http://127.0.0.1:7001";

let txn = 0;
const nextTxn = (): string => `host-${Date.now()}-${++txn}`;

/** The host's connection and what it has seen of the room. */
export class HomeserverDriver implements WidgetDriver {
  private readonly base = new DefaultWidgetDriver();
  public navigate = this.base.navigate;
  public readRoomAccountData = this.base.readRoomAccountData;
  public searchUserDirectory = this.base.searchUserDirectory;
  public sendSticker = this.base.sendSticker;
  public setAlwaysOnScreen = this.base.setAlwaysOnScreen;
  public openModal = this.base.openModal;
  public closeModal = this.base.closeModal;
  public setModalButtonEnabled = this.base.setModalButtonEnabled;
  public refuseEncryptedToDevice = false;
  /** Capabilities the host will not grant. */
  public deny = new Set<string>();
  public readonly toDeviceSent: Array<{ type: string; encrypted: boolean }> = [];
  /** The most events one read answers (a host's own cap). */
  public maxRead = Number.POSITIVE_INFINITY;
  /** The limits the widget's reads asked for, in order. */
  public readonly readLimits: number[] = [];
  /** Whether state events are also pushed as timeline events (send_event); off, update_state alone carries them. */
  public stateInTimeline = true;
  /** How many /messages pages the host read to answer reads deeper than it synced. */
  public pagesRead = 0;
  private readonly timeline: ClientEventWithoutRoomId[] = [];
  /** Where /messages goes on back from (the first sync's prev_batch); null at the room's start. */
  private backToken: string | null | undefined;
  private paging: Promise<void> = Promise.resolve();
  private readonly state = new Map<string, ClientEventWithoutRoomId>();
  private readonly stopped = new AbortController();
  private synced: () => void = () => undefined;
  /** Resolves once the host's first /sync is in: reads wait for it, as a host shows a room only once loaded. */
  private readonly firstSync = new Promise<void>((resolve) => (this.synced = resolve));
  public host: ClientWidgetApi | null = null;

  public constructor(
    public readonly http: HttpApi,
    public readonly roomId: string,
  ) {}

  public async validateCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    const versions = await getVersions(this.http);
    const delayed = versions.unstable_features?.["org.matrix.msc4140"] === true;
    const delayedCaps: string[] = [
      MatrixCapabilities.MSC4157SendDelayedEvent,
      MatrixCapabilities.MSC4157UpdateDelayedEvent,
    ];
    return new Set([...requested].filter((c) => !this.deny.has(c) && (delayed || !delayedCaps.includes(c))));
  }

  public getKnownRooms(): string[] {
    return [this.roomId];
  }

  public processError(error: unknown): Record<string, unknown> | undefined {
    if (error instanceof MatrixError)
      return {
        reason: error.message,
        matrix_api_error: {
          http_status: error.httpStatus,
          response: { errcode: error.errcode, error: error.error },
        },
      };
    return error instanceof Error ? { reason: error.message } : undefined;
  }

  public sendEvent = async (
    type: string,
    content: Record<string, unknown>,
    stateKey: string | null,
    o: SendEventOptions,
  ): Promise<SentEvent> => {
    const roomId = o.roomId ?? this.roomId;
    if (o.delay !== undefined) {
      const delay = { delayMs: o.delay, ...(o.parentDelayId ? { parentDelayId: o.parentDelayId } : {}) };
      const r =
        stateKey === null
          ? await sendDelayedEvent(this.http, roomId, type, nextTxn(), content, delay)
          : await sendDelayedStateEvent(this.http, roomId, type, content, delay, stateKey);
      return { roomId, delayId: r.delay_id };
    }
    const r =
      stateKey === null
        ? await sendEvent(this.http, roomId, type, nextTxn(), content)
        : await sendStateEvent(this.http, roomId, type, content, stateKey);
    return { roomId, eventId: r.event_id };
  };

  public updateDelayedEvent = async (delayId: string, action: UpdateDelayedEventActionKind) => {
    await updateDelayedEvent(this.http, delayId, action);
  };

  public sendToDevice = async (
    type: string,
    encrypted: boolean,
    messages: Record<string, Record<string, Record<string, unknown>>>,
  ): Promise<void> => {
    this.toDeviceSent.push({ type, encrypted });
    if (encrypted && this.refuseEncryptedToDevice) throw new Error(TO_DEVICE_UNSUPPORTED);
    await sendToDevice(this.http, type, nextTxn(), messages);
  };

  public readRoomTimeline = async (
    roomId: string,
    type: string,
    _msgtype: string | undefined,
    _stateKey: string | undefined,
    limit: number,
  ): Promise<RoomEvent[]> => {
    this.readLimits.push(limit);
    await this.firstSync;
    const wanted = Math.min(limit, this.maxRead);
    const ofType = (): ClientEventWithoutRoomId[] =>
      this.timeline.filter((e) => e.type === type && e.state_key === undefined);
    // One back-pagination at a time: reads of several types come together and share the token.
    this.paging = this.paging.then(async () => {
      while (ofType().length < wanted && typeof this.backToken === "string") {
        const page = await messages(this.http, roomId, { from: this.backToken, dir: "b", limit: 50 });
        this.pagesRead++;
        this.timeline.unshift(...page.chunk.reverse());
        this.backToken = page.end !== undefined && page.chunk.length > 0 ? page.end : null;
      }
    });
    await this.paging;
    return ofType()
      .slice(-wanted)
      .map((e) => ({ ...e, room_id: roomId }));
  };

  public readEventRelations = async (
    eventId: string,
    roomId: string | undefined,
    relType: string | undefined,
    eventType: string | undefined,
    from: string | undefined,
    to: string | undefined,
    limit: number | undefined,
    direction: "f" | "b" | undefined,
  ) => {
    const r = await relations(this.http, roomId ?? this.roomId, eventId, {
      ...(relType !== undefined ? { relType } : {}),
      ...(eventType !== undefined ? { eventType } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(direction !== undefined ? { dir: direction } : {}),
    });
    return {
      chunk: r.chunk as RoomEvent[],
      ...(r.next_batch !== undefined ? { nextBatch: r.next_batch } : {}),
      ...(r.prev_batch !== undefined ? { prevBatch: r.prev_batch } : {}),
    };
  };

  public getMediaConfig = async (): Promise<Record<string, unknown>> => ({
    ...(await getMediaConfig(this.http)),
  });

  public uploadFile = async (file: unknown): Promise<{ contentUri: string }> => {
    if (!(file instanceof Blob)) throw new Error("not a file");
    return { contentUri: (await uploadContent(this.http, file)).content_uri };
  };

  public downloadFile = async (contentUri: string): Promise<{ file: unknown }> => {
    const r = await downloadContent(this.http, contentUri);
    return { file: new Blob([r.data], { type: r.contentType ?? "application/octet-stream" }) };
  };

  public readRoomState = async (
    roomId: string,
    type: string,
    stateKey: string | undefined,
  ): Promise<RoomEvent[]> => {
    await this.firstSync;
    return [...this.state.values()]
      .filter((e) => e.type === type && (stateKey === undefined || e.state_key === stateKey))
      .map((e) => ({ ...e, room_id: roomId }));
  };

  public async *getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    await Promise.resolve();
    yield { uris: ["turn:turn.example.org"], username: "u", password: "p" };
  }

  public askOpenId(observer: OpenIdObserver): void {
    observer.update({
      state: "allowed",
      token: { access_token: "openid", expires_in: 3600, matrix_server_name: "test", token_type: "Bearer" },
    });
  }

  public getRtcTransports = (): Promise<Record<string, unknown>[]> =>
    Promise.resolve([{ type: "livekit", livekit_service_url: "https://livekit.example.org" }]);

  /** Runs the host's /sync loop until stop(), feeding the room's events to the widget. */
  public async run(): Promise<void> {
    let since: string | undefined;
    while (!this.stopped.signal.aborted) {
      try {
        const r = await sync(this.http, {
          ...(since !== undefined ? { since } : {}),
          timeout: since === undefined ? 0 : 500,
          signal: this.stopped.signal,
        });
        since = r.next_batch;
        const room = r.rooms?.join?.[this.roomId];
        if (this.backToken === undefined && room !== undefined)
          this.backToken = room.timeline?.limited === true ? (room.timeline.prev_batch ?? null) : null;
        for (const e of room?.state?.events ?? []) this.state.set(`${e.type}|${e.state_key ?? ""}`, e);
        const events = room?.timeline?.events ?? [];
        for (const e of events) {
          this.timeline.push(e);
          if (e.state_key !== undefined) this.state.set(`${e.type}|${e.state_key}`, e);
        }
        // Reads may answer now; the pushes below can wait for the widget (the host holds them until it is ready).
        this.synced();
        for (const e of r.to_device?.events ?? [])
          await this.host
            ?.feedToDevice({ type: e.type, sender: e.sender, content: e.content }, false)
            .catch(() => undefined);
        for (const e of events) {
          const event: RoomEvent = { ...e, room_id: this.roomId };
          if (e.state_key === undefined || this.stateInTimeline)
            await this.host?.feedEvent(event).catch(() => undefined);
          if (e.state_key !== undefined) await this.host?.feedStateUpdate(event).catch(() => undefined);
        }
      } catch {
        if (this.stopped.signal.aborted) return;
      }
    }
  }

  public stop(): void {
    this.stopped.abort();
  }
}

/** A host page and a widget frame on two origins, wired; the widget side is not started. */
export function pairedWidget(
  driver: HomeserverDriver,
  opts: { timeoutMs?: number; hostTimeoutMs?: number } = {},
): { host: ClientWidgetApi; widget: WidgetApi; hostWindow: FakeWindow; widgetWindow: FakeWindow } {
  const hostWindow = new FakeWindow(HOST_ORIGIN);
  const widgetWindow = new FakeWindow(WIDGET_ORIGIN);
  const { frame, parent } = embed(hostWindow, widgetWindow);
  const quiet = { error: () => undefined, warn: () => undefined };
  const host = new ClientWidgetApi({
    widget: { id: "lattice", url: `${WIDGET_ORIGIN}/embedded.html`, waitForIframeLoad: false },
    frameWindow: frame,
    hostWindow,
    driver,
    logger: quiet,
    ...(opts.hostTimeoutMs !== undefined ? { timeoutMs: opts.hostTimeoutMs } : {}),
  });
  driver.host = host;
  host.setViewedRoomId(driver.roomId);
  const widget = new WidgetApi({
    widgetId: "lattice",
    parentWindow: parent,
    selfWindow: widgetWindow,
    clientOrigin: HOST_ORIGIN,
    logger: quiet,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  return { host, widget, hostWindow, widgetWindow };
}

/** The host's HTTP client for a user's token. */
export function hostHttp(baseUrl: string, accessToken: string): HttpApi {
  return createHttpClient({ baseUrl, accessToken });
}
