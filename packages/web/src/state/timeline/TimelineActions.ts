/**
 * What a reader does to messages, over the SDK client: reactions toggled
 * through the send queue (an m.reaction, or the redaction of one's own),
 * deletion with a reason (allowed by power level), retry/cancel of a failed
 * local echo, read receipts moved forward as messages become visible, the
 * edit history from /relations, reply targets fetched when not loaded, URL
 * previews (only as urlPreviewPolicy.ts allows: never in encrypted rooms,
 * never for notices or strangers, never where the settings turn them off),
 * links to events and the trust shield of decrypted messages.
 */
import { fetchRelations, getEvent } from "../../sdk";
import type { Client, ClientEventWithoutRoomId, Room, TimelineItem, UrlPreview } from "../../sdk";
import { ObservableValue } from "../observables";
import { refusalFor } from "./urlPreviewPolicy";
import type { PreviewRefusal } from "./urlPreviewPolicy";

/** The trust of an encrypted message's sender device. */
export type Shield = "verified" | "unverified" | "unknown";

/** The unsigned key under which the SDK's crypto layer describes a decrypted event. */
const DECRYPTION_INFO_KEY = "io.lattice.decryption";

/** One version of an edited message. */
export interface EditVersion {
  readonly eventId: string;
  readonly ts: number;
  readonly body: string;
}

export interface TimelineActionsOptions {
  client: Client;
  room: Room;
  find: (eventId: string) => TimelineItem | undefined;
  items: () => readonly TimelineItem[];
}

/** The crypto part of the client, when the SDK has one (it is wired lazily). */
interface CryptoLike {
  readonly enabled?: boolean;
  getUserDevices(userId: string): Promise<Array<{ deviceId: string; verification: number }>>;
  /** Calls back after each change of a user's identity or devices (`initial: false`: not for the trust now). */
  readonly identityWarnings?: {
    watch(userId: string, listener: () => void, options: { initial: false }): () => void;
  };
}

export type { UrlPreview, ClientEventWithoutRoomId };

export class TimelineActions {
  private readonly client: Client;
  private readonly room: Room;
  private lastRead: { eventId: string; index: number } | null = null;
  private readTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly events = new Map<string, Promise<ClientEventWithoutRoomId | null>>();
  private readonly devices = new Map<string, Promise<Map<string, number>>>();
  /** Senders whose identity and devices are watched (their shields are read again on a change). */
  private readonly trustWatches = new Map<string, () => void>();
  /** Bumped when a watched sender's identity or devices change: tiles read their shields again. */
  readonly trustVersion = new ObservableValue(0);

  constructor(private readonly options: TimelineActionsOptions) {
    this.client = options.client;
    this.room = options.room;
  }

  get roomId(): string {
    return this.room.roomId;
  }

  get isEncrypted(): boolean {
    return this.room.getSnapshot().isEncrypted;
  }

  /** Adds the user's reaction with `key`, or removes it when present. */
  toggleReaction(eventId: string, key: string): void {
    const item = this.options.find(eventId);
    const mine = item?.reactions
      .find((g) => g.key === key)
      ?.events.find((e) => e.sender === this.client.userId);
    if (mine !== undefined) this.client.sendQueue.redact(this.roomId, mine.event_id);
    else this.client.sendQueue.react(this.roomId, eventId, key);
  }

  /** Whether the user reacted with `key` on the event. */
  hasReacted(item: TimelineItem, key: string): boolean {
    return item.reactions.some((g) => g.key === key && g.senders.includes(this.client.userId));
  }

  /** Whether the user may delete the event (their own, or by power level). */
  canRedact(item: TimelineItem): boolean {
    if (item.redacted) return false;
    return this.room.getSnapshot().state.powerLevels.canRedact(this.client.userId, item.sender);
  }

  /** Whether the user may edit the event (their own text messages). */
  canEdit(item: TimelineItem): boolean {
    const msgtype = item.content["msgtype"];
    return (
      item.sender === this.client.userId &&
      !item.redacted &&
      item.type === "m.room.message" &&
      (msgtype === "m.text" || msgtype === "m.emote" || msgtype === "m.notice")
    );
  }

  /** Deletes an event for everyone, with an optional reason. */
  redact(eventId: string, reason?: string): void {
    this.client.sendQueue.redact(this.roomId, eventId, reason === "" ? undefined : reason);
  }

  resend(txnId: string): void {
    this.client.sendQueue.resend(txnId);
  }

  cancel(txnId: string): void {
    this.client.sendQueue.cancel(txnId);
  }

  /**
   * Moves the read receipt (and, at the live end, the fully-read marker) to
   * `eventId` when it is newer than the last one sent. Batched: one request
   * per 500 ms of scrolling.
   */
  markRead(eventId: string, atLiveEnd: boolean): void {
    if (!eventId.startsWith("$")) return;
    const items = this.options.items();
    const index = items.findIndex((i) => i.eventId === eventId);
    if (index < 0) return;
    if (this.lastRead !== null && items[this.lastRead.index]?.eventId === this.lastRead.eventId) {
      if (index <= this.lastRead.index) return;
    } else if (this.lastRead?.eventId === eventId) return;
    const own = this.room.getSnapshot().receipts.of(this.client.userId);
    if (own?.eventId === eventId) return;
    this.lastRead = { eventId, index };
    clearTimeout(this.readTimer);
    this.readTimer = setTimeout(() => {
      const markers = atLiveEnd ? { read: eventId, fullyRead: eventId } : { read: eventId };
      this.client.receipts.setReadMarkers(this.roomId, markers).catch(() => {
        // A failed receipt is retried by the next visible message.
        if (this.lastRead?.eventId === eventId) this.lastRead = null;
      });
    }, 500);
  }

