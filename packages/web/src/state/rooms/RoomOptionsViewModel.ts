/**
 * The room list's per-room options: notification mode (all, mentions and
 * keywords, mute: the push rules NotificationSettings writes for Settings ›
 * Notifications), favourite and low priority (m.tag, one excluding the
 * other), mark as read (read markers on the newest event, an unthreaded
 * receipt, so thread counts clear too), the room's shareable link, and
 * leave. The list's badges and sections follow through sync. One instance
 * per client view model, made with the room list's scope.
 */
import { roomBadge } from "../badges";
import type { Client } from "../../sdk";
import { ObservableValue } from "../observables";
import { permalinkOf } from "../routing/routes";
import type { Scope } from "../Scope";
import { NotificationSettings } from "../settings/NotificationSettings";
import type { RoomNotificationMode } from "../settings/NotificationSettings";
import { describeFailure } from "./failure";
import { UserFacingError } from "../errors";

export const FAVOURITE_TAG = "m.favourite";
export const LOW_PRIORITY_TAG = "m.lowpriority";

/** The client parts the options use. */
export type OptionsClient = Pick<Client, "http" | "rooms" | "accountData" | "receipts" | "moderation">;

/** One room's options as the menu shows them. */
export interface RoomOptionsView {
  readonly roomId: string;
  readonly name: string;
  readonly mode: RoomNotificationMode;
  readonly favourite: boolean;
  readonly lowPriority: boolean;
  readonly unread: boolean;
}

/** The open menu: its room and where it shows (viewport pixels). */
export interface MenuRequest {
  readonly roomId: string;
  readonly x: number;
  readonly y: number;
}

/** The running action, and the last failure. */
export interface OptionsStatus {
  readonly busy: string | null;
  readonly error: string | null;
}

export class RoomOptionsViewModel {
  /** The push rules (shared code with the settings screen). */
  readonly notifications: NotificationSettings;
  readonly status = new ObservableValue<OptionsStatus>({ busy: null, error: null });
  /** The menu shown, or null. */
  readonly menu = new ObservableValue<MenuRequest | null>(null);
  private loaded: Promise<void> | null = null;

  constructor(
    private readonly client: OptionsClient,
    scope: Scope,
    /** Called after leaving a room (the list closes it when open). */
    private readonly onLeft: (roomId: string) => void = () => undefined,
  ) {
    this.notifications = new NotificationSettings(client, scope);
  }

  /** Fetches the push rules once (sync keeps them current after that). */
  load(): Promise<void> {
    this.loaded ??= this.notifications.load().catch(() => {
      this.loaded = null;
    });
    return this.loaded;
  }

  /** Opens the menu of a room at a point (a button, a right click, the keyboard). */
  openMenu(roomId: string, x: number, y: number): void {
    this.status.set({ busy: null, error: null });
    this.menu.set({ roomId, x, y });
    void this.load();
  }

  closeMenu(): void {
    this.menu.set(null);
  }

  /** The options of a room as they are now. */
  view(roomId: string): RoomOptionsView | null {
    const room = this.client.rooms.find(roomId)?.getSnapshot();
    if (room === undefined) return null;
    const unread = roomBadge(room).level !== "none";
    return {
      roomId,
      name: room.name.name,
      mode: this.notifications.roomMode(roomId),
      favourite: room.tags.has(FAVOURITE_TAG),
      lowPriority: room.tags.has(LOW_PRIORITY_TAG),
      unread,
    };
  }

  /** Sets the notification mode (push rules). */
  async setMode(roomId: string, mode: RoomNotificationMode): Promise<boolean> {
    await this.load();
    return this.run("mode", async () => {
      const ok = await this.notifications.setRoomMode(roomId, mode);
      if (!ok) throw new UserFacingError(this.notifications.status.getSnapshot().error ?? "");
    });
  }

  /** Adds or removes the favourite tag (adding it removes low priority). */
  setFavourite(roomId: string, on: boolean): Promise<boolean> {
    return this.run("favourite", () => this.setTag(roomId, FAVOURITE_TAG, LOW_PRIORITY_TAG, on));
  }

  /** Adds or removes the low priority tag (adding it removes favourite). */
  setLowPriority(roomId: string, on: boolean): Promise<boolean> {
    return this.run("low", () => this.setTag(roomId, LOW_PRIORITY_TAG, FAVOURITE_TAG, on));
  }

  /** Marks everything in the room read (read receipt and fully-read marker on the newest event). */
  markRead(roomId: string): Promise<boolean> {
    return this.run("read", async () => {
      const latest = this.client.rooms.find(roomId)?.getSnapshot().latestEvent?.event_id;
      if (latest === undefined) return;
      await this.client.receipts.setReadMarkers(roomId, { read: latest, fullyRead: latest });
    });
  }

  /** The room's matrix.to link (its canonical alias when it has one). */
  linkOf(roomId: string): string {
    const alias = this.client.rooms.find(roomId)?.getSnapshot().state.content("m.room.canonical_alias")?.[
      "alias"
    ];
    return permalinkOf(typeof alias === "string" && alias !== "" ? alias : roomId);
  }

  /** Leaves the room. */
  async leave(roomId: string): Promise<boolean> {
    const ok = await this.run("leave", () => this.client.moderation.leave(roomId));
    if (ok) this.onLeft(roomId);
    return ok;
  }

  private async setTag(roomId: string, tag: string, other: string, on: boolean): Promise<void> {
    const tags = this.client.rooms.find(roomId)?.getSnapshot().tags;
    if (!on) {
      await this.client.accountData.removeTag(roomId, tag);
      return;
    }
    if (tags?.has(other) === true) await this.client.accountData.removeTag(roomId, other);
    await this.client.accountData.addTag(roomId, tag);
  }

  private async run(busy: string, action: () => Promise<unknown>): Promise<boolean> {
    this.status.set({ busy, error: null });
    try {
      await action();
      this.status.set({ busy: null, error: null });
      return true;
    } catch (err) {
      this.status.set({ busy: null, error: describeFailure(err) });
      return false;
    }
  }
}

const registry = new WeakMap<object, RoomOptionsViewModel>();

/** Makes `options` the room options of a room list (ClientViewModel does, once). */
export function provideRoomOptions(list: object, options: RoomOptionsViewModel): void {
  registry.set(list, options);
}

/** The room options of a room list, when its client provided them. */
export function roomOptionsOf(list: object): RoomOptionsViewModel | undefined {
  return registry.get(list);
}
