/**
 * A scriptable WidgetDriver for tests: records calls, grants what the test
 * says, and returns canned results. Each method can be overridden per test.
 */
import type { OpenIdObserver, SendEventOptions, SentEvent, WidgetDriver } from "../src/host/WidgetDriver";
import type { RoomAccountData, RoomEvent } from "../src/interfaces/RoomEvent";
import type { TurnServer } from "../src/interfaces/TurnServerActions";

/** A recorded driver call. */
export interface DriverCall {
  method: string;
  args: unknown[];
}

/** Builds a room event for tests. */
export function roomEvent(partial: Partial<RoomEvent> & { type: string; room_id: string }): RoomEvent {
  return {
    sender: "@alice:example.org",
    event_id: `$${Math.random().toString(36).slice(2)}`,
    origin_server_ts: 1,
    content: {},
    ...partial,
  };
}

/** The scriptable driver. */
export class FakeDriver implements WidgetDriver {
  public readonly calls: DriverCall[] = [];
  public grant: (requested: ReadonlySet<string>) => Set<string> = (r) => new Set(r);
  public timeline: RoomEvent[] = [];
  public state: RoomEvent[] = [];
  public accountData: RoomAccountData[] = [];
  public knownRooms: string[] = [];
  public turnServers: TurnServer[] = [];
  public openId: (observer: OpenIdObserver) => void = (o) => o.update({ state: "blocked" });
  public failWith: Error | null = null;
  private release: () => void = () => undefined;
  private readonly turnReleased = new Promise<void>((r) => (this.release = r));

  /** Ends the TURN stream (what a client does when it stops providing TURN). */
  public releaseTurn(): void {
    this.release();
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  private result<T>(value: T): Promise<T> {
    return this.failWith !== null ? Promise.reject(this.failWith) : Promise.resolve(value);
  }

  public callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  public validateCapabilities(requested: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    this.record("validateCapabilities", [...requested]);
    return Promise.resolve(this.grant(requested));
  }
  public sendEvent(
    type: string,
    content: Record<string, unknown>,
    stateKey: string | null,
    options: SendEventOptions,
  ): Promise<SentEvent> {
    this.record("sendEvent", type, content, stateKey, options);
    const roomId = options.roomId ?? "!viewed:example.org";
    return this.result(
      options.delay !== undefined || options.parentDelayId !== undefined
        ? { roomId, delayId: "syd_1" }
        : { roomId, eventId: "$sent" },
    );
  }
  public updateDelayedEvent(delayId: string, action: string): Promise<void> {
    this.record("updateDelayedEvent", delayId, action);
    return this.result(undefined);
  }
  public sendToDevice(type: string, encrypted: boolean, messages: unknown): Promise<void> {
    this.record("sendToDevice", type, encrypted, messages);
    return this.result(undefined);
  }
  public askOpenId(observer: OpenIdObserver): void {
    this.record("askOpenId");
    this.openId(observer);
  }
  public navigate(uri: string): Promise<void> {
    this.record("navigate", uri);
    return this.result(undefined);
  }
  public readRoomTimeline(
    roomId: string,
    type: string,
    msgtype: string | undefined,
    stateKey: string | undefined,
    limit: number,
    since: string | undefined,
  ): Promise<RoomEvent[]> {
    this.record("readRoomTimeline", roomId, type, msgtype, stateKey, limit, since);
    return this.result(this.timeline.filter((e) => e.room_id === roomId && e.type === type));
  }
  public readRoomState(roomId: string, type: string, stateKey: string | undefined): Promise<RoomEvent[]> {
    this.record("readRoomState", roomId, type, stateKey);
    return this.result(
      this.state.filter(
        (e) =>
          e.room_id === roomId && e.type === type && (stateKey === undefined || e.state_key === stateKey),
      ),
    );
  }
  public readRoomAccountData(type: string): Promise<RoomAccountData[]> {
    this.record("readRoomAccountData", type);
    return this.result(this.accountData.filter((d) => d.type === type));
  }
  public readEventRelations(
    ...args: unknown[]
  ): Promise<{ chunk: RoomEvent[]; prevBatch?: string; nextBatch?: string }> {
    this.record("readEventRelations", ...args);
    return this.result({ chunk: this.timeline, nextBatch: "next" });
  }
  public searchUserDirectory(term: string, limit: number | undefined) {
    this.record("searchUserDirectory", term, limit);
    return this.result({
      limited: false,
      results: [{ userId: "@bob:example.org", displayName: "Bob", avatarUrl: "mxc://x/y" }],
    });
  }
  public getMediaConfig(): Promise<Record<string, unknown>> {
    this.record("getMediaConfig");
    return this.result({ "m.upload.size": 1000 });
  }
  public uploadFile(file: unknown): Promise<{ contentUri: string }> {
    this.record("uploadFile", file);
    return this.result({ contentUri: "mxc://example.org/abc" });
  }
  public downloadFile(contentUri: string): Promise<{ file: unknown }> {
    this.record("downloadFile", contentUri);
    return this.result({ file: "file-bytes" });
  }
  public async *getTurnServers(): AsyncGenerator<TurnServer, void, void> {
    this.record("getTurnServers");
    await Promise.resolve();
    if (this.failWith !== null) throw this.failWith;
    for (const s of this.turnServers) yield s;
    // A real client keeps the stream open until the widget unwatches.
    if (this.turnServers.length > 0) await this.turnReleased;
  }
  public getKnownRooms(): string[] {
    return this.knownRooms;
  }
  public processError(error: unknown): Record<string, unknown> | undefined {
    return error instanceof Error && "errcode" in error
      ? { matrix_api_error: { errcode: (error as { errcode: unknown }).errcode } }
      : undefined;
  }
  public sendSticker(content: Record<string, unknown>): Promise<void> {
    this.record("sendSticker", content);
    return this.result(undefined);
  }
  public setAlwaysOnScreen(value: boolean): Promise<boolean> {
    this.record("setAlwaysOnScreen", value);
    return this.result(true);
  }
  public openModal(request: unknown): Promise<void> {
    this.record("openModal", request);
    return this.result(undefined);
  }
  public closeModal(data: Record<string, unknown>): Promise<void> {
    this.record("closeModal", data);
    return this.result(undefined);
  }
  public setModalButtonEnabled(button: string, enabled: boolean): Promise<void> {
    this.record("setModalButtonEnabled", button, enabled);
    return this.result(undefined);
  }
  public getRtcTransports(): Promise<Record<string, unknown>[]> {
    this.record("getRtcTransports");
    return this.result([{ type: "livekit", livekit_service_url: "https://sfu.example.org" }]);
  }
}