  /** An event by id: the loaded one, or fetched from the server (cached; null when it cannot be). */
  loadEvent(eventId: string): Promise<ClientEventWithoutRoomId | null> {
    const loaded = this.options.find(eventId);
    if (loaded !== undefined) return Promise.resolve(loaded.event);
    let pending = this.events.get(eventId);
    if (pending === undefined) {
      pending = getEvent(this.client.http, this.roomId, eventId).then(
        (e) => e,
        () => null,
      );
      this.events.set(eventId, pending);
    }
    return pending;
  }

  /** The versions of an edited message, oldest (the original) first. */
  async editHistory(eventId: string): Promise<EditVersion[]> {
    const original = await this.loadEvent(eventId);
    const res = await fetchRelations(this.client.http, this.roomId, eventId, {
      relType: "m.replace",
      limit: 50,
    });
    const versions: EditVersion[] = [];
    if (original !== null) versions.push(versionOf(original, original.content));
    for (const e of res.chunk) {
      if (e.sender !== original?.sender) continue;
      const next = e.content["m.new_content"];
      versions.push(versionOf(e, typeof next === "object" && next !== null ? next : e.content));
    }
    return versions.sort((a, b) => a.ts - b.ts);
  }

  /** Null when a link in `message` may be previewed, else why not (urlPreviewPolicy.ts). */
  previewRefusal(message: {
    readonly sender: string;
    readonly content: Readonly<Record<string, unknown>>;
  }): PreviewRefusal | null {
    return refusalFor(this.client, this.room, message);
  }

  /**
   * The preview card data of `url`, a link in `message`; null when the
   * policy refuses it (nothing is asked) or the server has none. The SDK
   * remembers a URL the server refused, so it is not asked again.
   */
  async urlPreview(
    url: string,
    message: { readonly sender: string; readonly content: Readonly<Record<string, unknown>> },
  ): Promise<UrlPreview | null> {
    if (this.previewRefusal(message) !== null) return null;
    try {
      return await this.client.urlPreviews.preview(url, this.roomId);
    } catch {
      return null;
    }
  }

  /** A shareable link to an event. */
  linkTo(eventId: string): string {
    return `https://matrix.to/#/${encodeURIComponent(this.roomId)}/${encodeURIComponent(eventId)}`;
  }

  /** Whether `shieldOf` can give a shield (the event was decrypted): false for most events, decided without waiting. */
  mayHaveShield(item: TimelineItem): boolean {
    const info = item.event.unsigned?.[DECRYPTION_INFO_KEY] as { failure?: unknown } | undefined;
    return info !== undefined && info.failure === undefined;
  }

  /** The shield of a decrypted message, or null for one that was not encrypted. */
  async shieldOf(item: TimelineItem): Promise<Shield | null> {
    const unsigned = item.event.unsigned;
    const info = unsigned?.[DECRYPTION_INFO_KEY] as { senderDevice?: unknown; failure?: unknown } | undefined;
    if (info === undefined || info.failure !== undefined) return null;
    const deviceId = typeof info.senderDevice === "string" ? info.senderDevice : undefined;
    const crypto = (this.client as unknown as { crypto?: CryptoLike }).crypto;
    if (deviceId === undefined || crypto === undefined || crypto.enabled === false) return "unknown";
    let devices = this.devices.get(item.sender);
    if (devices === undefined) {
      this.watchTrust(item.sender, crypto);
      devices = crypto.getUserDevices(item.sender).then(
        (list) => new Map(list.map((d) => [d.deviceId, d.verification])),
        () => new Map<string, number>(),
      );
      this.devices.set(item.sender, devices);
    }
    const level = (await devices).get(deviceId);
    if (level === undefined) return "unknown";
    return level > 0 ? "verified" : "unverified";
  }

  dispose(): void {
    clearTimeout(this.readTimer);
    this.events.clear();
    this.devices.clear();
    for (const stop of this.trustWatches.values()) stop();
    this.trustWatches.clear();
  }

  /** Forgets the sender's devices when their identity or devices change (a verification, a new device). */
  private watchTrust(userId: string, crypto: CryptoLike): void {
    if (this.trustWatches.has(userId) || crypto.identityWarnings === undefined) return;
    const stop = crypto.identityWarnings.watch(
      userId,
      () => {
        this.devices.delete(userId);
        this.trustVersion.set(this.trustVersion.getSnapshot() + 1);
      },
      { initial: false },
    );
    this.trustWatches.set(userId, stop);
  }
}

function versionOf(event: ClientEventWithoutRoomId, content: object): EditVersion {
  const body = (content as Record<string, unknown>)["body"];
  return { eventId: event.event_id, ts: event.origin_server_ts, body: typeof body === "string" ? body : "" };
}
