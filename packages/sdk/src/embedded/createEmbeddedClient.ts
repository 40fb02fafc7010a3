/**
 * createEmbeddedClient: the SDK's Client for a page that runs inside a host
 * application as a widget (docs/architecture/0034-embedded-client.md). It
 * is createClient with the HTTP layer swapped for the widget transport
 * (WidgetHttp) and /sync served from the host's pushes (WidgetFeed); the
 * sync loop, the room model, the send queue and MatrixRTC are the same
 * code as over HTTP. Crypto stays off: the host encrypts and decrypts, so
 * sends into an encrypted room go to it in the clear.
 *
 * start() asks for the capabilities the view needs (capabilities.ts),
 * waits for the host's approval, then starts syncing; a request before the
 * approval fails with 'Not connected yet'. MatrixRTC keys go as encrypted
 * to-device through the host; when the host refuses ('The widget driver
 * does not support to-device encryption', or no to-device capability
 * granted), the key transports fall back to the room transport by
 * themselves.
 *
 * The send queue takes a send for the granted room from the approval on,
 * even before the first sync brought the room (it then seeds the room model
 * with the room, empty until that sync fills it), so the send waits in the
 * queue and goes out; a send before the approval is refused with 'Not
 * connected yet', one naming any other room with 'Unknown room: {room}'.
 */
import type { WidgetApi } from "@lattice/widget-api";
import { toDeviceCapability, WidgetApiResponseError } from "@lattice/widget-api";
import { createClient } from "../client";
import type { Client, CreateClientOptions, DisposeOptions } from "../client";
import type { SendQueue } from "../send/SendQueue";
import type { RoomListSummaryEntry } from "../models/room-list/summary-entry";
import type { KeyTarget } from "../rtc/keys/transports";
import { TO_DEVICE_UNSUPPORTED } from "../rtc/constants";
import { embeddedCapabilities } from "./capabilities";
import type { EmbeddedView } from "./capabilities";
import { EmbeddedClientError, NOT_CONNECTED_MESSAGE, unknownRoomMessage } from "./errors";
import { WidgetFeed } from "./feed";
import { httpErrorOf, WidgetHttp } from "./WidgetHttp";
import { mediaAbilities } from "./media";
import type { MediaAbilities } from "./media";

/** How to build an embedded client. */
export interface EmbeddedClientOptions extends Pick<
  CreateClientOptions,
  "scheduler" | "logger" | "voip" | "rtcTransports" | "sync"
> {
  /** The widget side, built over the page's parent window (not started yet). */
  widget: WidgetApi;
  /** The one room the host grants. */
  roomId: string;
  userId: string;
  deviceId: string;
  /** What the page shows: it decides the capability request. */
  view: EmbeddedView;
}

/** The Client surface, for the granted room, plus the widget's own state. */
export interface EmbeddedClient extends Client {
  readonly roomId: string;
  readonly view: EmbeddedView;
  readonly widget: WidgetApi;
  /** The capabilities asked for. */
  readonly requestedCapabilities: readonly string[];
  /** Resolves with the approved capabilities once the host answered. */
  connected(): Promise<readonly string[]>;
  /** Whether media can be sent and shown: the host speaks MSC4039 and granted upload_file / download_file. */
  mediaAbilities(): Promise<MediaAbilities>;
}

/** State types the first sync reads, and the timeline types, per view. */
function feedReads(view: EmbeddedView): { stateTypes: string[]; timelineTypes: string[] } {
  const state = ["m.room.create", "m.room.member", "m.room.name", "m.room.power_levels", "m.room.encryption"];
  return view === "room"
    ? {
        stateTypes: [...state, "m.room.topic", "m.room.avatar", "m.room.join_rules"],
        timelineTypes: ["m.room.message", "m.reaction", "m.room.redaction"],
      }
    : {
        stateTypes: [...state, "org.matrix.msc3401.call.member", "org.matrix.msc3401.call"],
        timelineTypes: [],
      };
}

/** True when a host error reply says it cannot encrypt to-device (in its message or its extra fields). */
function refusesEncryption(error: unknown): boolean {
  if (!(error instanceof WidgetApiResponseError)) return false;
  return error.message === TO_DEVICE_UNSUPPORTED || Object.values(error.data).includes(TO_DEVICE_UNSUPPORTED);
}

