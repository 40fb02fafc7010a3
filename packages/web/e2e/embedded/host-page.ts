/**
 * A host page no one here wrote the host of: matrix-widget-api's
 * ClientWidgetApi embedding Lattice's embedded page from another origin,
 * with a driver over a real homeserver connection. The host's token
 * reaches this page through `window.startHost` (never a URL, never the
 * widget); the page runs its own /sync loop and feeds the room's events to
 * the widget as a host client does; a read deeper than what it synced
 * pages the server's /messages back; media goes to the server's
 * authenticated media (MSC4039). Knobs: hold the capability approval
 * until `window.releaseCapabilities()`, leave the first N sends
 * unanswered (time-outs), and hold the timeline reads deeper than N
 * events until `window.releaseReads()` (history arrives on cue).
 */
import type { IRoomEvent, ISendEventDetails } from "matrix-widget-api";
import { ClientWidgetApi, Widget, WidgetDriver } from "matrix-widget-api";

/** What the test hands the host. */
export interface HostConfig {
  homeserver: string;
  token: string;
  roomId: string;
  /** The embedded page's URL (another origin). */
  widgetUrl: string;
  view: "room" | "call";
  holdCapabilities?: boolean;
  hangSends?: number;
  holdReadsAbove?: number;
}

declare global {
  interface Window {
    startHost(config: HostConfig): Promise<void>;
    releaseCapabilities(): void;
    releaseReads(): void;
    hostReady: boolean;
    hostSends: number;
    hostUploads: number;
    hostReadLimits: number[];
    hostDownloads: number;
    setHostTheme(name: string): Promise<void>;
  }
}

let release: () => void = () => undefined;
const released = new Promise<void>((r) => (release = r));
window.releaseCapabilities = () => release();
let releaseReads: () => void = () => undefined;
const readsReleased = new Promise<void>((r) => (releaseReads = r));
window.releaseReads = () => releaseReads();
window.hostReady = false;
window.hostSends = 0;
window.hostUploads = 0;
window.hostReadLimits = [];
window.hostDownloads = 0;

window.startHost = async (config: HostConfig): Promise<void> => {
  const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${config.homeserver}/_matrix/client/v3${path}`, {
      method,
      headers: { authorization: `Bearer ${config.token}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const me = await api("GET", "/account/whoami");
  const userId = String(me["user_id"]);
  const deviceId = String(me["device_id"]);
  const timeline: IRoomEvent[] = [];
  const state = new Map<string, IRoomEvent>();
  let backToken: string | null = null;
  let paging = Promise.resolve();
  /** Pages the server back (one paging at a time) until `want` events of `type` are loaded or the room starts. */
  const loadBack = (type: string, want: number): Promise<void> =>
    (paging = paging.then(async () => {
      const count = (): number => timeline.filter((e) => e.type === type && e.state_key === undefined).length;
      while (count() < want && backToken !== null) {
        const page = await api(
          "GET",
          `/rooms/${encodeURIComponent(config.roomId)}/messages?dir=b&limit=50&from=${encodeURIComponent(backToken)}`,
        );
        const chunk = (Array.isArray(page["chunk"]) ? (page["chunk"] as IRoomEvent[]) : []).map((e) => ({
          ...e,
          room_id: config.roomId,
        }));
        timeline.unshift(...chunk.reverse());
        backToken = typeof page["end"] === "string" && chunk.length > 0 ? page["end"] : null;
      }
    }));
  const media = async (method: string, path: string, body?: BodyInit): Promise<Response> => {
    const res = await fetch(`${config.homeserver}${path}`, {
      method,
      headers: { authorization: `Bearer ${config.token}` },
      ...(body !== undefined ? { body } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
    return res;
  };
  let txn = 0;
  let hang = config.hangSends ?? 0;

  class HomeserverDriver extends WidgetDriver {
    public override async validateCapabilities(requested: Set<string>): Promise<Set<string>> {
      if (config.holdCapabilities === true) await released;
      return new Set(requested);
    }
    public override async sendEvent(
      type: string,
      content: unknown,
      stateKey?: string | null,
      roomId?: string | null,
    ): Promise<ISendEventDetails> {
      window.hostSends++;
      if (hang-- > 0) return new Promise<never>(() => undefined);
      const target = roomId ?? config.roomId;
      const r = encodeURIComponent(target);
      const path =
        stateKey === null || stateKey === undefined
          ? `/rooms/${r}/send/${encodeURIComponent(type)}/host${Date.now()}-${++txn}`
          : `/rooms/${r}/state/${encodeURIComponent(type)}/${encodeURIComponent(stateKey)}`;
      const sent = await api("PUT", path, content);
      return { roomId: target, eventId: String(sent["event_id"]) };
    }
    public override async readRoomTimeline(
      _roomId: string,
      type: string,
      _msgtype: string | undefined,
      _stateKey: string | undefined,
      limit: number,
    ): Promise<IRoomEvent[]> {
      window.hostReadLimits.push(limit);
      if (config.holdReadsAbove !== undefined && limit > config.holdReadsAbove) await readsReleased;
      if (limit > 0) await loadBack(type, limit);
      return timeline.filter((e) => e.type === type && e.state_key === undefined).slice(-limit);
    }
    public override async getMediaConfig(): Promise<Record<string, unknown>> {
      return (await (await media("GET", "/_matrix/client/v1/media/config")).json()) as Record<
        string,
        unknown
      >;
    }
    public override async uploadFile(file: XMLHttpRequestBodyInit): Promise<{ contentUri: string }> {
      window.hostUploads++;
      const r = (await (await media("POST", "/_matrix/media/v3/upload", file as BodyInit)).json()) as {
        content_uri: string;
      };
      return { contentUri: r.content_uri };
    }
    public override async downloadFile(contentUri: string): Promise<{ file: XMLHttpRequestBodyInit }> {
      window.hostDownloads++;
      const path = contentUri.replace(/^mxc:\/\//, "");
      return { file: await (await media("GET", `/_matrix/client/v1/media/download/${path}`)).blob() };
    }
    public override readRoomState(
      _roomId: string,
      type: string,
      stateKey: string | undefined,
    ): Promise<IRoomEvent[]> {
      return Promise.resolve(
        [...state.values()].filter(
          (e) => e.type === type && (stateKey === undefined || e.state_key === stateKey),
        ),
      );
    }
    public override getKnownRooms(): string[] {
      return [config.roomId];
    }
  }

  // The first sync, so reads have the room before the widget asks.
  const take = (events: unknown, into: "state" | "timeline"): IRoomEvent[] => {
    const out: IRoomEvent[] = [];
    for (const raw of Array.isArray(events) ? (events as IRoomEvent[]) : []) {
      const e = { ...raw, room_id: config.roomId };
      if (into === "timeline") timeline.push(e);
      if (typeof e.state_key === "string") state.set(`${e.type}|${e.state_key}`, e);
      out.push(e);
    }
    return out;
  };
  const roomOf = (s: Record<string, unknown>): Record<string, { events?: unknown }> | undefined =>
    ((s["rooms"] as Record<string, Record<string, unknown>> | undefined)?.["join"]?.[config.roomId] as
      Record<string, { events?: unknown }> | undefined) ?? undefined;
  const first = await api("GET", "/sync?timeout=0");
  take(roomOf(first)?.["state"]?.events, "state");
  take(roomOf(first)?.["timeline"]?.events, "timeline");
  const firstTimeline = roomOf(first)?.["timeline"] as { limited?: boolean; prev_batch?: string } | undefined;
  if (firstTimeline?.limited === true && typeof firstTimeline.prev_batch === "string")
    backToken = firstTimeline.prev_batch;
  let since = String(first["next_batch"]);

  const iframe = document.createElement("iframe");
  iframe.style.width = "800px";
  iframe.style.height = "600px";
  iframe.allow = "microphone; camera; autoplay";
  document.body.appendChild(iframe);
  const widget = new ClientWidgetApi(
    new Widget({
      id: "lattice",
      creatorUserId: userId,
      type: "m.custom",
      url: config.widgetUrl,
      waitForIframeLoad: false,
    }),
    iframe,
    new HomeserverDriver(),
  );
  widget.setViewedRoomId(config.roomId);
  widget.on("ready", () => (window.hostReady = true));
  window.setHostTheme = async (name: string) => {
    await widget.updateTheme({ name });
  };
  // Element Call's URL shape: widgetId and parentUrl in the query, the rest in the fragment.
  const fragment = new URLSearchParams({
    roomId: config.roomId,
    userId,
    deviceId,
    baseUrl: config.homeserver,
    view: config.view,
    theme: "light",
    lang: "en",
  });
  iframe.src = `${config.widgetUrl}?widgetId=lattice&parentUrl=${encodeURIComponent(
    location.origin + location.pathname,
  )}#?${fragment.toString()}`;

  void (async () => {
    for (;;) {
      try {
        const s = await api("GET", `/sync?timeout=1000&since=${encodeURIComponent(since)}`);
        since = String(s["next_batch"]);
        for (const e of take(roomOf(s)?.["timeline"]?.events, "timeline")) {
          await widget.feedEvent(e).catch(() => undefined);
          if (typeof e.state_key === "string") await widget.feedStateUpdate(e).catch(() => undefined);
        }
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();
};