/** The send queue's methods that name a room first. */
const ROOM_SENDS = new Set<PropertyKey>(["send", "sendRelated", "react", "redact"]);

/** An empty joined room for the model, until the first sync fills it. */
function seedOf(roomId: string): RoomListSummaryEntry {
  const unread = { highlightCount: 0, notificationCount: 0 };
  const name = { kind: "empty", name: "" } as const;
  return {
    roomId,
    category: "join",
    name,
    state: [],
    summary: {},
    unread,
    threadUnread: [],
    accountData: [],
  };
}

/**
 * `client`'s send queue, whose room sends take the granted room before the
 * first sync (seeding it) and refuse any other room as the router does.
 */
function grantedQueue(client: Client, roomId: string, approved: () => boolean): SendQueue {
  const queue = client.sendQueue;
  return new Proxy(queue, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const method = value as (...a: unknown[]) => unknown;
      if (!ROOM_SENDS.has(prop)) return method.bind(target);
      return (room: string, ...rest: unknown[]): unknown => {
        if (room !== roomId) throw new EmbeddedClientError("UNKNOWN_ROOM", unknownRoomMessage(room));
        if (!approved()) throw new EmbeddedClientError("NOT_CONNECTED", NOT_CONNECTED_MESSAGE);
        if (!client.rooms.find(roomId)) client.rooms.seed([seedOf(roomId)]);
        return method.apply(target, [room, ...rest]);
      };
    },
  });
}

/** Builds the embedded client; nothing is sent to the host until start(). */
export function createEmbeddedClient(options: EmbeddedClientOptions): EmbeddedClient {
  const { widget, roomId, userId, deviceId, view } = options;
  const requested = embeddedCapabilities(view, roomId, userId, deviceId);
  let approved: readonly string[] | null = null;
  const ready = new Promise<readonly string[]>((resolve) => {
    const off = widget.on("ready", () => {
      off();
      approved = widget.approvedCapabilities ?? requested;
      resolve(approved);
    });
  });
  const feed = new WidgetFeed(widget, roomId, feedReads(view));
  const http = new WidgetHttp({ widget, roomId, userId, feed, connected: () => approved !== null });

  const sendToDevice = async (
    type: string,
    targets: readonly KeyTarget[],
    content: Record<string, unknown>,
  ): Promise<void> => {
    if (approved === null) throw new EmbeddedClientError("NOT_CONNECTED", "Not connected yet");
    if (!widget.hasCapability(toDeviceCapability("send", type)))
      throw new EmbeddedClientError("UNSUPPORTED", TO_DEVICE_UNSUPPORTED);
    const messages: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const t of targets) (messages[t.userId] ??= {})[t.deviceId] = content;
    try {
      await widget.sendToDevice(type, true, messages);
    } catch (error) {
      if (refusesEncryption(error))
        throw new EmbeddedClientError("UNSUPPORTED", TO_DEVICE_UNSUPPORTED, { cause: error });
      throw httpErrorOf(error);
    }
  };

  const client = createClient({
    ...options,
    userId,
    deviceId,
    crypto: false,
    // The host encrypts room events in encrypted rooms and decrypts what it pushes.
    transport: {
      http,
      sendToDevice,
      hostEncrypts: true,
      onToDevice: (listener) => feed.onToDevice(listener),
    },
    // Sync v2 against the feed; the host long-polls for us, so the first answer is the read.
    sync: { ...options.sync, syncMode: "v2", lazyLoadMembers: false },
  });

  let started: Promise<void> | undefined;
  const start = async (): Promise<void> => {
    started ??= (async () => {
      widget.requestCapabilities(requested);
      widget.start();
      // Hosts that wait for content_loaded (waitForIframeLoad false) start negotiating on it; others refuse it.
      widget.sendContentLoaded().catch(() => undefined);
      await ready;
      await client.start();
    })();
    await started;
  };

  // createClient returns a plain object of closures: a copy with start and dispose wrapped.
  return {
    ...client,
    roomId,
    view,
    widget,
    requestedCapabilities: requested,
    sendQueue: grantedQueue(client, roomId, () => approved !== null),
    connected: () => ready,
    mediaAbilities: async () =>
      approved === null ? { upload: false, download: false } : mediaAbilities(widget),
    start,
    dispose: async (o?: DisposeOptions) => {
      feed.dispose();
      await client.dispose(o);
      widget.stop();
    },
  };
}
